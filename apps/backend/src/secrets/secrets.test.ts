import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSecretKey, parseSecretKey, secretKeySourceFromEnv } from './secret-key';
import { decryptSecret, encryptSecret, isEncryptedSecret, SecretUnreadableError, Secrets } from './secrets';

const key = randomBytes(32);

describe('encryptSecret / decryptSecret (AES-256-GCM)', () => {
  it('round-trips any text, with a fresh IV each time, in the v1 text format', () => {
    for (const plain of ['sk-live-123456', 'k', '', 'ünïcödé 🦦 key', 'x'.repeat(1_000)]) {
      const a = encryptSecret(key, plain, 'ctx');
      const b = encryptSecret(key, plain, 'ctx');
      expect(a).toMatch(/^v1:[\w-]{16}:[\w-]{22}:[\w-]*$/);
      expect(isEncryptedSecret(a)).toBe(true);
      expect(a).not.toBe(b);
      if (plain.length > 2) expect(a).not.toContain(plain);
      expect(decryptSecret(key, a, 'ctx')).toBe(plain);
      expect(decryptSecret(key, b, 'ctx')).toBe(plain);
    }
  });

  it('refuses another key, another context, and any altered part', () => {
    const text = encryptSecret(key, 'sk-live-123456', 'provider.api_key:prov_a');
    expect(() => decryptSecret(randomBytes(32), text, 'provider.api_key:prov_a')).toThrow(SecretUnreadableError);
    expect(() => decryptSecret(key, text, 'provider.api_key:prov_b')).toThrow(SecretUnreadableError);
    const [v, iv, tag, data] = text.split(':') as [string, string, string, string];
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    for (const altered of [
      [v, flip(iv), tag, data],
      [v, iv, flip(tag), data],
      [v, iv, tag, flip(data)],
      ['v2', iv, tag, data],
    ]) {
      expect(() => decryptSecret(key, altered.join(':'), 'provider.api_key:prov_a')).toThrow(SecretUnreadableError);
    }
    expect(isEncryptedSecret('sk-live-123456')).toBe(false);
  });

  it('derives separate, stable secrets from one root key', () => {
    const root = randomBytes(32);
    const a = new Secrets(root);
    const b = new Secrets(Buffer.from(root));
    expect(a.derive('auth-signing')).toEqual(b.derive('auth-signing'));
    expect(a.derive('auth-signing')).toHaveLength(32);
    expect(a.derive('auth-signing')).not.toEqual(a.derive('something-else'));
    expect(a.derive('auth-signing')).not.toEqual(root);
    // What one instance encrypts, another with the same root key reads; another root cannot.
    const text = a.encrypt('sk-abc', 'c');
    expect(b.decrypt(text, 'c')).toBe('sk-abc');
    expect(() => Secrets.random().decrypt(text, 'c')).toThrow(SecretUnreadableError);
  });
});

describe('the secret key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-secret-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('BATON_SECRET_KEY: 32 bytes as hex or base64; anything else is refused without echoing it', () => {
    const bytes = randomBytes(32);
    expect(parseSecretKey(bytes.toString('hex'), 'X')).toEqual(bytes);
    expect(parseSecretKey(bytes.toString('base64'), 'X')).toEqual(bytes);
    expect(parseSecretKey(`${bytes.toString('base64url')}\n`, 'X')).toEqual(bytes);
    for (const bad of ['hunter2-my-password', randomBytes(16).toString('hex'), randomBytes(31).toString('base64'), `${bytes.toString('hex')}00`]) {
      let message = '';
      try {
        secretKeySourceFromEnv({ BATON_SECRET_KEY: bad }, join(dir, 'unused'));
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^BATON_SECRET_KEY must hold 32 random bytes as 64 hex characters or as base64/);
      expect(message).not.toContain(bad);
    }
    expect(secretKeySourceFromEnv({ BATON_SECRET_KEY: bytes.toString('hex') }, 'f')).toEqual({ kind: 'env', key: bytes });
    expect(secretKeySourceFromEnv({}, 'f')).toEqual({ kind: 'file', path: 'f' });
  });

  it('without BATON_SECRET_KEY: generated once into the data directory (0600), then reused', () => {
    const path = join(dir, 'data', 'secret.key');
    const first = loadSecretKey({ kind: 'file', path });
    expect(first.created).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const second = loadSecretKey({ kind: 'file', path });
    expect(second.created).toBe(false);
    expect(second.key).toEqual(first.key);
    expect(parseSecretKey(readFileSync(path, 'utf8'), path)).toEqual(first.key);
  });

  it('a key file others can read is tightened; a broken one stops the start with its path', () => {
    const path = join(dir, 'loose.key');
    writeFileSync(path, randomBytes(32).toString('base64'));
    chmodSync(path, 0o644);
    loadSecretKey({ kind: 'file', path });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeFileSync(path, 'not a key');
    expect(() => loadSecretKey({ kind: 'file', path })).toThrow(`${path} must hold 32 random bytes`);
  });
});

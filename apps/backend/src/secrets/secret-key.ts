import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { log } from '../ops/logger';

/** The root secret: AES-256 wants 32 bytes, and HKDF derives every other secret from it. */
export const SECRET_KEY_BYTES = 32;

/** Where the root secret comes from: the environment, or a file generated once in the data directory. */
export type SecretKeySource = { kind: 'env'; key: Buffer } | { kind: 'file'; path: string };

export interface LoadedSecretKey {
  key: Buffer;
  source: SecretKeySource;
  /** True when this start generated the key file (nothing was encrypted with it before). */
  created: boolean;
}

const HEX = /^[0-9a-f]{64}$/i;
const BASE64 = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * 32 bytes as 64 hex characters or as base64 / base64url (`openssl rand -base64 32`).
 * The message never repeats the value: it is a secret even when it is malformed.
 */
export function parseSecretKey(text: string, where: string): Buffer {
  const value = text.trim();
  const key = HEX.test(value) ? Buffer.from(value, 'hex') : BASE64.test(value) ? Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64') : undefined;
  if (!key || key.length !== SECRET_KEY_BYTES) {
    throw new Error(
      `${where} must hold 32 random bytes as 64 hex characters or as base64 (for example the output of \`openssl rand -base64 32\`); ` +
        `the value found has ${value.length} characters`,
    );
  }
  return key;
}

export function secretKeySourceFromEnv(env: NodeJS.ProcessEnv, keyFile: string): SecretKeySource {
  const fromEnv = env.BATON_SECRET_KEY;
  if (fromEnv) return { kind: 'env', key: parseSecretKey(fromEnv, 'BATON_SECRET_KEY') };
  return { kind: 'file', path: keyFile };
}

/**
 * Reads the key file, or creates it (mode 0600) with a new random key. Creation is atomic
 * (a complete temporary file linked into place), so processes starting together on one
 * data directory end up with the same key and never read a half-written file.
 */
export function loadSecretKey(source: SecretKeySource): LoadedSecretKey {
  if (source.kind === 'env') return { key: source.key, source, created: false };
  const { path } = source;
  let created = false;
  if (!exists(path)) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temporary, path);
      created = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(temporary);
    }
  }
  // A key file others can read is as good as published: tighten it rather than refuse to start.
  if ((statSync(path).mode & 0o077) !== 0) {
    try {
      chmodSync(path, 0o600);
    } catch {
      log.warn({ path }, `secrets: ${path} can be read by other users of this machine, and Baton cannot change that (chmod 600 it)`);
    }
  }
  return { key: parseSecretKey(readFileSync(path, 'utf8'), path), source, created };
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

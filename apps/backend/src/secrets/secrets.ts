import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { SafeMessageError } from '../errors';
import { SECRET_KEY_BYTES } from './secret-key';

/**
 * Encrypted values are text, so a text column (`provider.api_key`) holds them as it is:
 * `v1:<iv>:<tag>:<ciphertext>`, each part base64url. AES-256-GCM, a random 12-byte IV per
 * value; `v1` leaves room for another scheme later.
 */
const FORMAT = /^v1:([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22}):([A-Za-z0-9_-]*)$/;
const IV_BYTES = 12;

export function isEncryptedSecret(text: string): boolean {
  return FORMAT.test(text);
}

/**
 * `context` is bound to the ciphertext (GCM's associated data): a value copied into another
 * row (another provider, another workspace) does not decrypt there.
 */
export function encryptSecret(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(':');
}

/** Throws SecretUnreadableError for a value of another key or context, or one that was altered. */
export function decryptSecret(key: Buffer, text: string, context: string): string {
  const match = FORMAT.exec(text);
  if (!match) throw new SecretUnreadableError();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(match[1]!, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(match[2]!, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(match[3]!, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnreadableError();
  }
}

export class SecretUnreadableError extends SafeMessageError {
  constructor() {
    super(
      'A stored secret cannot be decrypted with this server’s secret key (BATON_SECRET_KEY was changed, or the data directory’s secret.key was replaced). Enter the API key again in the provider settings.',
    );
    this.name = 'SecretUnreadableError';
  }
}

/**
 * Everything secret in Baton comes from one root key, so there is one thing to back up:
 * each use gets its own key derived with HKDF-SHA256 and a label, and the root key itself
 * encrypts nothing.
 */
export class Secrets {
  readonly #root: Buffer;
  readonly #atRest: Buffer;

  constructor(rootKey: Buffer) {
    if (rootKey.length !== SECRET_KEY_BYTES) throw new Error(`the secret key must be ${SECRET_KEY_BYTES} bytes`);
    this.#root = Buffer.from(rootKey);
    this.#atRest = this.derive('secrets-at-rest/v1');
  }

  /** A fresh random root key (tests, and nothing else: a server's key must survive restarts). */
  static random(): Secrets {
    return new Secrets(randomBytes(SECRET_KEY_BYTES));
  }

  /** A further secret for one purpose (say `auth-signing`), the same for every process with this root key. */
  derive(label: string, bytes: number = SECRET_KEY_BYTES): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#root, Buffer.alloc(0), `baton/${label}`, bytes));
  }

  encrypt(plaintext: string, context: string): string {
    return encryptSecret(this.#atRest, plaintext, context);
  }

  decrypt(text: string, context: string): string {
    return decryptSecret(this.#atRest, text, context);
  }
}

import { createHash, randomBytes } from 'node:crypto';

/** A bearer secret (API key, invitation link): 256 random bits, URL-safe. */
export const newSecretToken = (prefix = '') => `${prefix}${randomBytes(32).toString('base64url')}`;

/**
 * What is stored of such a secret. It carries 256 random bits, so a fast hash is enough to
 * make a leaked table useless (a slow password hash protects guessable secrets; these are not).
 */
export const hashSecretToken = (token: string) => createHash('sha256').update(token).digest('hex');

import { createHash, randomBytes } from 'node:crypto';

/**
 * Opaque secrets handed to a client (refresh tokens, links in mails): 256 random bits. The database
 * keeps only their SHA-256, so a leaked table cannot be replayed; a fast hash is enough because the
 * secret itself has full entropy (nothing to guess, unlike a password).
 */
export function newSecretToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashSecretToken(token) };
}

export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

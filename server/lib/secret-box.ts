import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Seals small secrets (ad-platform OAuth tokens) for storage at rest with AES-256-GCM.
 *
 * The sealed form is one printable string, `v1:<iv>:<tag>:<ciphertext>`, each part base64url,
 * so it fits a text column and the version prefix lets us change the scheme later without
 * guessing. GCM's tag makes any change to the stored string (or the wrong key) fail loudly
 * instead of decrypting to garbage.
 */

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/**
 * `config.secretsKey` is 32 random bytes when generated; a key set through the environment may be a
 * longer passphrase, which is hashed down to 32 bytes rather than silently truncated.
 */
function aesKey(key: Uint8Array): Buffer {
  if (key.length < 32) throw new SecretBoxError('secret-box: the key must be at least 32 bytes');
  return key.length === 32 ? Buffer.from(key) : createHash('sha256').update(key).digest();
}

/**
 * Encrypts `plain`. `context` (optional) is authenticated but not stored: a value sealed for one
 * purpose (e.g. `direct-token`) cannot be opened as another.
 */
export function sealSecret(plain: string, key: Uint8Array, context = ''): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', aesKey(key), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join(':');
}

/** Decrypts a string made by `sealSecret`; throws `SecretBoxError` when it was altered or the key/context differ. */
export function openSecret(sealed: string, key: Uint8Array, context = ''): string {
  const parts = sealed.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('secret-box: unknown format');
  const [, ivText, tagText, cipherText] = parts as [string, string, string, string];
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  const ciphertext = Buffer.from(cipherText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('secret-box: damaged value');
  try {
    const decipher = createDecipheriv('aes-256-gcm', aesKey(key), iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    // Node says only "Unsupported state or unable to authenticate data"; keep the reason generic too.
    throw new SecretBoxError('secret-box: the value was altered or the key is wrong');
  }
}

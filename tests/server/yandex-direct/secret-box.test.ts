import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret, SecretBoxError } from '../../../server/lib/secret-box.js';

const key = new Uint8Array(randomBytes(32));
const token = 'y0_AgAAAAB-fake-oauth-token-Тест';

describe('secret-box', () => {
  it('round-trips a secret through a versioned base64url string', () => {
    const sealed = sealSecret(token, key);
    expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(token);
    expect(openSecret(sealed, key)).toBe(token);
  });

  it('uses a fresh IV, so the same secret never seals to the same string', () => {
    expect(sealSecret(token, key)).not.toBe(sealSecret(token, key));
  });

  it('detects any change to the ciphertext, the tag or the IV', () => {
    const sealed = sealSecret(token, key);
    const [version, iv, tag, ciphertext] = sealed.split(':') as [string, string, string, string];
    const flip = (text: string) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[0] = bytes[0]! ^ 0x01;
      return bytes.toString('base64url');
    };
    for (const altered of [
      [version, iv, tag, flip(ciphertext)],
      [version, iv, flip(tag), ciphertext],
      [version, flip(iv), tag, ciphertext],
    ]) {
      expect(() => openSecret(altered.join(':'), key)).toThrow(SecretBoxError);
    }
  });

  it('refuses the wrong key and the wrong context', () => {
    const sealed = sealSecret(token, key, 'yandex-direct-token');
    expect(() => openSecret(sealed, new Uint8Array(randomBytes(32)), 'yandex-direct-token')).toThrow(SecretBoxError);
    expect(() => openSecret(sealed, key, 'another-purpose')).toThrow(SecretBoxError);
    expect(openSecret(sealed, key, 'yandex-direct-token')).toBe(token);
  });

  it('refuses unknown formats and short keys', () => {
    expect(() => openSecret('v2:a:b:c', key)).toThrow(SecretBoxError);
    expect(() => openSecret('not a sealed value', key)).toThrow(SecretBoxError);
    expect(() => sealSecret(token, new Uint8Array(16))).toThrow(SecretBoxError);
  });

  it('accepts a longer configured key by hashing it down to 32 bytes', () => {
    const passphrase = new Uint8Array(Buffer.from('a configured secret that is longer than thirty-two bytes'));
    expect(openSecret(sealSecret(token, passphrase), passphrase)).toBe(token);
  });
});

import { randomInt } from 'node:crypto';

// No 0/O and 1/I/L: the code is read aloud and typed by hand.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 10;

/** A random invitation code (10 characters, about 50 bits), within the 5–20 characters of spec section 9. */
export function generateInvitationCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

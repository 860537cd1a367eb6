import { randomInt } from 'node:crypto';

/**
 * Letters and digits a person cannot confuse when reading a code aloud or copying it by hand:
 * no 0/O, 1/I/L, and no lowercase (codes are compared as typed).
 */
export const INVITATION_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const INVITATION_CODE_LENGTH = 10;

/** A fresh random code (≈ 49 bits); uniqueness is enforced by the database's unique index. */
export function generateInvitationCode(): string {
  let code = '';
  for (let i = 0; i < INVITATION_CODE_LENGTH; i++) code += INVITATION_CODE_ALPHABET[randomInt(INVITATION_CODE_ALPHABET.length)];
  return code;
}

/** PostgreSQL's unique_violation: the code (or another unique value) is taken already. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

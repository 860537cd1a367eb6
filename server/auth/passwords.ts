import argon2 from 'argon2';

/**
 * argon2id with OWASP's current minimum parameters (Password Storage Cheat Sheet):
 * 19 MiB of memory, 2 iterations, 1 degree of parallelism.
 */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

/** False for a wrong password and for a stored value that is no argon2 hash at all (fixture users). */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  if (!hash.startsWith('$argon2')) return false;
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** True when the hash was made with other parameters than today's, so a login can upgrade it. */
export function needsRehash(hash: string): boolean {
  return argon2.needsRehash(hash, { memoryCost: ARGON2_OPTIONS.memoryCost, timeCost: ARGON2_OPTIONS.timeCost, parallelism: ARGON2_OPTIONS.parallelism });
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as checking a real password, for an email nobody registered, so the answer
 * time does not tell whether an account exists.
 */
export async function verifyDummyPassword(password: string): Promise<void> {
  dummyHash ??= hashPassword('dummy-password-for-timing-Aa1');
  await verifyPassword(await dummyHash, password);
}

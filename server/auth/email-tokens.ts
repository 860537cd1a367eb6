import { sql } from 'kysely';
import type { DB } from '../db/database.js';
import type { EmailTokenPurpose } from '../db/tables/core.js';
import { hashSecretToken, newSecretToken } from './secret-tokens.js';

/**
 * Single-use, short-lived tokens sent by mail (email verification, password reset). Stored hashed;
 * the link in the mail carries the only copy of the token.
 */
const expiresIn = (seconds: number) => sql<Date>`now() + make_interval(secs => ${seconds})`;

export async function createEmailToken(db: DB, userId: string, purpose: EmailTokenPurpose, ttlSeconds: number): Promise<string> {
  const { token, hash } = newSecretToken();
  await db.insertInto('email_tokens').values({ user_id: userId, purpose, token_hash: hash, expires_at: expiresIn(ttlSeconds) }).execute();
  return token;
}

/**
 * A password-reset token for whoever owns this email, or nothing when nobody does. One INSERT … SELECT
 * does the same database work either way, so the answer time does not reveal whether the account exists.
 */
export async function createResetTokenForEmail(db: DB, email: string, ttlSeconds: number): Promise<{ token: string; userId: string } | null> {
  const { token, hash } = newSecretToken();
  const row = await db
    .insertInto('email_tokens')
    .columns(['user_id', 'purpose', 'token_hash', 'expires_at'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select((s) => [
          'users.id',
          s.val<EmailTokenPurpose>('reset_password').as('purpose'),
          s.val(hash).as('token_hash'),
          expiresIn(ttlSeconds).as('expires_at'),
        ])
        .where(sql<string>`lower(users.email)`, '=', email.toLowerCase()),
    )
    .returning('user_id')
    .executeTakeFirst();
  return row ? { token, userId: row.user_id } : null;
}

/** Uses a token up (one conditional UPDATE: a second use finds nothing) and returns its user. */
export async function consumeEmailToken(db: DB, purpose: EmailTokenPurpose, token: string): Promise<string | null> {
  const row = await db
    .updateTable('email_tokens')
    .set({ used_at: sql<Date>`now()` })
    .where('token_hash', '=', hashSecretToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Retires the other open tokens of a purpose, e.g. older reset links once the password is changed. */
export async function retireEmailTokens(db: DB, userId: string, purpose: EmailTokenPurpose): Promise<void> {
  await db.updateTable('email_tokens').set({ used_at: sql<Date>`now()` }).where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
}

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import { openSecret, sealSecret, SecretBoxError } from '../lib/secret-box.js';
import { hashSecretToken, newSecretToken } from './secret-tokens.js';

/**
 * A session is a refresh-token family: one login, rotated into a new refresh token on every refresh.
 * Only the newest token of a family is live; presenting an older one means it was copied, so the whole
 * family is revoked (reuse detection), except within a short grace window after the rotation, when the
 * same answer is given again (two tabs refreshing at once). The family also has an absolute end, however
 * often it rotates.
 */
export interface Session {
  familyId: string;
  userId: string;
  organizationId: string;
  refreshToken: string;
}

type SessionConfig = Pick<AppConfig, 'refreshTokenTtlSeconds' | 'refreshFamilyTtlSeconds'>;

const secondsFromNow = (seconds: number) => sql<Date>`now() + make_interval(secs => ${seconds})`;

/** Starts a new family for a login or a registration. */
export async function startSession(db: DB, config: SessionConfig, owner: { userId: string; organizationId: string }): Promise<Session> {
  const familyId = randomUUID();
  const { token, hash } = newSecretToken();
  // Old families of the user that can no longer be used are dead weight: drop them here, at login time.
  await db.deleteFrom('refresh_tokens').where('user_id', '=', owner.userId).where('family_expires_at', '<', sql<Date>`now()`).execute();
  await db
    .insertInto('refresh_tokens')
    .values({
      family_id: familyId,
      user_id: owner.userId,
      organization_id: owner.organizationId,
      token_hash: hash,
      expires_at: sql<Date>`least(${secondsFromNow(config.refreshTokenTtlSeconds)}, ${secondsFromNow(config.refreshFamilyTtlSeconds)})`,
      family_expires_at: secondsFromNow(config.refreshFamilyTtlSeconds),
    })
    .execute();
  return { familyId, userId: owner.userId, organizationId: owner.organizationId, refreshToken: token };
}

export type RotationResult = { ok: true; session: Session } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused' | 'not_member' };

/**
 * How long a rotated refresh token, presented again, gets the answer its rotation already gave instead
 * of revoking the family. Two tabs (or a retry after a lost answer) refreshing with the same token at
 * the same moment is the user's own browser, not a thief; a copy used later than this still ends the
 * session as reuse detection intends.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 30;

type RotationConfig = SessionConfig & Pick<AppConfig, 'secretsKey'>;

/** The sealed successor is bound to the row it is stored on: it cannot be moved to another token's row. */
const successorContext = (retiredHash: string) => `refresh-successor:${retiredHash}`;

/**
 * Exchanges a refresh token for the next one of its family. The token's row is locked first
 * (`SELECT … FOR UPDATE`), so concurrent refreshes with one token run one after another: the first
 * rotates, the others find it rotated a moment ago and get the same new refresh token (sealed on the
 * retired row) within `REFRESH_REUSE_GRACE_SECONDS`. After the window, presenting it is reuse and
 * revokes the whole family.
 */
export async function rotateSession(db: DB, config: RotationConfig, refreshToken: string): Promise<RotationResult> {
  const hash = hashSecretToken(refreshToken);
  return db.transaction().execute(async (trx): Promise<RotationResult> => {
    const found = await trx
      .selectFrom('refresh_tokens')
      .select(['family_id', 'user_id', 'organization_id', 'family_expires_at', 'rotated_at', 'revoked_at', 'successor_sealed'])
      .select(sql<boolean>`expires_at > now() and family_expires_at > now()`.as('live'))
      .select(sql<boolean>`rotated_at > now() - make_interval(secs => ${REFRESH_REUSE_GRACE_SECONDS})`.as('in_grace'))
      .where('token_hash', '=', hash)
      .forUpdate()
      .executeTakeFirst();

    if (!found) return { ok: false, reason: 'unknown' };
    // A revoked family stays revoked: logout, a password change or an earlier reuse ended it.
    if (found.revoked_at) return { ok: false, reason: 'revoked' };
    if (found.rotated_at) {
      const successor = found.in_grace && found.successor_sealed ? openSuccessor(found.successor_sealed, config, hash) : null;
      if (!successor) {
        await revokeFamilyIn(trx, found.family_id);
        return { ok: false, reason: 'reused' };
      }
      const current = await trx
        .selectFrom('refresh_tokens')
        .select('organization_id')
        .where('token_hash', '=', hashSecretToken(successor))
        .where('family_id', '=', found.family_id)
        .where('revoked_at', 'is', null)
        .where('family_expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      if (!current) return { ok: false, reason: 'expired' };
      if (!(await isMember(trx, found.user_id, current.organization_id))) {
        await revokeFamilyIn(trx, found.family_id);
        return { ok: false, reason: 'not_member' };
      }
      return { ok: true, session: { familyId: found.family_id, userId: found.user_id, organizationId: current.organization_id, refreshToken: successor } };
    }
    if (!found.live) return { ok: false, reason: 'expired' };

    // Removed from the organization since the login: the session ends with the membership.
    if (!(await isMember(trx, found.user_id, found.organization_id))) {
      await revokeFamilyIn(trx, found.family_id);
      return { ok: false, reason: 'not_member' };
    }

    const { token, hash: nextHash } = newSecretToken();
    await trx
      .updateTable('refresh_tokens')
      .set({ rotated_at: sql<Date>`now()`, successor_sealed: sealSecret(token, config.secretsKey, successorContext(hash)) })
      .where('token_hash', '=', hash)
      .execute();
    await trx
      .insertInto('refresh_tokens')
      .values({
        family_id: found.family_id,
        user_id: found.user_id,
        organization_id: found.organization_id,
        token_hash: nextHash,
        expires_at: sql<Date>`least(${secondsFromNow(config.refreshTokenTtlSeconds)}, ${found.family_expires_at})`,
        family_expires_at: found.family_expires_at,
      })
      .execute();
    await forgetOldSuccessors(trx, found.family_id);
    return { ok: true, session: { familyId: found.family_id, userId: found.user_id, organizationId: found.organization_id, refreshToken: token } };
  });
}

function openSuccessor(sealed: string, config: RotationConfig, retiredHash: string): string | null {
  try {
    return openSecret(sealed, config.secretsKey, successorContext(retiredHash));
  } catch (error) {
    // Another SECRETS_KEY than the one that sealed it: treat it as no answer stored (reuse).
    if (error instanceof SecretBoxError) return null;
    throw error;
  }
}

/** A sealed successor is needed only within the grace window; older ones are wiped, not kept for the family's life. */
async function forgetOldSuccessors(db: DB, familyId: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ successor_sealed: null })
    .where('family_id', '=', familyId)
    .where('successor_sealed', 'is not', null)
    .where('rotated_at', '<=', sql<Date>`now() - make_interval(secs => ${REFRESH_REUSE_GRACE_SECONDS})`)
    .execute();
}

/** Still a member of the session's organization, and not blocked by a platform admin since the login. */
async function isMember(db: DB, userId: string, organizationId: string): Promise<boolean> {
  const membership = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('memberships.role')
    .where('memberships.user_id', '=', userId)
    .where('memberships.organization_id', '=', organizationId)
    .where('users.blocked_at', 'is', null)
    .executeTakeFirst();
  return membership !== undefined;
}

/**
 * Moves a live session to another organization of the same user (switch-organization): the family's
 * current refresh token is retired and a new one, bound to the new organization, takes its place.
 */
export async function moveSession(db: DB, config: RotationConfig, familyId: string, userId: string, organizationId: string): Promise<Session | null> {
  return db.transaction().execute(async (trx) => {
    const { token, hash } = newSecretToken();
    // Locks the family's current token like a refresh does; a tab refreshing with it at this moment
    // gets the moved session's token (sealed here) within the grace window instead of a revocation.
    const current = await trx
      .selectFrom('refresh_tokens')
      .select(['token_hash', 'family_expires_at'])
      .where('family_id', '=', familyId)
      .where('user_id', '=', userId)
      .where('rotated_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('family_expires_at', '>', sql<Date>`now()`)
      .forUpdate()
      .executeTakeFirst();
    if (!current) return null;
    const retired = await trx
      .updateTable('refresh_tokens')
      .set({ rotated_at: sql<Date>`now()`, successor_sealed: sealSecret(token, config.secretsKey, successorContext(current.token_hash)) })
      .where('token_hash', '=', current.token_hash)
      .where('rotated_at', 'is', null)
      .returning('family_expires_at')
      .executeTakeFirst();
    if (!retired) return null;
    await trx
      .insertInto('refresh_tokens')
      .values({
        family_id: familyId,
        user_id: userId,
        organization_id: organizationId,
        token_hash: hash,
        expires_at: sql<Date>`least(${secondsFromNow(config.refreshTokenTtlSeconds)}, ${retired.family_expires_at})`,
        family_expires_at: retired.family_expires_at,
      })
      .execute();
    await forgetOldSuccessors(trx, familyId);
    return { familyId, userId, organizationId, refreshToken: token };
  });
}

async function revokeFamilyIn(db: DB, familyId: string): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_at: sql<Date>`now()` }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
}

/** Logout: the family's refresh tokens and its access tokens stop working. */
export async function revokeSession(db: DB, familyId: string, userId: string): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_at: sql<Date>`now()` }).where('family_id', '=', familyId).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

/** Logout by refresh token (no access token at hand): revokes the family the token belongs to. */
export async function revokeSessionByRefreshToken(db: DB, refreshToken: string): Promise<boolean> {
  const found = await db.selectFrom('refresh_tokens').select('family_id').where('token_hash', '=', hashSecretToken(refreshToken)).executeTakeFirst();
  if (!found) return false;
  await revokeFamilyIn(db, found.family_id);
  return true;
}

/** After a password change every other session ends (a stolen session must not outlive the fix). */
export async function revokeUserSessions(db: DB, userId: string, options: { except?: string } = {}): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .$if(options.except !== undefined, (query) => query.where('family_id', '!=', options.except!))
    .execute();
}

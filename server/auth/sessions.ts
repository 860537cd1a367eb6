import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import { hashSecretToken, newSecretToken } from './secret-tokens.js';

/**
 * A session is a refresh-token family: one login, rotated into a new refresh token on every refresh.
 * Only the newest token of a family is live; presenting an older one means it was copied, so the whole
 * family is revoked (reuse detection). The family also has an absolute end, however often it rotates.
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
 * Exchanges a refresh token for the next one of its family. The old token is retired by one
 * conditional UPDATE, so two concurrent uses cannot both succeed: the second one is a reuse.
 */
export async function rotateSession(db: DB, config: SessionConfig, refreshToken: string): Promise<RotationResult> {
  const hash = hashSecretToken(refreshToken);
  return db.transaction().execute(async (trx): Promise<RotationResult> => {
    const retired = await trx
      .updateTable('refresh_tokens')
      .set({ rotated_at: sql<Date>`now()` })
      .where('token_hash', '=', hash)
      .where('rotated_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .where('family_expires_at', '>', sql<Date>`now()`)
      .returning(['family_id', 'user_id', 'organization_id', 'family_expires_at'])
      .executeTakeFirst();

    if (!retired) {
      const found = await trx.selectFrom('refresh_tokens').select(['family_id', 'rotated_at', 'revoked_at']).where('token_hash', '=', hash).executeTakeFirst();
      if (!found) return { ok: false, reason: 'unknown' };
      if (found.revoked_at) return { ok: false, reason: 'revoked' };
      if (found.rotated_at) {
        await revokeFamilyIn(trx, found.family_id);
        return { ok: false, reason: 'reused' };
      }
      return { ok: false, reason: 'expired' };
    }

    const targetOrganization = retired.organization_id;
    // Removed from the organization since the login: the session ends with the membership.
    const membership = await trx
      .selectFrom('memberships')
      .select('role')
      .where('user_id', '=', retired.user_id)
      .where('organization_id', '=', targetOrganization)
      .executeTakeFirst();
    if (!membership) {
      await revokeFamilyIn(trx, retired.family_id);
      return { ok: false, reason: 'not_member' };
    }

    const { token, hash: nextHash } = newSecretToken();
    await trx
      .insertInto('refresh_tokens')
      .values({
        family_id: retired.family_id,
        user_id: retired.user_id,
        organization_id: targetOrganization,
        token_hash: nextHash,
        expires_at: sql<Date>`least(${secondsFromNow(config.refreshTokenTtlSeconds)}, ${retired.family_expires_at})`,
        family_expires_at: retired.family_expires_at,
      })
      .execute();
    return { ok: true, session: { familyId: retired.family_id, userId: retired.user_id, organizationId: targetOrganization, refreshToken: token } };
  });
}

/**
 * Moves a live session to another organization of the same user (switch-organization): the family's
 * current refresh token is retired and a new one, bound to the new organization, takes its place.
 */
export async function moveSession(db: DB, config: SessionConfig, familyId: string, userId: string, organizationId: string): Promise<Session | null> {
  return db.transaction().execute(async (trx) => {
    const retired = await trx
      .updateTable('refresh_tokens')
      .set({ rotated_at: sql<Date>`now()` })
      .where('family_id', '=', familyId)
      .where('user_id', '=', userId)
      .where('rotated_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('family_expires_at', '>', sql<Date>`now()`)
      .returning('family_expires_at')
      .executeTakeFirst();
    if (!retired) return null;
    const { token, hash } = newSecretToken();
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

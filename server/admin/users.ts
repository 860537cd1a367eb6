/** Users across the platform for the operator: search, balances, memberships; blocking and unblocking. */
import { sql } from 'kysely';
import type { AdminUser, AdminUserPage } from '../../contract/admin.js';
import { adminMessages } from '../../contract/messages.js';
import { revokeUserSessions } from '../auth/sessions.js';
import type { DB } from '../db/database.js';
import { fullName, iso } from '../lib/api-values.js';
import { conflict, notFound } from '../lib/errors.js';
import { recordAdminAction } from './audit.js';

export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

function usersQuery(db: DB) {
  return db
    .selectFrom('users as u')
    .leftJoin('token_balances as b', 'b.user_id', 'u.id')
    .select([
      'u.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.role',
      'u.is_verified',
      'u.blocked_at',
      'u.last_login_at',
      'u.created_at',
      sql<number>`coalesce(b.balance, 0)`.as('balance'),
      (eb) =>
        eb
          .selectFrom('memberships as m')
          .innerJoin('organizations as o', 'o.id', 'm.organization_id')
          .select(sql<{ id: string; name: string; role: 'owner' | 'admin' | 'member' }[]>`coalesce(json_agg(json_build_object('id', o.id, 'name', o.name, 'role', m.role) ORDER BY m.created_at), '[]')`.as('list'))
          .whereRef('m.user_id', '=', 'u.id')
          .as('organizations'),
    ]);
}

type UserRow = Awaited<ReturnType<ReturnType<typeof usersQuery>['executeTakeFirstOrThrow']>>;

const toAdminUser = (row: UserRow): AdminUser => ({
  id: row.id,
  email: row.email,
  full_name: fullName(row.first_name, row.last_name),
  role: row.role,
  is_verified: row.is_verified,
  blocked_at: iso(row.blocked_at),
  last_login_at: iso(row.last_login_at),
  created_at: iso(row.created_at),
  balance: Number(row.balance),
  organizations: row.organizations ?? [],
});

export async function listUsers(db: DB, options: { page: number; pageSize: number; search?: string; blocked?: boolean }): Promise<AdminUserPage> {
  let filtered = db.selectFrom('users as u');
  if (options.search) {
    const pattern = `%${escapeLike(options.search)}%`;
    // Case folded by ICU (the cluster's own locale is C, which folds ASCII only: «ольга» must find «Ольга»).
    filtered = filtered.where(sql<boolean>`lower((u.email || ' ' || u.first_name || ' ' || u.last_name) COLLATE "und-x-icu") LIKE lower(${pattern} COLLATE "und-x-icu")`);
  }
  if (options.blocked !== undefined) filtered = filtered.where('u.blocked_at', options.blocked ? 'is not' : 'is', null);
  const ids = filtered.select('u.id');
  const [rows, count] = await Promise.all([
    usersQuery(db)
      .where('u.id', 'in', ids)
      .orderBy('u.created_at', 'desc')
      .orderBy('u.id')
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize)
      .execute(),
    filtered.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toAdminUser), total: count.total, page: options.page, page_size: options.pageSize };
}

export async function getAdminUser(db: DB, userId: string): Promise<AdminUser> {
  const row = await usersQuery(db).where('u.id', '=', userId).executeTakeFirst();
  if (!row) throw notFound(adminMessages.userNotFound, 'USER_NOT_FOUND');
  return toAdminUser(row);
}

/**
 * Sets (`blocked`) or clears `blocked_at`. The user's email when the state changed; null when it already was so
 * (nothing to record); 404 when there is no such user.
 */
async function setBlocked(trx: DB, userId: string, blocked: boolean): Promise<string | null> {
  const changed = await trx
    .updateTable('users')
    .set({ blocked_at: blocked ? sql<Date>`now()` : null, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .where('blocked_at', blocked ? 'is' : 'is not', null)
    .returning('email')
    .executeTakeFirst();
  if (changed) return changed.email;
  const exists = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!exists) throw notFound(adminMessages.userNotFound, 'USER_NOT_FOUND');
  return null;
}

/**
 * Blocks a user: no login, no refresh, and every session ends now (their refresh tokens are revoked, and
 * an access token still in hand is refused because the authentication reads `blocked_at`). Blocking a
 * blocked user changes nothing and writes no second audit row.
 */
export async function blockUser(db: DB, actorUserId: string, userId: string, reason: string | undefined): Promise<AdminUser> {
  if (userId === actorUserId) throw conflict(adminMessages.cannotBlockSelf, 'CANNOT_BLOCK_SELF');
  await db.transaction().execute(async (trx) => {
    const email = await setBlocked(trx, userId, true);
    if (email === null) return;
    await revokeUserSessions(trx, userId);
    await recordAdminAction(trx, { actorUserId, action: 'user.blocked', targetUserId: userId, details: { email, ...(reason ? { reason } : {}) } });
  });
  return getAdminUser(db, userId);
}

export async function unblockUser(db: DB, actorUserId: string, userId: string): Promise<AdminUser> {
  await db.transaction().execute(async (trx) => {
    const email = await setBlocked(trx, userId, false);
    if (email === null) return;
    await recordAdminAction(trx, { actorUserId, action: 'user.unblocked', targetUserId: userId, details: { email } });
  });
  return getAdminUser(db, userId);
}

/**
 * The audit log of the operator's actions (`audit_log`): one row per change, written in the same
 * transaction as the change, read newest first on the admin's «Журнал» screen.
 */
import { sql } from 'kysely';
import type { AuditPage } from '../../contract/admin.js';
import type { DB } from '../db/database.js';
import { fullName, iso } from '../lib/api-values.js';

export interface AdminAction {
  actorUserId: string | null;
  action: string;
  targetUserId?: string | null;
  organizationId?: string | null;
  details: Record<string, unknown>;
}

/** Records an admin action; call it inside the transaction that makes the change. */
export async function recordAdminAction(trx: DB, entry: AdminAction): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      actor_user_id: entry.actorUserId,
      action: entry.action,
      target_user_id: entry.targetUserId ?? null,
      organization_id: entry.organizationId ?? null,
      payload: JSON.stringify(entry.details),
    })
    .execute();
}

export async function listAuditLog(db: DB, options: { page: number; pageSize: number; action?: string }): Promise<AuditPage> {
  const base = db.selectFrom('audit_log as l').$if(Boolean(options.action), (query) => query.where('l.action', '=', options.action!));
  const [rows, count] = await Promise.all([
    base
      .leftJoin('users as actor', 'actor.id', 'l.actor_user_id')
      .leftJoin('users as target', 'target.id', 'l.target_user_id')
      .leftJoin('organizations as o', 'o.id', 'l.organization_id')
      .select([
        'l.id',
        'l.action',
        'l.payload',
        'l.created_at',
        'l.actor_user_id',
        'actor.email as actor_email',
        'actor.first_name as actor_first',
        'actor.last_name as actor_last',
        'l.target_user_id',
        'target.email as target_email',
        'target.first_name as target_first',
        'target.last_name as target_last',
        'o.id as org_id',
        'o.name as org_name',
      ])
      .orderBy('l.created_at', 'desc')
      .orderBy('l.id', 'desc')
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  const person = (id: string | null, email: string | null, first: string | null, last: string | null) =>
    id && email ? { id, email, full_name: fullName(first, last) || email } : null;
  return {
    items: rows.map((row) => ({
      id: row.id,
      action: row.action,
      actor: person(row.actor_user_id, row.actor_email, row.actor_first, row.actor_last),
      target_user: person(row.target_user_id, row.target_email, row.target_first, row.target_last),
      organization: row.org_id && row.org_name !== null ? { id: row.org_id, name: row.org_name } : null,
      details: row.payload && typeof row.payload === 'object' ? (row.payload as Record<string, unknown>) : {},
      created_at: iso(row.created_at),
    })),
    total: count.total,
    page: options.page,
    page_size: options.pageSize,
  };
}

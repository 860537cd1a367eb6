/** Organizations across the platform for the operator: plan, members and their balances; the plan change. */
import { sql } from 'kysely';
import type { AdminOrganization, AdminOrganizationDetail, AdminOrganizationPage } from '../../contract/admin.js';
import { DEFAULT_PLAN_TYPE } from '../../contract/organizations.js';
import { adminMessages } from '../../contract/messages.js';
import type { DB } from '../db/database.js';
import { fullName, iso } from '../lib/api-values.js';
import { notFound } from '../lib/errors.js';
import { recordAdminAction } from './audit.js';
import { escapeLike } from './users.js';

const organizationNotFound = () => notFound(adminMessages.organizationNotFound, 'ORGANIZATION_NOT_FOUND');

function organizationsQuery(db: DB) {
  return db
    .selectFrom('organizations as o')
    .select([
      'o.id',
      'o.name',
      'o.plan_type',
      'o.created_at',
      (eb) => eb.selectFrom('memberships as m').select(sql<number>`count(*)::int`.as('n')).whereRef('m.organization_id', '=', 'o.id').as('members_count'),
      (eb) =>
        eb
          .selectFrom('memberships as m')
          .innerJoin('token_balances as b', 'b.user_id', 'm.user_id')
          .select(sql<number>`coalesce(sum(b.balance), 0)::int`.as('n'))
          .whereRef('m.organization_id', '=', 'o.id')
          .as('balance_total'),
      (eb) =>
        eb
          .selectFrom('memberships as m')
          .innerJoin('users as u', 'u.id', 'm.user_id')
          .select(sql<{ id: string; email: string; first_name: string; last_name: string }>`json_build_object('id', u.id, 'email', u.email, 'first_name', u.first_name, 'last_name', u.last_name)`.as('owner'))
          .whereRef('m.organization_id', '=', 'o.id')
          .where('m.role', '=', 'owner')
          .orderBy('m.created_at')
          .limit(1)
          .as('owner'),
    ]);
}

type OrganizationRow = Awaited<ReturnType<ReturnType<typeof organizationsQuery>['executeTakeFirstOrThrow']>>;

const toAdminOrganization = (row: OrganizationRow): AdminOrganization => ({
  id: row.id,
  name: row.name,
  plan_type: row.plan_type || DEFAULT_PLAN_TYPE,
  members_count: row.members_count ?? 0,
  balance_total: row.balance_total ?? 0,
  owner: row.owner ? { id: row.owner.id, email: row.owner.email, full_name: fullName(row.owner.first_name, row.owner.last_name) || row.owner.email } : null,
  created_at: iso(row.created_at),
});

export async function listOrganizations(db: DB, options: { page: number; pageSize: number; search?: string }): Promise<AdminOrganizationPage> {
  const filtered = db.selectFrom('organizations as o').$if(Boolean(options.search), (query) => query.where(sql<boolean>`lower(o.name COLLATE "und-x-icu") LIKE lower(${`%${escapeLike(options.search!)}%`} COLLATE "und-x-icu")`));
  const [rows, count] = await Promise.all([
    organizationsQuery(db)
      .where('o.id', 'in', filtered.select('o.id'))
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id')
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize)
      .execute(),
    filtered.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toAdminOrganization), total: count.total, page: options.page, page_size: options.pageSize };
}

export async function getAdminOrganization(db: DB, organizationId: string): Promise<AdminOrganizationDetail> {
  const row = await organizationsQuery(db).where('o.id', '=', organizationId).executeTakeFirst();
  if (!row) throw organizationNotFound();
  const members = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('token_balances as b', 'b.user_id', 'u.id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.blocked_at', 'm.role', 'm.created_at', sql<number>`coalesce(b.balance, 0)`.as('balance')])
    .where('m.organization_id', '=', organizationId)
    .orderBy(sql`m.role = 'owner'`, 'desc')
    .orderBy('m.created_at')
    .execute();
  return {
    ...toAdminOrganization(row),
    members: members.map((member) => ({
      id: member.id,
      email: member.email,
      full_name: fullName(member.first_name, member.last_name) || member.email,
      role: member.role,
      balance: Number(member.balance),
      blocked: member.blocked_at !== null,
      joined_at: iso(member.created_at),
    })),
  };
}

/** Sets the organization's plan, with an audit row saying from what to what; the same plan again changes nothing. */
export async function changePlan(db: DB, actorUserId: string, organizationId: string, planType: string): Promise<AdminOrganizationDetail> {
  await db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom('organizations').select(['plan_type', 'name']).where('id', '=', organizationId).forUpdate().executeTakeFirst();
    if (!current) throw organizationNotFound();
    const from = current.plan_type || DEFAULT_PLAN_TYPE;
    if (from === planType) return;
    await trx.updateTable('organizations').set({ plan_type: planType, updated_at: sql<Date>`now()` }).where('id', '=', organizationId).execute();
    await recordAdminAction(trx, { actorUserId, action: 'organization.plan_changed', organizationId, details: { from, to: planType, name: current.name } });
  });
  return getAdminOrganization(db, organizationId);
}

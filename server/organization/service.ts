import { sql } from 'kysely';
import { apiMessages, organizationMessages } from '../../contract/messages.js';
import { DEFAULT_PLAN_TYPE, type CurrentOrganization, type Member, type UpdateOrganization } from '../../contract/organizations.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import { forbidden, HttpError, notFound } from '../lib/errors.js';
// One generator for every invitation code (registration and regeneration): 10 unambiguous characters.
import { generateInvitationCode } from '../auth/invitation-code.js';
import { fullName } from '../lib/api-values.js';

/** PostgreSQL's unique_violation: the drawn code belongs to another organization already. */
const isUniqueViolation = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';

const isAdminOrOwner = (caller: Caller) => caller.organizationRole === 'owner' || caller.organizationRole === 'admin';
const planOf = (plan: string | null | undefined) => plan || DEFAULT_PLAN_TYPE;

/** Every organization the user belongs to, oldest membership first (for the switcher). */
export async function listOrganizations(db: DB, userId: string) {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .select(['organizations.id', 'organizations.name', 'organizations.plan_type', 'memberships.role'])
    .where('memberships.user_id', '=', userId)
    .orderBy('memberships.created_at')
    .orderBy('organizations.name')
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, plan_type: planOf(row.plan_type), role: row.role }));
}

/** The caller's current organization; the invitation code is shown to owners and admins only. */
export async function getCurrentOrganization(db: DB, caller: Caller): Promise<CurrentOrganization> {
  const org = await db
    .selectFrom('organizations')
    .select(['id', 'name', 'plan_type', 'invitation_code'])
    .where('id', '=', caller.organizationId)
    .executeTakeFirst();
  if (!org) throw notFound();
  return {
    id: org.id,
    name: org.name,
    plan_type: planOf(org.plan_type),
    ...(isAdminOrOwner(caller) ? { invitation_code: org.invitation_code } : {}),
    role: caller.organizationRole,
  };
}

/** Owners and admins rename; only a platform administrator changes the plan. */
export async function updateCurrentOrganization(db: DB, caller: Caller, changes: UpdateOrganization): Promise<CurrentOrganization> {
  if (changes.plan_type !== undefined && caller.role !== 'admin') {
    const current = await db.selectFrom('organizations').select('plan_type').where('id', '=', caller.organizationId).executeTakeFirst();
    // Sending back the plan one already has (a settings form posting every field) is not a change.
    if (planOf(current?.plan_type) !== changes.plan_type) throw forbidden(organizationMessages.planTypeAdminOnly, 'PLAN_TYPE_ADMIN_ONLY');
  }
  const set = {
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.plan_type !== undefined ? { plan_type: changes.plan_type } : {}),
  };
  if (Object.keys(set).length > 0) {
    await db
      .updateTable('organizations')
      .set({ ...set, updated_at: sql<Date>`now()` })
      .where('id', '=', caller.organizationId)
      .execute();
  }
  return getCurrentOrganization(db, caller);
}

export async function getInvitationCode(db: DB, organizationId: string): Promise<string> {
  const org = await db.selectFrom('organizations').select('invitation_code').where('id', '=', organizationId).executeTakeFirst();
  if (!org) throw notFound();
  return org.invitation_code;
}

/**
 * Replaces the code with a new random one; the old code stops working at once. The unique index decides
 * collisions (about one in 10^14 per try), and a collision simply draws again.
 */
export async function regenerateInvitationCode(db: DB, organizationId: string, draw: () => string = generateInvitationCode): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = draw();
    try {
      const row = await db
        .updateTable('organizations')
        .set({ invitation_code: code, updated_at: sql<Date>`now()` })
        .where('id', '=', organizationId)
        .returning('invitation_code')
        .executeTakeFirst();
      if (!row) throw notFound();
      return row.invitation_code;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new HttpError(503, 'INVITATION_CODE_UNAVAILABLE', organizationMessages.invitationCodeFailed);
}

const roleOrder = sql<number>`case memberships.role when 'owner' then 0 when 'admin' then 1 else 2 end`;

/**
 * Members of the caller's organization: owner first, then admins, then members by joining date. With
 * `balancesFor` (the owner), each member's balance and what that owner gave them and may move back.
 */
export async function listMembers(db: DB, organizationId: string, options: { balancesFor?: string } = {}): Promise<Member[]> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .leftJoin('token_balances', 'token_balances.user_id', 'memberships.user_id')
    .leftJoin('token_grants', (join) => join.onRef('token_grants.user_id', '=', 'memberships.user_id').on('token_grants.granted_by', '=', options.balancesFor ?? null))
    .select(['users.id', 'users.email', 'users.first_name', 'users.last_name', 'memberships.role', 'memberships.created_at', 'token_balances.balance', 'token_grants.amount as returnable'])
    .where('memberships.organization_id', '=', organizationId)
    .orderBy(roleOrder)
    .orderBy('memberships.created_at')
    .orderBy('users.email')
    .execute();
  return rows.map((row) => ({
    user_id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    full_name: fullName(row.first_name, row.last_name),
    role: row.role,
    joined_at: row.created_at.toISOString(),
    ...(options.balancesFor ? { balance: Number(row.balance ?? 0), returnable: Number(row.returnable ?? 0) } : {}),
  }));
}

/**
 * Removes a member from the caller's organization. Nobody removes the owner or themselves, and only the
 * owner removes an admin. The removed user's sessions in this organization end with it: their refresh
 * tokens there are revoked and their access tokens stop at the next request (authentication checks
 * the membership). A user of another organization is simply not found.
 */
export async function removeMember(db: DB, caller: Caller, userId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const target = await trx
      .selectFrom('memberships')
      .select(['user_id', 'role'])
      .where('organization_id', '=', caller.organizationId)
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!target) throw notFound(organizationMessages.memberNotFound, 'MEMBER_NOT_FOUND');
    if (target.user_id === caller.userId) throw forbidden(apiMessages.cannotRemoveSelf, 'CANNOT_REMOVE_SELF');
    if (target.role === 'owner') throw forbidden(apiMessages.cannotRemoveOwner, 'CANNOT_REMOVE_OWNER');
    if (target.role === 'admin' && caller.organizationRole !== 'owner') throw forbidden(organizationMessages.cannotRemoveAdmin, 'CANNOT_REMOVE_ADMIN');

    await trx.deleteFrom('memberships').where('organization_id', '=', caller.organizationId).where('user_id', '=', userId).execute();
    await trx
      .updateTable('refresh_tokens')
      .set({ revoked_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('organization_id', '=', caller.organizationId)
      .where('revoked_at', 'is', null)
      .execute();
    // The next login must not land in an organization the user has left.
    await trx
      .updateTable('users')
      .set({
        last_organization_id: (eb) =>
          eb.selectFrom('memberships').select('organization_id').where('memberships.user_id', '=', userId).orderBy('created_at').limit(1),
      })
      .where('id', '=', userId)
      .where('last_organization_id', '=', caller.organizationId)
      .execute();
    await trx
      .insertInto('audit_log')
      .values({
        actor_user_id: caller.userId,
        action: 'organization.member_removed',
        target_user_id: userId,
        organization_id: caller.organizationId,
        payload: JSON.stringify({ role: target.role }),
      })
      .execute();
  });
}

import { sql } from 'kysely';
import type { Organization, User } from '../../contract/auth.js';
import type { DB } from '../db/database.js';
import type { OrganizationRole, PlatformRole } from '../db/tables/core.js';
import { applyLedgerEntry } from '../tokens/ledger.js';
import { generateInvitationCode } from './invitation-code.js';
import { fullName } from '../lib/api-values.js';

export interface NewAccount {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  role?: PlatformRole;
  isVerified?: boolean;
  /** Create an organization with this name (the user owns it), or join an existing one as a member. */
  organization: { create: string } | { joinId: string };
  /** Credited at once to an account created verified; any other gets it when its e-mail is verified. */
  welcomeCredit: number;
}

export interface CreatedAccount {
  userId: string;
  organizationId: string;
  organizationRole: OrganizationRole;
}

/**
 * The user row, its organization and membership (and, for an account created verified, the welcome
 * credit) in the caller's transaction.
 */
export async function createAccount(trx: DB, input: NewAccount): Promise<CreatedAccount> {
  const user = await trx
    .insertInto('users')
    .values({
      email: input.email.toLowerCase(),
      password_hash: input.passwordHash,
      first_name: input.firstName,
      last_name: input.lastName,
      role: input.role ?? 'user',
      is_verified: input.isVerified ?? false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  let organizationId: string;
  let organizationRole: OrganizationRole;
  if ('create' in input.organization) {
    organizationId = await createOrganization(trx, input.organization.create);
    organizationRole = 'owner';
  } else {
    organizationId = input.organization.joinId;
    organizationRole = 'member';
  }
  await trx.insertInto('memberships').values({ user_id: user.id, organization_id: organizationId, role: organizationRole }).execute();
  await trx.updateTable('users').set({ last_organization_id: organizationId }).where('id', '=', user.id).execute();
  // The balance row exists from the start, so a zero welcome credit still shows a balance of 0.
  await trx.insertInto('token_balances').values({ user_id: user.id, balance: 0 }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
  if (input.isVerified) await grantWelcomeCredit(trx, user.id, input.welcomeCredit);
  return { userId: user.id, organizationId, organizationRole };
}

/**
 * The welcome credit, once per user (ledger key `welcome`), when the e-mail is verified: a throwaway
 * address gets nothing. Its tokens pay for analyses and never leave the account (server/tokens/ledger.ts).
 */
export async function grantWelcomeCredit(trx: DB, userId: string, amount: number): Promise<void> {
  if (amount <= 0) return;
  const user = await trx.selectFrom('users').select('last_organization_id').where('id', '=', userId).executeTakeFirstOrThrow();
  await applyLedgerEntry(trx, {
    userId,
    organizationId: user.last_organization_id,
    type: 'welcome',
    amount,
    idempotencyKey: 'welcome',
    reason: 'Приветственный бонус',
  });
}

/** A new organization with a fresh invitation code (retried on the rare collision, without aborting the transaction). */
export async function createOrganization(trx: DB, name: string): Promise<string> {
  for (;;) {
    const row = await trx
      .insertInto('organizations')
      .values({ name, invitation_code: generateInvitationCode() })
      .onConflict((oc) => oc.column('invitation_code').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) return row.id;
  }
}

/** Codes are typed by hand: compared without regard to case and surrounding spaces. */
export async function findOrganizationByInvitationCode(db: DB, code: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('organizations')
    .select('id')
    .where(sql<string>`upper(invitation_code)`, '=', code.trim().toUpperCase())
    .executeTakeFirst();
}

export async function findUserByEmail(db: DB, email: string) {
  return db.selectFrom('users').selectAll().where(sql<string>`lower(email)`, '=', email.trim().toLowerCase()).executeTakeFirst();
}

export function userView(row: { id: string; email: string; first_name: string; last_name: string; role: PlatformRole; is_verified: boolean }): User {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    full_name: fullName(row.first_name, row.last_name),
    role: row.role,
    is_verified: row.is_verified,
  };
}

/** The organization as its member sees it; the invitation code only for owners and admins (spec section 6). */
export async function organizationView(db: DB, organizationId: string, userId: string): Promise<Organization | null> {
  const row = await db
    .selectFrom('organizations')
    .innerJoin('memberships', 'memberships.organization_id', 'organizations.id')
    .select(['organizations.id', 'organizations.name', 'organizations.plan_type', 'organizations.invitation_code', 'memberships.role'])
    .where('organizations.id', '=', organizationId)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  const canSeeCode = row.role === 'owner' || row.role === 'admin';
  return {
    id: row.id,
    name: row.name,
    plan_type: row.plan_type || 'free',
    ...(canSeeCode ? { invitation_code: row.invitation_code } : {}),
    role: row.role,
  };
}

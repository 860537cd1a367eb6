import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { OrganizationRole, PlatformRole } from '../../../server/db/tables/core.js';

export interface FixtureUser {
  id: string;
  email: string;
  organizationId: string;
  /** A valid access token for the user in that organization. */
  token: string;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;

/**
 * Creates a user straight in the database (with an organization of its own unless one is given) and
 * signs an access token for it, so tests of one domain do not depend on another domain's endpoints.
 * The password hash is not a real one: such users cannot log in through /auth/login.
 */
export async function createUser(
  app: FastifyInstance,
  options: { organizationId?: string; organizationRole?: OrganizationRole; role?: PlatformRole; isVerified?: boolean; balance?: number; email?: string; firstName?: string; lastName?: string } = {},
): Promise<FixtureUser> {
  const db = app.db;
  const email = options.email ?? `user-${unique()}@example.test`;
  const user = await db
    .insertInto('users')
    .values({
      email,
      password_hash: 'fixture-no-login',
      first_name: options.firstName ?? 'Иван',
      last_name: options.lastName ?? 'Петров',
      role: options.role ?? 'user',
      is_verified: options.isVerified ?? true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  let organizationId = options.organizationId;
  if (!organizationId) {
    const org = await db.insertInto('organizations').values({ name: `Организация ${unique()}`, invitation_code: unique().slice(0, 12).toUpperCase() }).returning('id').executeTakeFirstOrThrow();
    organizationId = org.id;
  }
  await db
    .insertInto('memberships')
    .values({ user_id: user.id, organization_id: organizationId, role: options.organizationRole ?? (options.organizationId ? 'member' : 'owner') })
    .execute();
  await db.updateTable('users').set({ last_organization_id: organizationId }).where('id', '=', user.id).execute();
  await db.insertInto('token_balances').values({ user_id: user.id, balance: options.balance ?? 0 }).execute();
  const token = await app.accessTokens.sign({ userId: user.id, organizationId });
  return { id: user.id, email, organizationId, token };
}

/**
 * A bare project row of the organization (no campaigns), straight in the database, for tests of a run that
 * needs only a project to belong to: the page check, the ledger.
 */
export async function createProjectRow(app: FastifyInstance, author: { id: string; organizationId: string }, options: { name?: string; siteUrl?: string } = {}): Promise<string> {
  const name = options.name ?? 'Окна';
  const row = await app.db
    .insertInto('projects')
    .values({ organization_id: author.organizationId, name, name_key: name.toLowerCase(), site_url: options.siteUrl ?? 'https://okna.example', platform: 'yandex_direct', author_id: author.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

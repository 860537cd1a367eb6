import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyLedgerEntry } from '../../server/tokens/ledger.js';
import { createTestApp, call, type TestApp } from './helpers/app.js';
import { createUser, type FixtureUser } from './helpers/fixtures.js';

/**
 * Tenant isolation: a user of organization A never reaches a resource of organization B. A resource of
 * B answers 404 (403 only where the route refuses A's role before looking anything up), and lists never
 * show B's data. Every domain adds its rows to `cases` (and, when it needs B-side data, a `seed`).
 */

interface Side {
  organizationId: string;
  owner: FixtureUser;
  admin: FixtureUser;
  member: FixtureUser;
  /** Ids and texts of this side's resources, by name; seeds add theirs. */
  resources: Record<string, string>;
}

interface World {
  a: Side;
  b: Side;
}

type Role = 'owner' | 'admin' | 'member';

interface IsolationCase {
  name: string;
  /** Which user of A makes the request. */
  as: Role;
  method: InjectOptions['method'];
  url: (w: World) => string;
  body?: (w: World) => unknown;
  /** The answer A gets; for lists and A's own resources, 200 (or 204) with none of B's data in it. */
  status: number;
  /** After the request: B's data is untouched. */
  unchanged?: (w: World, t: TestApp) => Promise<void>;
}

/** Creates B-side (and, when useful, A-side) data for later domains' cases. */
type Seed = (w: World, t: TestApp) => Promise<void>;

const seeds: Seed[] = [
  // Tokens: a ledger entry on each side, so history and balance can leak only if scoping is wrong.
  async (w, t) => {
    for (const side of [w.a, w.b]) {
      const result = await applyLedgerEntry(t.app.db, { userId: side.owner.id, organizationId: side.organizationId, type: 'welcome', amount: side === w.a ? 11 : 999, idempotencyKey: 'welcome' });
      side.resources.ledgerEntryId = result.entry.id;
    }
  },
  // Organizations: the name and invitation code, so lists can be checked for them.
  async (w, t) => {
    for (const side of [w.a, w.b]) {
      const org = await t.app.db.selectFrom('organizations').select(['name', 'invitation_code']).where('id', '=', side.organizationId).executeTakeFirstOrThrow();
      side.resources.organizationName = org.name;
      side.resources.invitationCode = org.invitation_code;
    }
  },
];

const bMembership = (userKey: 'owner' | 'admin' | 'member') => async (w: World, t: TestApp) => {
  const row = await t.app.db.selectFrom('memberships').select('role').where('user_id', '=', w.b[userKey].id).where('organization_id', '=', w.b.organizationId).executeTakeFirst();
  expect(row).toBeDefined();
};
const bOrganizationUnchanged = async (w: World, t: TestApp) => {
  const org = await t.app.db.selectFrom('organizations').select(['name', 'invitation_code', 'plan_type']).where('id', '=', w.b.organizationId).executeTakeFirstOrThrow();
  expect(org).toEqual({ name: w.b.resources.organizationName, invitation_code: w.b.resources.invitationCode, plan_type: 'free' });
};

const cases: IsolationCase[] = [
  // Organizations
  { name: "lists of organizations show only A's", as: 'owner', method: 'GET', url: () => '/api/v1/organizations', status: 200 },
  { name: "the current organization is A's", as: 'owner', method: 'GET', url: () => '/api/v1/organizations/current', status: 200 },
  { name: "the invitation code is A's", as: 'admin', method: 'GET', url: () => '/api/v1/organizations/invitation-code', status: 200 },
  { name: "the member list holds only A's members", as: 'owner', method: 'GET', url: () => '/api/v1/organizations/members', status: 200 },
  { name: "updating changes A's organization only", as: 'owner', method: 'PUT', url: () => '/api/v1/organizations/current', body: () => ({ name: 'Новое имя A' }), status: 200, unchanged: bOrganizationUnchanged },
  { name: "regenerating changes A's code only", as: 'admin', method: 'POST', url: () => '/api/v1/organizations/regenerate-invitation-code', status: 200, unchanged: bOrganizationUnchanged },
  { name: "removing B's member (as A's owner) is not found", as: 'owner', method: 'DELETE', url: (w) => `/api/v1/organizations/members/${w.b.member.id}`, status: 404, unchanged: bMembership('member') },
  { name: "removing B's admin (as A's admin) is not found", as: 'admin', method: 'DELETE', url: (w) => `/api/v1/organizations/members/${w.b.admin.id}`, status: 404, unchanged: bMembership('admin') },
  { name: "removing B's owner (as A's owner) is not found", as: 'owner', method: 'DELETE', url: (w) => `/api/v1/organizations/members/${w.b.owner.id}`, status: 404, unchanged: bMembership('owner') },
  { name: "removing B's member as A's plain member is refused by role first", as: 'member', method: 'DELETE', url: (w) => `/api/v1/organizations/members/${w.b.member.id}`, status: 403, unchanged: bMembership('member') },
  // Tokens
  { name: "the balance is the caller's own", as: 'owner', method: 'GET', url: () => '/api/v1/tokens/balance', status: 200 },
  { name: "the history holds only the caller's entries", as: 'owner', method: 'GET', url: () => '/api/v1/tokens/history?page_size=100', status: 200 },
  { name: "the cost shows the caller's balance", as: 'owner', method: 'POST', url: () => '/api/v1/tokens/calculate-cost', body: () => ({ campaigns: [{ keywords_count: 1, ads_count: 1 }] }), status: 200 },
];

/** Everything of B that must never appear in an answer to A. */
const secretsOf = (side: Side) => [side.organizationId, side.owner.id, side.admin.id, side.member.id, side.owner.email, side.admin.email, side.member.email, ...Object.values(side.resources)];

let t: TestApp;
let w: World;

async function side(label: string): Promise<Side> {
  const owner = await createUser(t.app, { firstName: label, lastName: 'Владелец' });
  const admin = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'admin' });
  const member = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'member' });
  return { organizationId: owner.organizationId, owner, admin, member, resources: {} };
}

beforeAll(async () => {
  t = await createTestApp();
  w = { a: await side('Алиса'), b: await side('Борис') };
  for (const seed of seeds) await seed(w, t);
});
afterAll(async () => {
  await t?.close();
});

describe('tenant isolation: organization A never reaches organization B', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const res = await call(t.app, c.method, c.url(w), { token: w.a[c.as].token, body: c.body?.(w) });
    expect(res.status).toBe(c.status);
    const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    for (const secret of secretsOf(w.b)) expect(text).not.toContain(secret);
    await c.unchanged?.(w, t);
  });

  it("refuses a token naming B's organization for a user who is not B's member", async () => {
    const forged = await t.app.accessTokens.sign({ userId: w.a.owner.id, organizationId: w.b.organizationId });
    for (const url of ['/api/v1/organizations/current', '/api/v1/organizations/members', '/api/v1/tokens/balance']) {
      const res = await call(t.app, 'GET', url, { token: forged });
      expect(res.status).toBe(401);
    }
  });
});

import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashSecretToken } from '../../../server/auth/secret-tokens.js';
import { invalidateUserSessions } from '../../../server/auth/session-cache.js';
import { REFRESH_REUSE_GRACE_SECONDS } from '../../../server/auth/sessions.js';
import { call, createSiblingApp, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/fixtures.js';
import { PASSWORD, register } from './helpers.js';

/**
 * Two servers on one database, as two processes of a deployment: `here` takes the change (an API call
 * or a direct UPDATE), `there` had the session cached and must refuse (or re-read) it on the next call.
 * The cache's TTL is an hour, so nothing in these tests expires by time: only the database's change
 * notifications can make `there` forget. `there.sessionCache.sync()` waits for the notifications
 * committed so far to arrive (one round trip on its listening connection), instead of a sleep.
 */
const ME = '/api/v1/auth/me';
const HOUR = { sessionCache: { ttlSeconds: 3600, maxEntries: 1000 } };

let here: TestApp;
let there: TestApp;
beforeAll(async () => {
  here = await createTestApp({ config: HOUR });
  there = await createSiblingApp(here);
});
afterAll(async () => {
  await there?.close();
  await here?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Calls `url` on `there` with the token (it must answer 200) and checks that the session is now cached there.
 * Catches up first: setting the user up (a membership row, a role) notifies too, and a notification that
 * arrived after this call would rightly drop the entry it just cached.
 */
async function cachedThere(token: string, url = ME) {
  await caughtUp();
  const res = await call(there.app, 'GET', url, { token });
  expect(res.status).toBe(200);
  expect(there.app.sessionCache.get(token)).toBeDefined();
  return res.body;
}

async function caughtUp() {
  await there.app.sessionCache.sync();
}

async function login(email: string) {
  const res = await call(here.app, 'POST', '/api/v1/auth/login', { body: { email, password: PASSWORD } });
  expect(res.status).toBe(200);
  return res.body.tokens as { access_token: string; refresh_token: string };
}

describe('the verified-session cache across two servers on one database', () => {
  it('starts listening with the app, so sessions are cached from the first request', () => {
    expect(here.app.sessionCache.active).toBe(true);
    expect(there.app.sessionCache.active).toBe(true);
  });

  it('logout on one server: the other refuses the session on its next call, and the first at once', async () => {
    const user = await register(here.app);
    const token = user.tokens.access_token;
    await cachedThere(token);
    expect((await call(here.app, 'GET', ME, { token })).status).toBe(200);

    expect((await call(here.app, 'POST', '/api/v1/auth/logout', { token })).status).toBe(204);
    // The server that logged out knows before its answer leaves: no waiting at all.
    expect((await call(here.app, 'GET', ME, { token })).status).toBe(401);
    await caughtUp();
    expect((await call(there.app, 'GET', ME, { token })).status).toBe(401);
  });

  it('refresh-token reuse revokes the family: its cached access token is refused on the other server', async () => {
    const user = await register(here.app);
    const rotated = await call(here.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: user.tokens.refresh_token } });
    expect(rotated.status).toBe(200);
    await cachedThere(rotated.body.access_token);
    // Past the grace window, the old refresh token presented again is a copy: the family is revoked.
    await here.app.db
      .updateTable('refresh_tokens')
      .set({ rotated_at: sql<Date>`now() - make_interval(secs => ${REFRESH_REUSE_GRACE_SECONDS + 1})` })
      .where('token_hash', '=', hashSecretToken(user.tokens.refresh_token))
      .execute();
    expect((await call(here.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: user.tokens.refresh_token } })).status).toBe(401);

    await caughtUp();
    expect((await call(there.app, 'GET', ME, { token: rotated.body.access_token })).status).toBe(401);
  });

  it('a removed member is refused on the other server', async () => {
    const owner = await createUser(here.app);
    const member = await createUser(here.app, { organizationId: owner.organizationId, organizationRole: 'member' });
    await cachedThere(member.token, '/api/v1/organizations/current');

    expect((await call(here.app, 'DELETE', `/api/v1/organizations/members/${member.id}`, { token: owner.token })).status).toBe(204);
    expect((await call(here.app, 'GET', '/api/v1/organizations/current', { token: member.token })).status).toBe(401);
    await caughtUp();
    expect((await call(there.app, 'GET', '/api/v1/organizations/current', { token: member.token })).status).toBe(401);
  });

  it("a member's new role is in force on the other server at once (promotion and demotion)", async () => {
    const owner = await createUser(here.app);
    const member = await createUser(here.app, { organizationId: owner.organizationId, organizationRole: 'member' });
    expect(await cachedThere(member.token, '/api/v1/organizations/user-role')).toEqual({ role: 'member' });
    expect((await call(there.app, 'GET', '/api/v1/organizations/members', { token: member.token })).status).toBe(403);

    // No endpoint changes roles yet: an operator's UPDATE (any code path) is noticed the same way.
    const setRole = (role: 'admin' | 'member') =>
      here.app.db.updateTable('memberships').set({ role }).where('user_id', '=', member.id).where('organization_id', '=', owner.organizationId).execute();
    await setRole('admin');
    await caughtUp();
    expect((await call(there.app, 'GET', '/api/v1/organizations/user-role', { token: member.token })).body).toEqual({ role: 'admin' });
    expect((await call(there.app, 'GET', '/api/v1/organizations/members', { token: member.token })).status).toBe(200);

    await setRole('member');
    await caughtUp();
    expect((await call(there.app, 'GET', '/api/v1/organizations/members', { token: member.token })).status).toBe(403);
  });

  it('a change of the user (platform role taken away, user deleted) is in force on the other server', async () => {
    const admin = await createUser(here.app, { role: 'admin' });
    await cachedThere(admin.token, '/api/v1/admin/overview');

    await here.app.db.updateTable('users').set({ role: 'user' }).where('id', '=', admin.id).execute();
    await caughtUp();
    expect((await call(there.app, 'GET', '/api/v1/admin/overview', { token: admin.token })).status).toBe(403);

    const doomed = await createUser(here.app);
    await cachedThere(doomed.token);
    await here.app.db.deleteFrom('users').where('id', '=', doomed.id).execute();
    await caughtUp();
    expect((await call(there.app, 'GET', ME, { token: doomed.token })).status).toBe(401);
  });

  it('invalidateUserSessions (for changes the triggers do not see) drops every cached session of the user, on every server', async () => {
    const user = await createUser(here.app);
    const other = await createUser(here.app);
    await cachedThere(user.token);
    await cachedThere(other.token);

    await here.app.db.transaction().execute((trx) => invalidateUserSessions(trx, user.id));
    await caughtUp();
    expect(there.app.sessionCache.get(user.token)).toBeUndefined();
    expect(there.app.sessionCache.get(other.token)).toBeDefined();
  });

  it('after an organization switch, the new token works on the other server and the old one keeps its organization', async () => {
    const user = await register(here.app);
    const second = await createUser(here.app);
    await here.app.db.insertInto('memberships').values({ user_id: user.user.id, organization_id: second.organizationId, role: 'admin' }).execute();
    await cachedThere(user.tokens.access_token, '/api/v1/organizations/user-role');

    const switched = await call(here.app, 'POST', '/api/v1/auth/switch-organization', { token: user.tokens.access_token, body: { organization_id: second.organizationId } });
    expect(switched.status).toBe(200);
    await caughtUp();
    expect((await call(there.app, 'GET', '/api/v1/organizations/user-role', { token: switched.body.tokens.access_token })).body).toEqual({ role: 'admin' });
    expect((await call(there.app, 'GET', '/api/v1/organizations/user-role', { token: user.tokens.access_token })).body).toEqual({ role: 'owner' });
  });

  it('a password change ends the other sessions on the other server; the session that changed it stays', async () => {
    const user = await register(here.app);
    const elsewhere = await login(user.email);
    await cachedThere(user.tokens.access_token);
    await cachedThere(elsewhere.access_token);

    const changed = await call(here.app, 'POST', '/api/v1/auth/new-password', { token: user.tokens.access_token, body: { current_password: PASSWORD, password: 'Novyiparol2026' } });
    expect(changed.status).toBe(200);
    expect((await call(here.app, 'GET', ME, { token: elsewhere.access_token })).status).toBe(401);
    await caughtUp();
    expect((await call(there.app, 'GET', ME, { token: elsewhere.access_token })).status).toBe(401);
    expect((await call(there.app, 'GET', ME, { token: user.tokens.access_token })).status).toBe(200);
  });

  it('while its listening connection is down a server reads every session from the database, and caches again once it is back', async () => {
    const user = await register(here.app);
    const token = user.tokens.access_token;
    await cachedThere(token);

    // Cut every listening connection of this database (the other server's included).
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'reklama-lab-sessions'`.execute(here.app.db);
    await vi.waitFor(() => expect(there.app.sessionCache.active).toBe(false), { timeout: 5000, interval: 10 });
    expect(there.app.sessionCache.get(token)).toBeUndefined();
    // A revocation nobody hears about: the server without a listener still refuses the session.
    await here.app.db.updateTable('refresh_tokens').set({ revoked_at: sql<Date>`now()` }).where('user_id', '=', user.user.id).execute();
    expect((await call(there.app, 'GET', ME, { token })).status).toBe(401);

    await vi.waitFor(() => expect(there.app.sessionCache.active).toBe(true), { timeout: 10_000, interval: 20 });
    expect((await call(there.app, 'GET', ME, { token })).status).toBe(401);
    const again = await login(user.email);
    await cachedThere(again.access_token);
    await vi.waitFor(() => expect(here.app.sessionCache.active).toBe(true), { timeout: 10_000, interval: 20 });
  });

  it('forgets a session after its TTL even when no notification came (the safety net)', async () => {
    const user = await createUser(here.app);
    await cachedThere(user.token);
    // The membership goes without a notification (triggers off inside this one transaction).
    await here.app.db.transaction().execute(async (trx) => {
      await sql`ALTER TABLE memberships DISABLE TRIGGER memberships_sessions_changed`.execute(trx);
      await trx.deleteFrom('memberships').where('user_id', '=', user.id).execute();
      await sql`ALTER TABLE memberships ENABLE TRIGGER memberships_sessions_changed`.execute(trx);
    });
    await caughtUp();
    // Served from the cache: the database was not asked.
    expect((await call(there.app, 'GET', ME, { token: user.token })).status).toBe(200);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3600_000 + 1 });
    expect((await call(there.app, 'GET', ME, { token: user.token })).status).toBe(401);
  });

  it('keeps at most maxEntries sessions', async () => {
    const small = await createSiblingApp(here, { config: { sessionCache: { ttlSeconds: 3600, maxEntries: 2 } } });
    try {
      const users = await Promise.all([1, 2, 3].map(() => createUser(here.app)));
      for (const user of users) expect((await call(small.app, 'GET', ME, { token: user.token })).status).toBe(200);
      expect(small.app.sessionCache.size).toBe(2);
      expect(small.app.sessionCache.get(users[0]!.token)).toBeUndefined();
    } finally {
      await small.close();
    }
  });
});

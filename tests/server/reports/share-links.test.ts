/**
 * Issue 24, item 4: a read-only page of one audit's report behind an unguessable link. Expiry (the
 * server's clock moved with fake timers), revocation, and isolation: a link shows its own audit and
 * nothing else of the organization; another organization can neither list, make nor revoke its links.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { reportMessages } from '../../../contract/messages.js';
import { hashSecretToken } from '../../../server/auth/secret-tokens.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { completedAudit } from './helpers.js';

const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
let owner: FixtureUser;
let member: FixtureUser;
let stranger: FixtureUser;
let analysisId: string;

beforeAll(async () => {
  t = await createTestApp({ jobQueue: { runWorkers: true } });
  owner = await createUser(t.app, { balance: 100_000, email: `owner-${Date.now()}@agency.test` });
  member = await createUser(t.app, { organizationId: owner.organizationId });
  stranger = await createUser(t.app, { balance: 100_000 });
  ({ analysisId } = await completedAudit(t.app, owner));
  await call(t.app, 'PUT', '/api/v1/organizations/current/branding', { token: owner.token, body: { report_name: 'Агентство «Север»' } });
});
afterAll(async () => t?.close());
afterEach(() => vi.useRealTimers());

const share = (token: string, body: unknown = {}, id = analysisId) => call(t.app, 'POST', `/api/v1/analyses/${id}/share-links`, { token, body });
const openShared = (token: string) => t.app.inject({ method: 'GET', url: `/api/v1/public/reports/${token}` });
const revoke = (token: string, linkId: string) => call(t.app, 'DELETE', `/api/v1/share-links/${linkId}`, { token });

describe('share links of a client report', () => {
  it('opens the report without an account; the token has 256 bits and only its hash is stored', async () => {
    const created = await share(member.token, { expires_in_days: 7 });
    expect(created.status).toBe(201);
    const { token, link } = created.body as { token: string; link: { id: string; expires_at: string; state: string } };
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.state).toBe('active');
    expect(new Date(link.expires_at).getTime() - Date.now()).toBeGreaterThan(7 * DAY_MS - 60_000);
    const stored = await t.app.db.selectFrom('report_share_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashSecretToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    const page = await openShared(token);
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(page.headers['cache-control']).toContain('no-store');
    const body = JSON.parse(page.body);
    expect(body.report.brand.name).toBe('Агентство «Север»');
    expect(body.report.money.perMonth).toBeGreaterThan(0);
    // Nothing else of the organization: no member, e-mail, invitation code, balance or id of it.
    const org = await t.app.db.selectFrom('organizations').select(['id', 'invitation_code']).where('id', '=', owner.organizationId).executeTakeFirstOrThrow();
    for (const secret of [owner.email, member.email, org.id, org.invitation_code, owner.id, analysisId]) expect(page.body).not.toContain(secret);

    // The list shows the link, never the token again.
    const list = await call(t.app, 'GET', `/api/v1/analyses/${analysisId}/share-links`, { token: owner.token });
    expect(list.body.links.map((item: { id: string }) => item.id)).toContain(link.id);
    expect(JSON.stringify(list.body)).not.toContain(token);
  });

  it('stops opening once expired (410 in Russian), and says so in the list', async () => {
    const { token, link } = (await share(owner.token, { expires_in_days: 1 })).body;
    expect((await openShared(token)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + DAY_MS + 1000);
    const expired = await openShared(token);
    expect(expired.statusCode).toBe(410);
    expect(JSON.parse(expired.body)).toMatchObject({ code: 'SHARE_LINK_EXPIRED', error: reportMessages.shareLinkExpired });
    // The owner's access token has expired too by then: a fresh one for the list.
    const fresh = await t.app.accessTokens.sign({ userId: owner.id, organizationId: owner.organizationId });
    const list = await call(t.app, 'GET', `/api/v1/analyses/${analysisId}/share-links`, { token: fresh });
    expect(list.body.links.find((item: { id: string }) => item.id === link.id).state).toBe('expired');
  });

  it('refuses an expiry outside 1–90 days', async () => {
    for (const days of [0, 91, 2.5, '30']) {
      const refused = await share(owner.token, { expires_in_days: days });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toContain(reportMessages.expiryInvalid);
    }
  });

  it('stops opening at once when revoked; a member revokes only their own links, an owner any', async () => {
    const ownersLink = (await share(owner.token)).body;
    const membersLink = (await share(member.token)).body;
    const forbidden = await revoke(member.token, ownersLink.link.id);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe(reportMessages.shareLinkRevokeForbidden);
    expect((await openShared(ownersLink.token)).statusCode).toBe(200);

    expect((await revoke(member.token, membersLink.link.id)).status).toBe(204);
    expect((await revoke(owner.token, ownersLink.link.id)).status).toBe(204);
    expect((await revoke(owner.token, ownersLink.link.id)).status).toBe(204);
    for (const { token } of [ownersLink, membersLink]) {
      const revoked = await openShared(token);
      expect(revoked.statusCode).toBe(410);
      expect(JSON.parse(revoked.body)).toMatchObject({ code: 'SHARE_LINK_REVOKED', error: reportMessages.shareLinkRevoked });
    }
  });

  it("keeps another organization out: it can neither make, list nor revoke this audit's links", async () => {
    const link = (await share(owner.token)).body;
    expect((await share(stranger.token)).status).toBe(404);
    expect((await call(t.app, 'GET', `/api/v1/analyses/${analysisId}/share-links`, { token: stranger.token })).status).toBe(404);
    expect((await revoke(stranger.token, link.link.id)).status).toBe(404);
    expect((await openShared(link.token)).statusCode).toBe(200);
    // The stranger's own audit gets its own link, which opens the stranger's report, not this one.
    const own = await completedAudit(t.app, stranger);
    const strangers = (await share(stranger.token, {}, own.analysisId)).body;
    const page = JSON.parse((await openShared(strangers.token)).body);
    expect(page.report.brand.name).not.toBe('Агентство «Север»');
  });

  it('answers 404 for a token nobody made, and once the audit is deleted', async () => {
    const unknown = await openShared('A'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    expect(JSON.parse(unknown.body).error).toBe(reportMessages.shareLinkNotFound);
    const other = await completedAudit(t.app, owner);
    const link = (await share(owner.token, {}, other.analysisId)).body;
    await t.app.db.updateTable('projects').set({ deleted_at: new Date() }).where('id', '=', other.projectId).execute();
    expect((await openShared(link.token)).statusCode).toBe(404);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectWithCampaigns } from '../analysis/helpers.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';

// One rule for cancelling any paid run (server/runs/paid-run.ts, mayCancel): its author, or the owner or an
// admin of its organization. The queue runs no workers here, so every run stays queued until cancelled.
let t: TestApp;
let owner: FixtureUser;
let author: FixtureUser;
let colleague: FixtureUser;
let orgAdmin: FixtureUser;
let projectId: string;
let campaignIds: string[];

beforeAll(async () => {
  t = await createTestApp({ jobQueue: { runWorkers: false } });
  owner = await createUser(t.app, { balance: 0 });
  author = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'member', balance: 10_000 });
  colleague = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'member' });
  orgAdmin = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'admin' });
  ({ projectId, campaignIds } = await projectWithCampaigns(t.app, owner));
});
afterAll(async () => t?.close());

const balanceOf = async (user: FixtureUser) => (await call(t.app, 'GET', '/api/v1/tokens/balance', { token: user.token })).body.balance as number;

const kinds = [
  {
    kind: 'page check',
    start: () => call(t.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: author.token, body: { urls: ['https://example.com/okna'], idempotency_key: randomUUID() } }),
    cancelUrl: (id: string) => `/api/v1/page-checks/${id}/cancel`,
    forbidden: 'Отменить проверку страниц может её автор, владелец или администратор организации',
  },
  {
    kind: 'audit',
    start: () => call(t.app, 'POST', `/api/v1/projects/${projectId}/analyses`, { token: author.token, body: { campaign_ids: campaignIds, idempotency_key: randomUUID() } }),
    cancelUrl: (id: string) => `/api/v1/analyses/${id}/cancel`,
    forbidden: 'Отменить анализ может его автор, владелец или администратор организации',
  },
];

describe.each(kinds)('cancelling a $kind', ({ start, cancelUrl, forbidden }) => {
  it("refuses a plain member another user's run with 403, changes nothing, and lets the author cancel it", async () => {
    const started = await start();
    expect(started.status).toBe(201);
    const id = started.body.analysis.id as string;
    const charged = await balanceOf(author);

    const refused = await call(t.app, 'POST', cancelUrl(id), { token: colleague.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: forbidden, code: 'FORBIDDEN' });
    expect(await balanceOf(author)).toBe(charged);

    const own = await call(t.app, 'POST', cancelUrl(id), { token: author.token });
    expect(own.status).toBe(200);
    expect(own.body.analysis.status).toBe('cancelled');
    expect(await balanceOf(author)).toBeGreaterThan(charged);
  });

  it.each([
    ['the owner', () => owner],
    ['an admin', () => orgAdmin],
  ])("lets %s of the organization cancel a member's run (refunded to its author)", async (_who, canceller) => {
    const started = await start();
    const id = started.body.analysis.id as string;
    const charged = await balanceOf(author);
    const cancelled = await call(t.app, 'POST', cancelUrl(id), { token: canceller().token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.analysis.status).toBe('cancelled');
    expect(await balanceOf(author)).toBe(charged + started.body.analysis.cost);
  });

  it('does not find a run of another organization', async () => {
    const started = await start();
    const stranger = await createUser(t.app, { organizationRole: 'owner' });
    expect((await call(t.app, 'POST', cancelUrl(started.body.analysis.id), { token: stranger.token })).status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageCheckFetchSettings } from '../../../server/page-check/worker.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createProjectRow, createUser, type FixtureUser } from '../helpers/fixtures.js';
import { balanceOf, finishedPageCheck } from './helpers.js';

/**
 * With the SSRF guard on (the default), refused addresses are never read, so never charged: they are
 * refunded (with any other page that gave no answer: unchecked-refund.test.ts) exactly when the run
 * completes, in the same transaction, and the run's cost shows what was really charged.
 */
let t: TestApp;
let owner: FixtureUser;
let projectId: string;

beforeAll(async () => {
  // A public address that answers nothing here: accepted by the guard, then a quick timeout.
  pageCheckFetchSettings.timeoutMs = 300;
  t = await createTestApp({ jobQueue: { runWorkers: true } });
  owner = await createUser(t.app, { balance: 20 });
  projectId = await createProjectRow(t.app, owner);
});
afterAll(async () => {
  delete pageCheckFetchSettings.timeoutMs;
  await t?.close();
});

const balance = () => balanceOf(t.app, owner.token);
const finished = (id: string) => finishedPageCheck(t.app, owner.token, id);

describe('refused page addresses are not charged', () => {
  it('refunds exactly the refused pages when the run completes, once, and shows the net cost', async () => {
    const urls = ['http://127.0.0.1:9/', 'http://[::ffff:127.0.0.1]/', 'http://[64:ff9b::a00:1]/', 'http://169.254.169.254/latest/meta-data/', 'http://93.184.216.34:9/okna'];
    const started = await call(t.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: owner.token, body: { urls, idempotency_key: 'refused-1' } });
    expect(started.status).toBe(201);
    expect(started.body.analysis.cost).toBe(5);
    expect(await balance()).toBe(15);

    const analysis = await finished(started.body.analysis.id);
    expect(analysis.status).toBe('completed');
    // Four refused pages were never read: not paid for. The one the guard let through is paid for when it
    // answered (here a network may put a proxy's answer in its way) and refunded too when it did not.
    const pages = (await call(t.app, 'GET', `/api/v1/page-checks/${analysis.id}/results`, { token: owner.token })).body.result.pages as { url: string; status: number | null }[];
    const answered = pages.filter((page) => page.status !== null).map((page) => page.url);
    expect(answered.every((url) => url === 'http://93.184.216.34:9/okna')).toBe(true);
    expect(analysis.cost).toBe(answered.length);
    expect(await balance()).toBe(20 - answered.length);
    const history = await call(t.app, 'GET', '/api/v1/tokens/history?type=analysis_refund', { token: owner.token });
    const refunds = history.body.items.filter((entry: { reference_id: string }) => entry.reference_id === analysis.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 5 - answered.length, reason: `Возврат за страницы, которые не удалось проверить (нет ответа сайта): ${5 - answered.length}` });

    const results = await call(t.app, 'GET', `/api/v1/page-checks/${analysis.id}/results`, { token: owner.token });
    expect(results.status).toBe(200);
  });

  it('refunds everything when every address is refused', async () => {
    const before = await balance();
    const started = await call(t.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: owner.token, body: { urls: ['http://[::7f00:1]/', 'http://10.0.0.1/'], idempotency_key: 'refused-2' } });
    expect(started.status).toBe(201);
    expect(await balance()).toBe(before - 2);
    const analysis = await finished(started.body.analysis.id);
    expect(analysis).toMatchObject({ status: 'completed', cost: 0 });
    expect(await balance()).toBe(before);
  });
});

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_SELLER } from '../helpers/seller.js';
import { notificationCheckTiming, YOOKASSA_CHECK_QUEUE } from '../../../server/payments/notification-check.js';
import { yookassaTiming } from '../../../server/payments/yookassa.js';
import { startFakeYookassa, type FakeYookassa } from '../../fakes/yookassa-fake.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { notificationChecksDone } from './helpers.js';

// The webhook answers YooKassa at once and checks the payment in a job with a timeout; forged notifications
// make no request to YooKassa (server/payments/notification-check.ts). A real fake YooKassa on 127.0.0.1
// that can hang.
let t: TestApp;
let kassa: FakeYookassa;
const packages = [{ id: 'small', name: 'Малый', tokens: 500, price_rub: 990 }];
const defaults = { ...yookassaTiming, ...notificationCheckTiming };

beforeAll(async () => {
  kassa = await startFakeYookassa();
  // A failed check is retried a second later (30 s, with backoff, in production).
  notificationCheckTiming.retryDelaySeconds = 1;
  t = await createTestApp({ config: { payments: { packages, seller: TEST_SELLER, yookassa: { shopId: kassa.shopId, secretKey: kassa.secretKey, apiUrl: kassa.url } } }, jobQueue: { runWorkers: true } });
});
function recoverYookassa() {
  kassa.hangLookups(false);
  yookassaTiming.requestTimeoutMs = defaults.requestTimeoutMs;
}
afterEach(recoverYookassa);

/** YooKassa stops answering lookups, and a lookup gives up after 500 ms (15 s in production). */
function hangYookassa() {
  kassa.hangLookups(true);
  yookassaTiming.requestTimeoutMs = 500;
}
afterAll(async () => {
  notificationCheckTiming.retryDelaySeconds = defaults.retryDelaySeconds;
  await t?.close();
  await kassa?.close();
});

const notify = (body: unknown) => call(t.app, 'POST', '/api/v1/tokens/payments/yookassa-notification', { body });
const balanceOf = async (user: FixtureUser) => (await call(t.app, 'GET', '/api/v1/tokens/balance', { token: user.token })).body.balance as number;

async function pendingPayment(user: FixtureUser) {
  const created = await call(t.app, 'POST', '/api/v1/tokens/payments', { token: user.token, body: { package_id: 'small', idempotency_key: randomUUID() } });
  expect(created.status).toBe(200);
  const provider = [...kassa.payments.values()].find((p) => p.metadata.payment_id === created.body.id)!;
  return { id: created.body.id as string, providerId: provider.id };
}

const checkStates = async (providerId: string) =>
  (await sql<{ state: string }>`SELECT state FROM pgboss.job WHERE name = ${YOOKASSA_CHECK_QUEUE} AND data ->> 'objectId' = ${providerId}`.execute(t.app.db)).rows.map((row) => row.state);

describe('YooKassa notifications', () => {
  it('answers at once while YooKassa hangs, retries the check after its timeout, and credits once YooKassa answers', async () => {
    const user = await createUser(t.app, { balance: 0 });
    const { providerId } = await pendingPayment(user);
    const paid = kassa.succeed(providerId);
    hangYookassa();
    const lookupsBefore = kassa.lookups.length;

    const answer = await notify(kassa.notification('payment.succeeded', paid));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
    expect(await balanceOf(user)).toBe(0);

    // The check asked YooKassa, got no answer within its timeout and waits for its retry.
    await vi.waitFor(async () => expect(await checkStates(providerId)).toContain('retry'), { timeout: 10_000, interval: 50 });
    expect(kassa.lookups.slice(lookupsBefore)).toContain(`payments/${providerId}`);
    expect(await balanceOf(user)).toBe(0);

    recoverYookassa();
    await notificationChecksDone(t.app.db, 20_000);
    expect(await balanceOf(user)).toBe(500);
    const history = await call(t.app, 'GET', '/api/v1/tokens/history?type=purchase', { token: user.token });
    expect(history.body.items).toHaveLength(1);
  });

  it('makes no request to YooKassa for a notification about no payment of ours, nor for one that can change nothing', async () => {
    const user = await createUser(t.app, { balance: 0 });
    const { id, providerId } = await pendingPayment(user);
    const before = kassa.lookups.length;
    const forged = [
      kassa.notification('payment.succeeded', { id: `2${randomUUID().slice(1)}`, status: 'succeeded', paid: true, metadata: {} }),
      // Our payment's id in the metadata, but YooKassa's id is not the one we know for it.
      kassa.notification('payment.succeeded', { id: `2${randomUUID().slice(1)}`, status: 'succeeded', paid: true, metadata: { payment_id: id } }),
      kassa.notification('payment.succeeded', { id: 'x', metadata: { payment_id: 'not-a-uuid' } }),
      kassa.notification('refund.succeeded', { id: `2${randomUUID().slice(1)}`, payment_id: providerId, status: 'succeeded' }),
      kassa.notification('refund.succeeded', { id: `2${randomUUID().slice(1)}`, payment_id: `2${randomUUID().slice(1)}`, status: 'succeeded' }),
      kassa.notification('refund.succeeded', { id: `2${randomUUID().slice(1)}`, status: 'succeeded' }),
      kassa.notification('payment.waiting_for_capture', { id: providerId }),
    ];
    for (const body of forged) {
      const answer = await notify(body);
      expect(answer.status).toBe(200);
    }
    await notificationChecksDone(t.app.db);
    expect(kassa.lookups.slice(before)).toEqual([]);
    expect(await checkStates(providerId)).toEqual([]);
    expect(await balanceOf(user)).toBe(0);

    // Once paid, a repeated payment.succeeded has nothing left to change: no lookup either.
    await notify(kassa.notification('payment.succeeded', kassa.succeed(providerId)));
    await notificationChecksDone(t.app.db);
    expect(await balanceOf(user)).toBe(500);
    const afterPaid = kassa.lookups.length;
    await notify(kassa.notification('payment.succeeded', kassa.payments.get(providerId)!));
    await notificationChecksDone(t.app.db);
    expect(kassa.lookups.length).toBe(afterPaid);
  });

  it('checks a flood of copies of one notification one lookup at a time while YooKassa hangs', async () => {
    const user = await createUser(t.app, { balance: 0 });
    const { providerId } = await pendingPayment(user);
    const paid = kassa.succeed(providerId);
    hangYookassa();
    const answers = await Promise.all(Array.from({ length: 30 }, () => notify(kassa.notification('payment.succeeded', paid))));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 30 }, () => 200));
    // At most one check per state (waiting, waiting for its retry, running: the queue is stately), not thirty.
    const unfinished = (await checkStates(providerId)).filter((state) => ['created', 'retry', 'active'].includes(state));
    expect(unfinished.length).toBeGreaterThan(0);
    expect(new Set(unfinished).size).toBe(unfinished.length);
    expect(kassa.lookups.filter((lookup) => lookup === `payments/${providerId}`).length).toBeLessThan(30);
    recoverYookassa();
    await notificationChecksDone(t.app.db, 20_000);
    expect(await balanceOf(user)).toBe(500);
  });
});

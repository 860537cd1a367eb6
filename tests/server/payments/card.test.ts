import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PACKAGES } from '../../../server/config/payments.js';
import { TEST_SELLER } from '../helpers/seller.js';
import { startFakeYookassa, type FakeYookassa } from '../../fakes/yookassa-fake.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { notificationChecksDone } from './helpers.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';

let t: TestApp;
let kassa: FakeYookassa;
const packages = [
  { id: 'small', name: 'Малый', tokens: 500, price_rub: 990 },
  { id: 'big', name: 'Большой', tokens: 2000, price_rub: 3490 },
];

beforeAll(async () => {
  kassa = await startFakeYookassa();
  t = await createTestApp({ config: { payments: { packages, seller: TEST_SELLER, yookassa: { shopId: kassa.shopId, secretKey: kassa.secretKey, apiUrl: kassa.url } } }, jobQueue: { runWorkers: true } });
});
afterAll(async () => {
  await t?.close();
  await kassa?.close();
});

/** Posts a notification and waits for its check (a job: server/payments/notification-check.ts) to be over. */
const notify = async (body: unknown) => {
  const answer = await call(t.app, 'POST', '/api/v1/tokens/payments/yookassa-notification', { body });
  await notificationChecksDone(t.app.db);
  return answer;
};
const balanceOf = async (user: FixtureUser) => (await call(t.app, 'GET', '/api/v1/tokens/balance', { token: user.token })).body.balance as number;
const pay = (user: FixtureUser, packageId: string, key: string) => call(t.app, 'POST', '/api/v1/tokens/payments', { token: user.token, body: { package_id: packageId, idempotency_key: key } });

describe('token packages', () => {
  it('lists the configured packages and offers the card when YooKassa is configured', async () => {
    const user = await createUser(t.app);
    const res = await call(t.app, 'GET', '/api/v1/tokens/packages', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ packages, methods: { card: true, invoice: true }, contact: 'support@reklama-lab.example' });
  });

  it('hides the card without YooKassa and refuses a card payment with 503', async () => {
    const plain = await createTestApp();
    try {
      const user = await createUser(plain.app);
      const res = await call(plain.app, 'GET', '/api/v1/tokens/packages', { token: user.token });
      expect(res.body).toEqual({ packages: DEFAULT_PACKAGES, methods: { card: false, invoice: true }, contact: 'support@reklama-lab.example' });
      const refused = await call(plain.app, 'POST', '/api/v1/tokens/payments', { token: user.token, body: { package_id: 'start', idempotency_key: 'k1' } });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ error: 'Оплата картой не настроена. Выберите оплату по счёту', code: 'CARD_PAYMENTS_DISABLED' });
    } finally {
      await plain.close();
    }
  });

  it('needs a session', async () => {
    expect((await call(t.app, 'GET', '/api/v1/tokens/packages')).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/tokens/payments', { body: { package_id: 'small', idempotency_key: 'x' } })).status).toBe(401);
  });
});

describe('card payment through YooKassa', () => {
  it('creates the payment with an Idempotence-Key and answers the confirmation URL; the same key gives the same payment', async () => {
    const user = await createUser(t.app, { balance: 0 });
    const created = await pay(user, 'big', 'click-1');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ method: 'card', status: 'pending', package_id: 'big', tokens: 2000, amount_rub: 3490, paid_at: null });
    expect(created.body.confirmation_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\//);
    const sent = kassa.creations.at(-1)!;
    expect(sent.idempotenceKey).toBe(created.body.id);
    expect(sent.body).toMatchObject({ amount: { value: '3490.00', currency: 'RUB' }, capture: true, confirmation: { type: 'redirect', return_url: `http://localhost:5173/tokens?payment=${created.body.id}` }, metadata: { payment_id: created.body.id } });

    const again = await pay(user, 'big', 'click-1');
    expect(again.body).toEqual(created.body);
    expect((await call(t.app, 'GET', '/api/v1/tokens/payments', { token: user.token })).body.items).toHaveLength(1);
    expect(await balanceOf(user)).toBe(0);
  });

  it('refuses an unknown package with 422 in the error format', async () => {
    const user = await createUser(t.app);
    const res = await pay(user, 'gold', 'k');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'Такого пакета токенов нет', code: 'PACKAGE_UNKNOWN' });
  });

  it('credits the tokens once on payment.succeeded, however many times the notification comes', async () => {
    const user = await createUser(t.app, { balance: 7 });
    const created = await pay(user, 'small', 'k-success');
    const providerId = [...kassa.payments.values()].find((p) => p.metadata.payment_id === created.body.id)!.id;
    const payment = kassa.succeed(providerId);

    const first = await notify(kassa.notification('payment.succeeded', payment));
    expect(first.status).toBe(200);
    expect(await balanceOf(user)).toBe(507);
    // Duplicates, also concurrent ones, change nothing.
    const repeats = await Promise.all(Array.from({ length: 5 }, () => notify(kassa.notification('payment.succeeded', payment))));
    expect(repeats.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await balanceOf(user)).toBe(507);

    const history = await call(t.app, 'GET', '/api/v1/tokens/history?type=purchase', { token: user.token });
    expect(history.body.items).toHaveLength(1);
    expect(history.body.items[0]).toMatchObject({ type: 'purchase', amount: 500, balance_after: 507, reference_id: created.body.id });
    const listed = await call(t.app, 'GET', `/api/v1/tokens/payments/${created.body.id}`, { token: user.token });
    expect(listed.body).toMatchObject({ status: 'paid', confirmation_url: null });
    expect(listed.body.paid_at).toEqual(expect.any(String));
  });

  it('checks a pending payment with YooKassa when the user comes back, crediting once even without a notification', async () => {
    const user = await createUser(t.app, { balance: 0 });
    const created = await pay(user, 'small', 'k-return');
    const providerId = [...kassa.payments.values()].find((p) => p.metadata.payment_id === created.body.id)!.id;
    expect((await call(t.app, 'GET', `/api/v1/tokens/payments/${created.body.id}`, { token: user.token })).body.status).toBe('pending');
    kassa.succeed(providerId);
    expect((await call(t.app, 'GET', `/api/v1/tokens/payments/${created.body.id}`, { token: user.token })).body.status).toBe('paid');
    await notify(kassa.notification('payment.succeeded', kassa.payments.get(providerId)!));
    expect(await balanceOf(user)).toBe(500);
  });

  it('marks a payment cancelled on payment.canceled, with the reason in Russian, and credits nothing', async () => {
    const user = await createUser(t.app, { balance: 0 });
    const created = await pay(user, 'small', 'k-cancel');
    const providerId = [...kassa.payments.values()].find((p) => p.metadata.payment_id === created.body.id)!.id;
    const payment = kassa.cancel(providerId, 'insufficient_funds');
    expect((await notify(kassa.notification('payment.canceled', payment))).status).toBe(200);
    const listed = await call(t.app, 'GET', '/api/v1/tokens/payments', { token: user.token });
    expect(listed.body.items[0]).toMatchObject({ id: created.body.id, status: 'canceled', cancel_reason: 'Недостаточно средств на карте', confirmation_url: null });
    expect(await balanceOf(user)).toBe(0);
  });

  it('ignores a forged notification: the payment is fetched back from YooKassa and only its answer counts', async () => {
    const user = await createUser(t.app, { balance: 0 });
    const created = await pay(user, 'big', 'k-forged');
    const real = [...kassa.payments.values()].find((p) => p.metadata.payment_id === created.body.id)!;
    // The body claims success, YooKassa says pending.
    const forged = await notify(kassa.notification('payment.succeeded', { ...real, status: 'succeeded', paid: true }));
    expect(forged.status).toBe(200);
    // An id YooKassa does not know at all.
    const unknown = await notify(kassa.notification('payment.succeeded', { id: 'forged-0000', status: 'succeeded', metadata: { payment_id: created.body.id } }));
    expect(unknown.status).toBe(200);
    expect(await balanceOf(user)).toBe(0);
    expect((await call(t.app, 'GET', '/api/v1/tokens/payments', { token: user.token })).body.items[0].status).toBe('pending');
    // Garbage is a 422 in the error format, never a 5xx.
    const garbage = await notify({ event: 'payment.succeeded' });
    expect(garbage.status).toBe(422);
    expect(garbage.body).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('takes the refunded tokens back once on refund.succeeded and shows the payment refunded', async () => {
    const user = await createUser(t.app, { balance: 0 });
    const created = await pay(user, 'small', 'k-refund');
    const providerId = [...kassa.payments.values()].find((p) => p.metadata.payment_id === created.body.id)!.id;
    await notify(kassa.notification('payment.succeeded', kassa.succeed(providerId)));
    expect(await balanceOf(user)).toBe(500);
    const refund = kassa.refund(providerId);
    await notify(kassa.notification('refund.succeeded', refund));
    await notify(kassa.notification('refund.succeeded', refund));
    expect(await balanceOf(user)).toBe(0);
    const listed = await call(t.app, 'GET', `/api/v1/tokens/payments/${created.body.id}`, { token: user.token });
    expect(listed.body).toMatchObject({ status: 'refunded', refunded_rub: 990 });
    const history = await call(t.app, 'GET', '/api/v1/tokens/history', { token: user.token });
    expect(history.body.items.map((item: { type: string; amount: number }) => [item.type, item.amount])).toEqual([
      ['purchase_refund', -500],
      ['purchase', 500],
    ]);
  });

  it('answers 502 in Russian when YooKassa fails, and a retry with the same key creates the payment', async () => {
    const user = await createUser(t.app);
    kassa.failNextCreation(500);
    const failed = await pay(user, 'small', 'k-retry');
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ error: 'Платёжный сервис временно недоступен. Попробуйте позже', code: 'PAYMENT_PROVIDER_UNAVAILABLE' });
    const retried = await pay(user, 'small', 'k-retry');
    expect(retried.status).toBe(200);
    expect(retried.body.confirmation_url).toEqual(expect.any(String));
  });

  it("never shows one user's payment to another", async () => {
    const owner = await createUser(t.app);
    const stranger = await createUser(t.app);
    const created = await pay(owner, 'small', 'k-private');
    expect((await call(t.app, 'GET', `/api/v1/tokens/payments/${created.body.id}`, { token: stranger.token })).status).toBe(404);
    expect((await call(t.app, 'GET', '/api/v1/tokens/payments', { token: stranger.token })).body.items).toEqual([]);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyLedgerEntry } from '../../../server/tokens/ledger.js';
import { createTestApp, call, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const unknownKind = 'Неизвестный вид анализа: укажите scoring или semantic (проверка посадочных страниц и ИИ-план оплачиваются отдельно)';

/** Writes a ledger entry with a chosen timestamp (history filters work on dates). */
async function entry(user: FixtureUser, type: 'welcome' | 'analysis_debit' | 'admin_credit', amount: number, createdAt: string, key: string) {
  const result = await applyLedgerEntry(t.app.db, { userId: user.id, organizationId: user.organizationId, type, amount, idempotencyKey: key, reason: `r-${key}` });
  // created_at is never updated by the app (the column type forbids it); a test back-dates it by hand.
  await sql`update token_ledger set created_at = ${createdAt}::timestamptz where id = ${result.entry.id}`.execute(t.app.db);
  return result.entry.id;
}

describe('GET /api/v1/tokens/balance', () => {
  it("answers the caller's balance", async () => {
    const user = await createUser(t.app, { balance: 42 });
    const res = await call(t.app, 'GET', '/api/v1/tokens/balance', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ balance: 42 });
  });

  it('answers 401 without a token or with a bad one', async () => {
    expect((await call(t.app, 'GET', '/api/v1/tokens/balance')).status).toBe(401);
    const res = await call(t.app, 'GET', '/api/v1/tokens/balance', { token: 'not-a-jwt' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
  });
});

describe('GET /api/v1/tokens/history', () => {
  let user: FixtureUser;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    user = await createUser(t.app, { balance: 0 });
    ids.welcome = await entry(user, 'welcome', 100, '2025-01-01T09:00:00Z', 'w');
    ids.debit1 = await entry(user, 'analysis_debit', -10, '2025-01-15T10:00:00Z', 'd1');
    ids.credit = await entry(user, 'admin_credit', 50, '2025-01-31T23:30:00Z', 'c1');
    ids.debit2 = await entry(user, 'analysis_debit', -5, '2025-02-10T08:00:00Z', 'd2');
    // Someone else's entries never show up.
    const other = await createUser(t.app, { balance: 0 });
    await entry(other, 'welcome', 100, '2025-01-20T00:00:00Z', 'w');
  });

  it('lists only the caller’s entries, newest first, with the entry fields', async () => {
    const res = await call(t.app, 'GET', '/api/v1/tokens/history', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    expect(res.body.page).toBe(1);
    expect(res.body.page_size).toBe(20);
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([ids.debit2, ids.credit, ids.debit1, ids.welcome]);
    expect(res.body.items[0]).toEqual({
      id: ids.debit2,
      type: 'analysis_debit',
      amount: -5,
      balance_after: 135,
      reason: 'r-d2',
      reference_id: null,
      created_at: '2025-02-10T08:00:00.000Z',
    });
  });

  it('pages', async () => {
    const res = await call(t.app, 'GET', '/api/v1/tokens/history?page=2&page_size=3', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 4, page: 2, page_size: 3 });
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([ids.welcome]);
  });

  it('filters by type and by a date range whose end day is included', async () => {
    const byType = await call(t.app, 'GET', '/api/v1/tokens/history?type=analysis_debit', { token: user.token });
    expect(byType.body.items.map((i: { id: string }) => i.id)).toEqual([ids.debit2, ids.debit1]);
    expect(byType.body.total).toBe(2);

    const january = await call(t.app, 'GET', '/api/v1/tokens/history?from=2025-01-10&to=2025-01-31', { token: user.token });
    expect(january.body.items.map((i: { id: string }) => i.id)).toEqual([ids.credit, ids.debit1]);

    const both = await call(t.app, 'GET', '/api/v1/tokens/history?type=analysis_debit&from=2025-02-01T00:00:00Z', { token: user.token });
    expect(both.body.items.map((i: { id: string }) => i.id)).toEqual([ids.debit2]);
  });

  it('answers 422 with Russian messages for bad filters', async () => {
    const badType = await call(t.app, 'GET', '/api/v1/tokens/history?type=gift', { token: user.token });
    expect(badType.status).toBe(422);
    expect(badType.body).toEqual({ error: 'Неизвестный тип операции', code: 'VALIDATION_ERROR', detail: [{ loc: ['querystring', 'type'], msg: 'Неизвестный тип операции' }] });

    const badDate = await call(t.app, 'GET', '/api/v1/tokens/history?from=2025-02-30', { token: user.token });
    expect(badDate.status).toBe(422);
    expect(badDate.body.detail).toEqual([{ loc: ['querystring', 'from'], msg: 'Некорректная дата: используйте формат ГГГГ-ММ-ДД' }]);

    const reversed = await call(t.app, 'GET', '/api/v1/tokens/history?from=2025-03-01&to=2025-02-01', { token: user.token });
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail).toEqual([{ loc: ['querystring', 'to'], msg: 'Начало периода не может быть позже конца' }]);

    const page = await call(t.app, 'GET', '/api/v1/tokens/history?page=0', { token: user.token });
    expect(page.status).toBe(422);
    expect(page.body.detail).toEqual([{ loc: ['querystring', 'page'], msg: 'Номер страницы: целое число от 1' }]);
    const size = await call(t.app, 'GET', '/api/v1/tokens/history?page_size=abc', { token: user.token });
    expect(size.status).toBe(422);
    expect(size.body.detail).toEqual([{ loc: ['querystring', 'page_size'], msg: 'Размер страницы: целое число от 1 до 100' }]);
    expect((await call(t.app, 'GET', '/api/v1/tokens/history?page_size=101', { token: user.token })).status).toBe(422);
  });

  it('answers 401 without a token', async () => {
    expect((await call(t.app, 'GET', '/api/v1/tokens/history')).status).toBe(401);
  });
});

describe('POST /api/v1/tokens/calculate-cost', () => {
  it('prices the campaigns and says whether the balance covers it', async () => {
    const user = await createUser(t.app, { balance: 20 });
    const res = await call(t.app, 'POST', '/api/v1/tokens/calculate-cost', {
      token: user.token,
      // Scoring alone (without analysis_kinds the quote is a whole audit: see tests/server/input-hardening.test.ts).
      body: { campaigns: [{ id: 'c-1', name: 'Поиск', keywords_count: 250, ads_count: 60, groups_count: 4 }, { keywords_count: 10, ads_count: 2 }], analysis_kinds: ['scoring'] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total: 21,
      currency: 'tokens',
      balance: 20,
      sufficient: false,
      breakdown: [
        {
          index: 0,
          id: 'c-1',
          name: 'Поиск',
          cost: 13,
          items: [
            { label: 'Базовая стоимость кампании', amount: 5 },
            { label: 'Ключевые фразы: 250', amount: 6 },
            { label: 'Объявления: 60', amount: 2 },
          ],
        },
        {
          index: 1,
          cost: 8,
          items: [
            { label: 'Базовая стоимость кампании', amount: 5 },
            { label: 'Ключевые фразы: 10', amount: 2 },
            { label: 'Объявления: 2', amount: 1 },
          ],
        },
      ],
    });
  });

  it('adds the chosen analysis kinds', async () => {
    const user = await createUser(t.app, { balance: 100 });
    const res = await call(t.app, 'POST', '/api/v1/tokens/calculate-cost', {
      token: user.token,
      body: { campaigns: [{ keywords_count: 250, ads_count: 60 }], analysis_kinds: ['scoring', 'semantic'] },
    });
    expect(res.body).toMatchObject({ total: 20, sufficient: true, balance: 100 });
  });

  // The page check is charged per page and the AI plan a flat price, never per campaign: a quote with them
  // would be a price nothing charges, so an old client asking for them is told so instead of misled.
  it("refuses the kinds it does not charge per campaign ('relevance', 'ai') with a 422", async () => {
    const user = await createUser(t.app, { balance: 100 });
    for (const old of ['relevance', 'ai']) {
      const res = await call(t.app, 'POST', '/api/v1/tokens/calculate-cost', {
        token: user.token,
        body: { campaigns: [{ keywords_count: 250, ads_count: 60 }], analysis_kinds: ['scoring', old] },
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: unknownKind, code: 'VALIDATION_ERROR', detail: [{ loc: ['body', 'analysis_kinds', 1], msg: unknownKind }] });
    }
  });

  it('documents only the kinds it prices in the OpenAPI document', async () => {
    const docs = await call(t.app, 'GET', '/api/docs/json');
    const body = docs.body.paths['/api/v1/tokens/calculate-cost'].post.requestBody.content['application/json'].schema;
    expect(body.properties.analysis_kinds.items.enum).toEqual(['scoring', 'semantic']);
  });

  it('answers 422 in the spec format for bad input', async () => {
    const user = await createUser(t.app);
    const empty = await call(t.app, 'POST', '/api/v1/tokens/calculate-cost', { token: user.token, body: { campaigns: [] } });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({ error: 'Выберите хотя бы одну кампанию', code: 'VALIDATION_ERROR', detail: [{ loc: ['body', 'campaigns'], msg: 'Выберите хотя бы одну кампанию' }] });

    const negative = await call(t.app, 'POST', '/api/v1/tokens/calculate-cost', { token: user.token, body: { campaigns: [{ keywords_count: -1, ads_count: 1.5 }] } });
    expect(negative.status).toBe(422);
    expect(negative.body.detail).toEqual([
      { loc: ['body', 'campaigns', 0, 'keywords_count'], msg: 'Количество должно быть целым неотрицательным числом' },
      { loc: ['body', 'campaigns', 0, 'ads_count'], msg: 'Количество должно быть целым неотрицательным числом' },
    ]);

    const kind = await call(t.app, 'POST', '/api/v1/tokens/calculate-cost', { token: user.token, body: { campaigns: [{ keywords_count: 1, ads_count: 1 }], analysis_kinds: ['magic'] } });
    expect(kind.status).toBe(422);
    expect(kind.body.detail).toEqual([{ loc: ['body', 'analysis_kinds', 0], msg: unknownKind }]);

    const missing = await call(t.app, 'POST', '/api/v1/tokens/calculate-cost', { token: user.token, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toBe('Выберите хотя бы одну кампанию');

    const noCounts = await call(t.app, 'POST', '/api/v1/tokens/calculate-cost', { token: user.token, body: { campaigns: [{ name: 'Без чисел' }] } });
    expect(noCounts.status).toBe(422);
    expect(noCounts.body.detail[0]).toEqual({ loc: ['body', 'campaigns', 0, 'keywords_count'], msg: 'Укажите для каждой кампании keywords_count и ads_count' });
  });

  it('answers 401 without a token', async () => {
    const res = await call(t.app, 'POST', '/api/v1/tokens/calculate-cost', { body: { campaigns: [{ keywords_count: 1, ads_count: 1 }] } });
    expect(res.status).toBe(401);
  });
});

describe('POST /api/v1/admin/tokens/credit', () => {
  let admin: FixtureUser;
  beforeAll(async () => {
    admin = await createUser(t.app, { role: 'admin' });
  });

  it('credits a user by id, writes the ledger entry and an audit-log row', async () => {
    const target = await createUser(t.app, { balance: 7 });
    const res = await call(t.app, 'POST', '/api/v1/admin/tokens/credit', { token: admin.token, body: { user_id: target.id, amount: 50, reason: 'Компенсация за сбой' } });
    expect(res.status).toBe(200);
    expect(res.body.balance).toBe(57);
    expect(res.body.entry).toMatchObject({ type: 'admin_credit', amount: 50, balance_after: 57, reason: 'Компенсация за сбой', reference_id: null });

    const balance = await call(t.app, 'GET', '/api/v1/tokens/balance', { token: target.token });
    expect(balance.body).toEqual({ balance: 57 });
    const history = await call(t.app, 'GET', '/api/v1/tokens/history', { token: target.token });
    expect(history.body.items[0]).toMatchObject({ id: res.body.entry.id, type: 'admin_credit' });

    const audit = await t.app.db.selectFrom('audit_log').selectAll().where('target_user_id', '=', target.id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_user_id: admin.id, action: 'tokens.admin_credit' });
    expect(audit[0].payload).toMatchObject({ amount: 50, reason: 'Компенсация за сбой', entry_id: res.body.entry.id, source: 'api' });
  });

  it('credits by email, case-insensitively', async () => {
    const target = await createUser(t.app, { balance: 0, email: 'Credit.Me@Example.test' });
    const res = await call(t.app, 'POST', '/api/v1/admin/tokens/credit', { token: admin.token, body: { email: 'credit.me@example.test', amount: 5, reason: 'Бонус' } });
    expect(res.status).toBe(200);
    expect(res.body.balance).toBe(5);
    expect(res.body.entry.id).toBeTruthy();
    const stored = await t.app.db.selectFrom('token_ledger').select('user_id').where('id', '=', res.body.entry.id).executeTakeFirstOrThrow();
    expect(stored.user_id).toBe(target.id);
  });

  it('credits once per idempotency key, with one audit row', async () => {
    const target = await createUser(t.app, { balance: 0 });
    const body = { user_id: target.id, amount: 30, reason: 'Оплата по счёту 17', idempotency_key: 'invoice-17' };
    const results = await Promise.all(Array.from({ length: 5 }, () => call(t.app, 'POST', '/api/v1/admin/tokens/credit', { token: admin.token, body })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.entry.id)).size).toBe(1);
    expect((await call(t.app, 'GET', '/api/v1/tokens/balance', { token: target.token })).body).toEqual({ balance: 30 });
    const audit = await t.app.db.selectFrom('audit_log').select('id').where('target_user_id', '=', target.id).execute();
    expect(audit).toHaveLength(1);

    const changed = await call(t.app, 'POST', '/api/v1/admin/tokens/credit', { token: admin.token, body: { ...body, amount: 31 } });
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('answers 404 for an unknown user', async () => {
    const res = await call(t.app, 'POST', '/api/v1/admin/tokens/credit', { token: admin.token, body: { user_id: '00000000-0000-4000-8000-000000000000', amount: 5, reason: 'Бонус' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Пользователь не найден', code: 'USER_NOT_FOUND' });
  });

  it('answers 422 in the spec format for bad input', async () => {
    const target = await createUser(t.app);
    const noReason = await call(t.app, 'POST', '/api/v1/admin/tokens/credit', { token: admin.token, body: { user_id: target.id, amount: 0, reason: '  ' } });
    expect(noReason.status).toBe(422);
    expect(noReason.body.detail).toEqual([
      { loc: ['body', 'amount'], msg: 'Сумма начисления должна быть целым положительным числом' },
      { loc: ['body', 'reason'], msg: 'Укажите причину начисления' },
    ]);
    const both = await call(t.app, 'POST', '/api/v1/admin/tokens/credit', { token: admin.token, body: { user_id: target.id, email: target.email, amount: 1, reason: 'x' } });
    expect(both.status).toBe(422);
    expect(both.body.error).toBe('Укажите получателя: user_id или email');
    const none = await call(t.app, 'POST', '/api/v1/admin/tokens/credit', { token: admin.token, body: { amount: 1, reason: 'x' } });
    expect(none.status).toBe(422);
    expect(none.body.error).toBe('Укажите получателя: user_id или email');
    const missing = await call(t.app, 'POST', '/api/v1/admin/tokens/credit', { token: admin.token, body: { user_id: target.id } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([
      { loc: ['body', 'amount'], msg: 'Укажите сумму и причину начисления' },
      { loc: ['body', 'reason'], msg: 'Укажите сумму и причину начисления' },
    ]);
  });

  it('is for platform admins only: an organization owner gets 403, a guest 401', async () => {
    const owner = await createUser(t.app, { organizationRole: 'owner' });
    const body = { user_id: owner.id, amount: 1000, reason: 'Себе' };
    const res = await call(t.app, 'POST', '/api/v1/admin/tokens/credit', { token: owner.token, body });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Недостаточно прав', code: 'FORBIDDEN' });
    expect((await call(t.app, 'GET', '/api/v1/tokens/balance', { token: owner.token })).body).toEqual({ balance: 0 });
    expect((await call(t.app, 'POST', '/api/v1/admin/tokens/credit', { body })).status).toBe(401);
  });
});

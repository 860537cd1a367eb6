import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, quotedCost } from '../analysis/helpers.js';
import { call, type TestApp } from '../helpers/app.js';
import type { FixtureUser } from '../helpers/fixtures.js';
import { paidRunSetting } from './helpers.js';

/**
 * A paid start charges only the price the person saw: the screen sends it as `expected_cost`, and a
 * start priced otherwise is refused with a Russian 409 that names both prices, creating and charging
 * nothing. The same start with the price shown now goes through and charges exactly that.
 */
describe('paid starts charge only the confirmed price', () => {
  let t: TestApp;
  let user: FixtureUser;
  let projectId: string;
  let campaignIds: string[];
  let auditPrice: number;
  let auditId: string;

  beforeAll(async () => {
    const setting = await paidRunSetting();
    ({ t, user, projectId, campaignIds, auditId } = setting);
    auditPrice = await quotedCost(t.app, user.token, setting.campaigns);
  });
  afterAll(async () => t?.close());

  const kinds = [
    {
      name: 'audit',
      table: 'analyses' as const,
      price: () => auditPrice,
      start: (body: Record<string, unknown>) => call(t.app, 'POST', `/api/v1/projects/${projectId}/analyses`, { token: user.token, body: { campaign_ids: campaignIds, ...body } }),
      runOf: (body: Record<string, any>) => body.analysis,
    },
    {
      name: 'page check',
      table: 'page_checks' as const,
      price: () => 2,
      start: (body: Record<string, unknown>) => call(t.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: user.token, body: { urls: ['https://example.com/okna', 'https://example.com/dveri'], ...body } }),
      runOf: (body: Record<string, any>) => body.analysis,
    },
    {
      name: 'AI plan',
      table: 'ai_plans' as const,
      price: () => 10,
      start: (body: Record<string, unknown>) => call(t.app, 'POST', `/api/v1/analyses/${auditId}/ai-plans`, { token: user.token, body }),
      runOf: (body: Record<string, any>) => body.ai_plan,
    },
  ];

  it.each(kinds)('$name: a price other than the one shown is refused with 409 and charges nothing', async (kind) => {
    const before = await balanceOf(t.app, user.id);
    const runsBefore = await t.app.db.selectFrom(kind.table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const shown = kind.price() + 3;

    const refused = await kind.start({ idempotency_key: randomUUID(), expected_cost: shown });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'PRICE_CHANGED', expected_cost: shown, cost: kind.price() });
    expect(refused.body.error).toContain(`вы видели ${shown} токен`);
    expect(refused.body.error).toContain('Токены не списаны');
    expect(refused.body.detail[0].loc).toEqual(['body', 'expected_cost']);
    expect(await balanceOf(t.app, user.id)).toBe(before);
    const runsAfter = await t.app.db.selectFrom(kind.table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(runsAfter.n).toBe(runsBefore.n);

    const confirmed = await kind.start({ idempotency_key: randomUUID(), expected_cost: kind.price() });
    expect(confirmed.status).toBe(201);
    expect(kind.runOf(confirmed.body).cost).toBe(kind.price());
    expect(await balanceOf(t.app, user.id)).toBe(before - kind.price());
  });

  it('a shown price that is not a whole number of tokens is a Russian 422', async () => {
    const response = await kinds[1].start({ idempotency_key: randomUUID(), expected_cost: -1 });
    expect(response.status).toBe(422);
    expect(response.body.error).toContain('Показанная цена');
  });
});

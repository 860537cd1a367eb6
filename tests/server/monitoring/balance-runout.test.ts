import { describe, expect, it } from 'vitest';
import { balanceRunouts, type RunoutCampaign } from '../../../server/engines/monitoring/balance-runout.js';

const shared = (name: string, cost: number | null, balance = 1_800, state?: string): RunoutCampaign => ({
  name,
  externalId: name,
  ...(state ? { state } : {}),
  funds: { mode: 'shared_account', balance, accountId: '77' },
  cost,
});

describe('balanceRunouts (when the money of an account runs out)', () => {
  it('a shared account spent by two campaigns at 900 ₽ a day with 1 800 ₽ left lasts 2 days', () => {
    // 30 days: 18 000 + 9 000 = 27 000 ₽ → 900 ₽ a day.
    const [runout, ...rest] = balanceRunouts([shared('Поиск', 18_000), shared('Сети', 9_000)], 30, 3);
    expect(rest).toEqual([]);
    expect(runout).toEqual({ source: 'shared_account', key: '77', campaignName: 'Поиск', campaigns: 2, balance: 1_800, dailySpend: 900, daysLeft: 2 });
  });

  it('the same account with a month of money is not told', () => {
    expect(balanceRunouts([shared('Поиск', 18_000, 27_000), shared('Сети', 9_000, 27_000)], 30, 3)).toEqual([]);
  });

  it('the rule’s days are the limit, inclusive: 3 days left is told at N = 3, not at N = 2', () => {
    const campaigns = [shared('Поиск', 30_000, 3_000)]; // 1 000 ₽ a day
    expect(balanceRunouts(campaigns, 30, 3).map((r) => r.daysLeft)).toEqual([3]);
    expect(balanceRunouts(campaigns, 30, 2)).toEqual([]);
  });

  it('a stopped campaign spends nothing from now on: its cost is not in the pace', () => {
    // On: 9 000 / 30 = 300 ₽ a day, 1 800 ₽ last 6 days; the suspended one's 18 000 would make it 2.
    expect(balanceRunouts([shared('Поиск', 18_000, 1_800, 'suspended'), shared('Сети', 9_000)], 30, 3)).toEqual([]);
    expect(balanceRunouts([shared('Поиск', 18_000, 1_800, 'suspended'), shared('Сети', 9_000)], 30, 7)[0]).toMatchObject({ campaigns: 1, dailySpend: 300, daysLeft: 6 });
  });

  it('a campaign with its own balance is forecast alone, the soonest first', () => {
    const own = (name: string, cost: number, balance: number): RunoutCampaign => ({ name, externalId: name, funds: { mode: 'campaign', balance }, cost });
    const found = balanceRunouts([own('Бренд', 3_000, 250), own('Окна', 30_000, 1_000), own('Двери', 3_000, 5_000)], 30, 3);
    expect(found.map((r) => [r.source, r.campaignName, r.daysLeft])).toEqual([
      ['campaign', 'Окна', 1],
      ['campaign', 'Бренд', 2],
    ]);
  });

  it('no money left while a campaign is on: told as out (0 days) even without spend in the period', () => {
    expect(balanceRunouts([shared('Поиск', 0, 0)], 30, 3)).toEqual([expect.objectContaining({ balance: 0, daysLeft: 0 })]);
  });

  it('no forecast without a pace or a period, or without a balance read', () => {
    expect(balanceRunouts([shared('Поиск', 0, 500)], 30, 3)).toEqual([]);
    expect(balanceRunouts([shared('Поиск', null, 500)], 30, 3)).toEqual([]);
    expect(balanceRunouts([shared('Поиск', 18_000, 500)], null, 3)).toEqual([]);
    expect(balanceRunouts([{ name: 'Поиск', funds: { mode: 'shared_account' }, cost: 18_000 }], 30, 3)).toEqual([]);
  });
});

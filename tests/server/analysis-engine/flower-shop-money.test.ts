/**
 * Issue 28, «the headline mixes kinds of money», on a known account (tests/fixtures/analysis/flower-shop.ts):
 * money lost (spend that brought nothing) apart from money that could be saved (conversions dearer than
 * the target), never overlapping, no 0 ₽ causes, and the account's score beside the loss.
 */
import { describe, expect, it } from 'vitest';
import { moneyCauseKinds, moneyCauseLabel, readMoneyStory, type StoredMoneyStory } from '../../../contract/analysis-results.js';
import { campaign, group, kw, ad, query, stats, yandex } from '../../fixtures/analysis/builders.js';
import { flowerShop, flowerShopSettings } from '../../fixtures/analysis/flower-shop.js';
import { analyse } from './helpers.js';

describe('the flower shop\'s money: lost apart from what could be saved', () => {
  it('counts as lost only the spend that brought nothing, and the conversions dearer than the target apart', async () => {
    const { money } = await analyse(flowerShop(), flowerShopSettings);
    // Lost: «розы доставка» 5 000 (stop) + «Тюльпаны» 1 500 (no conversion at all) + «розы вакансии» 700 (a
    // non-target query of «розы», which is not lost itself) = 7 200 ₽ a month (30 days of statistics).
    // Before the split the headline said 21 200 ₽, the 14 000 ₽ excess over the target included.
    expect(money).toMatchObject({ perMonth: 7200, period: 7200 });
    expect(money.causes.filter((cause) => moneyCauseKinds[cause.cause] === 'lost').map((cause) => [cause.cause, cause.perMonth])).toEqual([
      ['wasted_keywords', 6500],
      ['non_target_queries', 700],
    ]);
    // To save: «розы» 9 000 − 3 × 1 000 − its 700 ₽ query already counted as lost = 5 300; «букеты цветов»
    // 12 000 − 4 × 1 000 = 8 000. Named for what it is, not «Переплата за клик».
    expect(money.saving).toEqual({ perMonth: 13300, period: 13300, reference: 'target' });
    const saving = money.causes.find((cause) => moneyCauseKinds[cause.cause] === 'saving')!;
    expect(moneyCauseLabel(saving.cause, money)).toBe('Конверсии дороже целевой цены');
    // Spend 9 000 + 4 000 + 5 000 + 600 + 12 000 + 1 500: the loss is 20 % of it.
    expect(money.spendPerMonth).toBe(32100);
  });

  it('never counts a keyword\'s money twice: lost and to save together stay within each keyword\'s cost', async () => {
    const { money } = await analyse(flowerShop(), flowerShopSettings);
    // «розы»: 9 000 ₽ cost = 3 000 of its conversions at the target + 700 of its non-target query (lost) + 5 300 to save.
    const { money: today } = await analyse(flowerShop(), flowerShopSettings);
    const roses = 700 + 5300 + 3 * 1000;
    expect(roses).toBe(9000);
    // Lost 7 200 + to save 13 300: 5 000 + 1 500 (lost keywords) + 9 000 − 3 000 («розы») + 8 000 («букеты цветов»).
    expect(money.perMonth + money.saving.perMonth).toBe(5000 + 1500 + (roses - 3000) + 8000);
    expect(today).toEqual(money);
  });

  it('gives no cause whose money rounds to 0 ₽ a month', async () => {
    const tiny = yandex(
      [campaign('Цветы', [group('Розы', [kw('розы купить', { stats: stats(1000, 40, 4000, 4) })], [ad('Розы купить')])])],
      // A non-target query of 0,30 ₽: «Нецелевые запросы 0 ₽ · 1 место» said nothing.
      [query('розы купить вакансии', stats(60, 6, 0.3), { campaignName: 'Цветы', groupName: 'Розы', keyword: 'розы купить' })],
      { period: { from: '2026-10-01', to: '2026-10-30' } },
    );
    const { money, semantic } = await analyse(tiny, { targetCpa: 1000 });
    expect(semantic.nonTargetQueries).toMatchObject({ queries: 1, cost: 0.3 });
    expect(money.causes).toEqual([]);
    expect(money.perMonth).toBe(0.0);
  });

  it('caps the account\'s score by the share of the spend lost', async () => {
    // Half of the spend brings nothing: the score cannot read better than 50 whatever the checks' weights.
    const half = yandex(
      [
        campaign('Цветы', [
          group('Розы', [kw('розы купить', { stats: stats(1000, 40, 3000, 3) }), kw('розы доставка', { stats: stats(1000, 40, 3000, 0) })], [ad('Розы купить доставка')]),
        ]),
      ],
      [],
      { period: { from: '2026-10-01', to: '2026-10-30' } },
    );
    const { money, scoring } = await analyse(half, { targetCpa: 1000 });
    expect(money).toMatchObject({ perMonth: 3000, spendPerMonth: 6000 });
    expect(scoring.account.score).toBe(50);
  });

  it('reads a story stored before the split in today\'s meaning: the headline without the saving causes', () => {
    const stored: StoredMoneyStory = {
      perMonth: 29100,
      period: 29100,
      causes: [
        { cause: 'wasted_keywords', perMonth: 17200, period: 17200, count: 5, list: { kind: 'findings', checks: ['keyword.action_stop'] } },
        { cause: 'overpaid_clicks', perMonth: 11900, period: 11900, count: 2, list: { kind: 'findings', checks: ['keyword.action_lower_bid'] } },
      ],
    };
    expect(readMoneyStory(stored, 1000)).toMatchObject({ perMonth: 17200, period: 17200, saving: { perMonth: 11900, period: 11900, reference: 'target' }, spendPerMonth: null });
    expect(readMoneyStory(stored, null).saving.reference).toBe('account');
  });
});

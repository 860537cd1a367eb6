import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { NonTargetQueriesSchema } from '../../../contract/analysis-results.js';
import { summarizeNonTargetQueries } from '../../../server/engines/semantic/non-target-queries.js';
import { ad, campaign, group, kw, query, stats, yandex } from '../../fixtures/analysis/builders.js';
import { analyse } from './helpers.js';

/** One campaign of a Moscow window seller, a 15-day report (money per month = × 2). */
const data = yandex(
  [campaign('Окна', [group('Окна', [kw('купить окна'), kw('окна пвх')], [ad('Купить окна ПВХ')], { region: 'Москва' })], { negativeKeywords: [] })],
  [
    // Blocked by two suggestions at once (вакансии and спб): one row, 90 ₽, counted once.
    query('вакансии монтажник окон спб', stats(60, 3, 90), { campaignName: 'Окна' }),
    query('вакансии окна', stats(40, 2, 40), { campaignName: 'Окна' }),
    query('окна пвх спб', stats(50, 4, 100), { campaignName: 'Окна' }),
    // скачать (free) and чертеж (informational) both block it: 20 ₽ once.
    query('скачать чертеж окна', stats(30, 1, 20), { campaignName: 'Окна' }),
    // Group phrase: no category, 0 conversions, 12 clicks ≥ 5.
    query('окна пвх rehau', stats(80, 12, 600), { campaignName: 'Окна', groupName: 'Окна' }),
    // Not counted: «отзывы» is check-by-hand, veka has too few clicks (collect data), «бесплатно» is
    // dropped because it would block the converting query, and converting queries are never counted.
    query('окна пвх отзывы', stats(80, 4, 120), { campaignName: 'Окна' }),
    query('окна пвх veka', stats(80, 4, 200), { campaignName: 'Окна', groupName: 'Окна' }),
    query('окна бесплатно', stats(100, 6, 300), { campaignName: 'Окна' }),
    query('купить окна бесплатная доставка', stats(100, 20, 2000, 3), { campaignName: 'Окна' }),
    query('купить окна пвх', stats(100, 20, 1000, 2), { campaignName: 'Окна', groupName: 'Окна' }),
  ],
  { period: { from: '2024-03-01', to: '2024-03-15' } },
);

describe('cost of the non-target queries the automatic negatives would block', () => {
  it('counts every blocked query without conversions once, leaves out check-by-hand, collect-data and converting queries', async () => {
    const { semantic } = await analyse(data);
    const byText = new Map(semantic.negatives.map((item) => [item.text, item]));
    // The suggestions themselves overlap: their costs add up to 960 ₽ for 850 ₽ of queries.
    expect(['вакансии', 'спб', 'скачать', 'чертеж', 'окна пвх rehau'].map((text) => [text, byText.get(text)?.status, byText.get(text)?.cost])).toEqual([
      ['вакансии', 'ready', 130],
      ['спб', 'ready', 190],
      ['скачать', 'ready', 20],
      ['чертеж', 'ready', 20],
      ['окна пвх rehau', 'ready', 600],
    ]);
    expect(byText.get('отзывы')).toMatchObject({ status: 'check_by_hand', cost: 120 });
    expect(byText.has('бесплатно')).toBe(false);

    const summary = v.parse(NonTargetQueriesSchema, semantic.nonTargetQueries);
    // 90 + 40 + 100 + 20 + 600 = 850 ₽ over 15 days; 3 + 2 + 4 + 1 + 12 = 22 clicks.
    expect(summary).toMatchObject({ queries: 5, clicks: 22, cost: 850, costPerMonth: 1700, period: { from: '2024-03-01', to: '2024-03-15' }, periodDays: 15, monthFactor: 2 });

    const id = (text: string) => byText.get(text)!.id;
    const entries = summary.blockedBy.map((entry) => ({ ...entry, suggestionIds: [...entry.suggestionIds].sort() }));
    expect(entries).toEqual([
      { suggestionIds: [id('окна пвх rehau')], queries: 1, clicks: 12, cost: 600 },
      { suggestionIds: [id('спб')], queries: 1, clicks: 4, cost: 100 },
      { suggestionIds: [id('вакансии'), id('спб')].sort(), queries: 1, clicks: 3, cost: 90 },
      { suggestionIds: [id('вакансии')], queries: 1, clicks: 2, cost: 40 },
      { suggestionIds: [id('скачать'), id('чертеж')].sort(), queries: 1, clicks: 1, cost: 20 },
    ]);
    // Every row sits in exactly one entry: the entries add up to the total.
    expect(summary.blockedBy.reduce((sum, entry) => sum + entry.cost, 0)).toBe(summary.cost);
    expect(summary.blockedBy.some((entry) => entry.suggestionIds.includes(id('отзывы')))).toBe(false);
  });

  it('is zero, not absent, when the report has nothing to block', async () => {
    const clean = yandex([campaign('Окна', [group('Окна', [kw('окна пвх')], [ad('Окна ПВХ')])])], [query('окна пвх', stats(100, 10, 500, 1), { campaignName: 'Окна' })]);
    const { semantic } = await analyse(clean);
    expect(semantic.nonTargetQueries).toEqual({ queries: 0, clicks: 0, cost: 0, costPerMonth: 0, period: null, periodDays: 30, monthFactor: 1, blockedBy: [] });
  });

  it('never counts a converting row, even if a suggestion listed one, and counts a row listed twice by one suggestion once', () => {
    const wasted = query('окна бесплатно', stats(100, 6, 300));
    const converting = query('окна бесплатно с доставкой', stats(100, 6, 500, 1));
    const summary = summarizeNonTargetQueries([{ suggestionId: 'neg:c0|бесплатно', queries: [wasted, converting, wasted] }], { period: null, periodDays: 30, monthFactor: 1 });
    expect(summary).toMatchObject({ queries: 1, clicks: 6, cost: 300, costPerMonth: 300, blockedBy: [{ suggestionIds: ['neg:c0|бесплатно'], queries: 1, clicks: 6, cost: 300 }] });
  });
});

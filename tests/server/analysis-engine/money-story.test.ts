import { describe, expect, it } from 'vitest';
import { moneyCauseKinds, type MoneyStory } from '../../../contract/analysis-results.js';
import { summarizeAudit } from '../../../server/analysis/run-audit.js';
import { ad, campaign, group, kw, query, stats, yandex } from '../../fixtures/analysis/builders.js';
import { analyse } from './helpers.js';

/** 15 days of statistics: money per month = the period's × 2. Target CPA 1000 ₽. */
const period = { from: '2024-03-01', to: '2024-03-15' };
const settings = { targetCpa: 1000 };

const data = yandex(
  [
    campaign('Хорошая', [
      group('А', [
        kw('окна пвх', { stats: stats(1000, 50, 5000, 5) }), // CPA 1000: fine
        kw('окна пвх цена', { stats: stats(1000, 40, 6000, 2) }), // CPA 3000 ≥ 1.5 × 1000 → lower bid, excess 6000 − 2 × 1000 = 4000
        kw('окна дешево', { stats: stats(1000, 40, 3000, 0) }), // 0 conversions, 3000 ≥ 2 × 1000 → stop
      ], [ad('Окна ПВХ')]),
    ]),
    // No conversions at all: «Расход без конверсий», its keyword (1500 < 2000: no stop) an item.
    campaign('Пустая', [group('Б', [kw('двери входные', { stats: stats(1000, 40, 1500, 0) })], [ad('Двери входные')])]),
  ],
  [
    // Of the stop keyword: its cost is inside the keyword's 3000, not counted again.
    query('окна дешево вакансии', stats(50, 6, 700), { campaignName: 'Хорошая', groupName: 'А', keyword: 'окна дешево' }),
    // Of the lower-bid keyword: counted, and its 500 come off what that keyword can be overpaying.
    query('окна пвх цена вакансии', stats(50, 6, 500), { campaignName: 'Хорошая', groupName: 'А', keyword: 'окна пвх цена' }),
    // Of the zero-conversion campaign: all its spend is already counted.
    query('двери входные вакансии', stats(50, 6, 300), { campaignName: 'Пустая', groupName: 'Б', keyword: 'двери входные' }),
    // No keyword column: its group still has spend not counted as wasted, so it counts.
    query('окна вакансии', stats(50, 6, 200), { campaignName: 'Хорошая', groupName: 'А' }),
  ],
  { period },
);

const cause = (story: MoneyStory, name: string) => story.causes.find((item) => item.cause === name);

describe('the money story: one figure, its causes add up, no rouble counted twice', () => {
  it('splits the loss into wasted keywords, non-target queries outside them and the CPA excess', async () => {
    const { money, semantic, scoring } = await analyse(data, settings);
    // The negatives block 700 + 500 + 300 + 200 = 1 700 ₽ of queries (each once)…
    expect(semantic.nonTargetQueries).toMatchObject({ queries: 4, cost: 1700 });
    expect(scoring.keywordVerdicts.map((verdict) => [verdict.target.label, verdict.action])).toEqual(
      expect.arrayContaining([
        ['окна пвх цена', 'lower_bid'],
        ['окна дешево', 'stop'],
        ['двери входные', 'hold'],
      ]),
    );
    // …but 700 are inside the stop keyword and 300 inside the zero-conversion campaign.
    expect(money.causes).toEqual([
      { cause: 'wasted_keywords', period: 4500, perMonth: 9000, count: 2, list: { kind: 'findings', checks: ['keyword.action_stop', 'stats.wasted_spend'] } },
      { cause: 'overpaid_clicks', period: 3500, perMonth: 7000, count: 1, list: { kind: 'findings', checks: ['keyword.action_lower_bid'] } },
      { cause: 'non_target_queries', period: 700, perMonth: 1400, count: 2, list: { kind: 'suggestions', suggestionKind: 'negative_keyword' } },
    ]);
    // Lost: 3000 (stop) + 1500 (campaign) + 500 + 200 (queries) = 5 200 ₽, × 2 a month; the 4000 excess less
    // its keyword's 500 of queries (lost) bought conversions: money to save, apart, never in the headline.
    expect(money).toMatchObject({ period: 5200, perMonth: 10400, saving: { period: 3500, perMonth: 7000, reference: 'target' } });
  });

  it('the lost causes add up to the headline, the saving ones to the money to save', async () => {
    const { money } = await analyse(data, settings);
    const of = (kind: string) => money.causes.filter((item) => moneyCauseKinds[item.cause] === kind);
    expect(of('lost').map((item) => item.cause)).toEqual(['wasted_keywords', 'non_target_queries']);
    expect(of('lost').reduce((sum, item) => sum + item.perMonth, 0)).toBeCloseTo(money.perMonth, 2);
    expect(of('lost').reduce((sum, item) => sum + item.period, 0)).toBeCloseTo(money.period, 2);
    expect(of('saving').reduce((sum, item) => sum + item.perMonth, 0)).toBeCloseTo(money.saving.perMonth, 2);
  });

  it('the wasted cause is exactly the money of the findings its list shows', async () => {
    const { money, scoring } = await analyse(data, settings);
    const wasted = cause(money, 'wasted_keywords')!;
    const listed = scoring.findings.filter((finding) => wasted.list.checks!.includes(finding.checkId));
    expect(listed.reduce((sum, finding) => sum + (finding.moneyPerMonth ?? 0), 0)).toBe(wasted.perMonth);
    expect(listed.reduce((sum, finding) => sum + (finding.count ?? 1), 0)).toBe(wasted.count);
  });

  it('a stop keyword is never also overpaying, and a keyword\'s queries are never also its excess', async () => {
    // One keyword, CPA 1000 against a target of 100: excess 900 of its 1000 ₽; its non-target queries cost 600.
    const one = yandex(
      [campaign('Окна', [group('А', [kw('окна пвх', { stats: stats(1000, 40, 1000, 1) })], [ad('Окна ПВХ')])])],
      [query('окна пвх вакансии', stats(50, 6, 600), { campaignName: 'Окна', groupName: 'А', keyword: 'окна пвх' })],
      { period: { from: '2024-01-01', to: '2024-01-30' } },
    );
    const { money, scoring } = await analyse(one, { targetCpa: 100 });
    expect(scoring.findings.find((finding) => finding.checkId === 'keyword.action_lower_bid')).toMatchObject({ money: 900 });
    expect(cause(money, 'non_target_queries')).toMatchObject({ period: 600 });
    // The 900 excess holds the 600 of queries (lost): 300 left to save, so lost, to save and the one conversion at
    // the target add up to the keyword's 1000 ₽, not 1500 (or 1100 when the queries were counted in both).
    expect(cause(money, 'overpaid_clicks')).toMatchObject({ period: 300, count: 1 });
    expect(money.period).toBe(600);
    expect(money.saving.period).toBe(300);

    const { money: stopped } = await analyse(data, settings);
    // «окна дешево» is a stop keyword: in wasted_keywords only; the one overpaying keyword is «окна пвх цена».
    expect(cause(stopped, 'overpaid_clicks')!.count).toBe(1);
  });

  it('has no causes without conversions and queries, and leaves out what the data cannot tell (placements, pages)', async () => {
    const bare = yandex([campaign('Окна', [group('А', [kw('окна пвх', { stats: stats(1000, 50, 5000, 0) })], [ad('Окна ПВХ')])])]);
    const { money } = await analyse(bare);
    expect(money).toMatchObject({ perMonth: 0, period: 0, saving: { perMonth: 0, period: 0 }, causes: [] });
    const { money: full } = await analyse(data, settings);
    expect(full.causes.map((item) => item.cause)).not.toContain('network_placements');
    expect(full.causes.map((item) => item.cause)).not.toContain('broken_pages');
  });

  it('is in the stored summary, the same object as the result\'s', async () => {
    const result = await analyse(data, settings);
    expect(summarizeAudit(result).money).toEqual(result.money);
  });
});

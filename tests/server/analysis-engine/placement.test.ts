/**
 * Placement per campaign (search / networks / both) and the CPA reference of bid advice, on small
 * hand-written accounts. Every expected figure is worked out in the comments.
 */
import { describe, expect, it } from 'vitest';
import type { Finding, KeywordVerdict } from '../../../contract/analysis-results.js';
import type { CampaignData } from '../../../contract/campaigns.js';
import { campaignPlacement, placementOfLabel, placementOfName, placementOfType } from '../../../server/engines/placement.js';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { ad, campaign, group, kw, stats, yandex } from '../../fixtures/analysis/builders.js';
import { textFile } from '../importers/helpers.js';
import { analyse, prepared } from './helpers.js';

const of = (findings: Finding[], checkId: string) => findings.filter((finding) => finding.checkId === checkId);
/** Labels of the keywords a check fired on: its own findings and the items of aggregated ones. */
const labels = (findings: Finding[], checkId: string) =>
  of(findings, checkId)
    .flatMap((finding) => (finding.items ? finding.items.map((item) => item.target.label) : [finding.target.label]))
    .sort();
const actionsOf = (verdicts: KeywordVerdict[]) => Object.fromEntries(verdicts.map((verdict) => [verdict.target.label, verdict.action]));

describe('placement of a campaign', () => {
  it('reads report and setting labels of both platforms, in both languages', () => {
    expect(placementOfLabel('Поиск')).toBe('search');
    expect(placementOfLabel('Сети')).toBe('networks');
    expect(placementOfLabel('SEARCH')).toBe('search');
    expect(placementOfLabel('AD_NETWORK')).toBe('networks');
    expect(placementOfLabel('Google search')).toBe('search');
    expect(placementOfLabel('Search partners')).toBe('search');
    expect(placementOfLabel('Search Network')).toBe('search');
    expect(placementOfLabel('Display Network')).toBe('networks');
    expect(placementOfLabel('Поисковая сеть Google')).toBe('search');
    expect(placementOfLabel('Контекстно-медийная сеть')).toBe('networks');
    expect(placementOfLabel('Google search;Search Partners;Display Network')).toBe('both');
    expect(placementOfLabel('Cross-network')).toBe('both');
    // A site name in «Площадка» names no placement: the row stays unsplit.
    expect(placementOfLabel('avito.ru')).toBeNull();
  });

  it('takes the type when it names a placement; text and unified types say nothing', () => {
    expect(placementOfType('search')).toBe('search');
    expect(placementOfType('display')).toBe('networks');
    expect(placementOfType('cpm_banner')).toBe('networks');
    expect(placementOfType('smart')).toBe('networks');
    expect(placementOfType('dynamic_text')).toBe('search');
    expect(placementOfType('search network with display select')).toBe('both');
    expect(placementOfType('текстово-графическое объявление')).toBeNull();
    expect(placementOfType('text')).toBeNull();
    expect(placementOfType('unified')).toBeNull();
  });

  it('reads the name as a hint: РСЯ, сети, YAN, КМС, network, display, GDN; поиск, search', () => {
    for (const name of ['Цветы | РСЯ', 'Цветы — сети', 'Flowers YAN', 'Цветы КМС', 'Flowers - Display', 'Flowers GDN', 'Flowers network']) expect(placementOfName(name), name).toBe('networks');
    expect(placementOfName('Цветы — Поиск')).toBe('search');
    expect(placementOfName('Цветы поиск + сети')).toBe('both');
    // Words that merely contain the letters are no hint.
    expect(placementOfName('Сетевые фильтры')).toBeNull();
    expect(placementOfName('Цветы Москва')).toBeNull();
  });

  it('decides in order: settings, type, split statistics, name, default search', () => {
    const base = campaign('Цветы | РСЯ', []);
    expect(campaignPlacement({ ...base, placement: 'search' })).toEqual({ placement: 'search', source: 'settings' });
    expect(campaignPlacement({ ...base, type: 'search' })).toEqual({ placement: 'search', source: 'type' });
    expect(campaignPlacement({ ...base, type: 'текстово-графическое объявление', placementStats: { search: stats(100, 5, 50) } })).toEqual({ placement: 'search', source: 'statistics' });
    expect(campaignPlacement({ ...base, type: 'текстово-графическое объявление' })).toEqual({ placement: 'networks', source: 'name' });
    expect(campaignPlacement(campaign('Цветы', [], { type: 'text' }))).toEqual({ placement: 'search', source: 'default' });
    const split = campaign('Окна', [group('Окна', [kw('окна', { placementStats: { search: stats(100, 5, 50), networks: stats(1000, 10, 80) } })], [])]);
    expect(campaignPlacement(split)).toEqual({ placement: 'both', source: 'statistics' });
  });
});

describe('a network campaign known by its name only (the expert account)', () => {
  // 15 days: money per month = period × 2. Both campaigns have the export's type «Текстово-графическое объявление».
  const type = 'текстово-графическое объявление';
  const data = yandex(
    [
      campaign('Цветы — Поиск', [
        group('Цветы', [
          kw('купить цветы', { stats: stats(20000, 2000, 40000, 70) }), // CTR 10 %, CPA 571,43
          kw('заказать букет', { stats: stats(8000, 800, 14400, 28) }), // CTR 10 %, CPA 514,29
          kw('цветы на заказ', { stats: stats(2500, 100, 2000, 0) }), // CTR 4 %: under half the search median (10 %)
        ], [ad('Цветы с доставкой')]),
      ], { type }),
      campaign('Цветы | РСЯ', [
        group('Цветы', [
          kw('цветы недорого', { stats: stats(90000, 270, 5400, 0) }), // CTR 0,3 %, 5 400 ₽ without conversions
          kw('букеты', { stats: stats(40000, 150, 4800, 2) }), // CPA 2 400
          kw('цветы оптом', { stats: stats(50000, 200, 5400, 0) }),
        ], [ad('Цветы с доставкой')]),
      ], { type }),
    ],
    [],
    { period: { from: '2026-10-01', to: '2026-10-15' } },
  );
  // Account: 72 000 ₽ / 100 conversions = 720 ₽. The network campaign: 15 600 ₽ / 2 = 7 800 ₽; it holds all
  // the network conversions, so «the account on networks» would be its own CPA: the whole account's is the
  // reference. Likewise on search (one search campaign).

  it('knows the РСЯ campaign from its name and never gives its keywords a search CTR verdict', async () => {
    const account = await prepared(data);
    expect(account.campaigns.map((item) => [item.placement, item.placementSource])).toEqual([
      ['search', 'name'],
      ['networks', 'name'],
    ]);
    const { scoring } = await analyse(data);
    // Search median from search keywords only: [10 %, 10 %, 4 %] → 10 %, half = 5 %: «цветы на заказ» is low.
    // With the network CTRs (0,3; 0,375; 0,4 %) in, the median would be 2,2 % and 4 % would pass.
    expect(labels(scoring.findings, 'stats.low_ctr')).toEqual(['цветы на заказ']);
    const low = of(scoring.findings, 'stats.low_ctr')[0];
    expect(low.evidence[0]).toMatchObject({ label: 'CTR на поиске', value: 0.04, threshold: 0.05, unit: 'share', setting: 'ctrBelowMedianRatio' });
    // Network CTR 620 / 180 000 = 0,34 % < 2 %: not suspicious either.
    expect(of(scoring.findings, 'stats.network_ctr_suspicious')).toEqual([]);
  });

  it('stops the 5 400 ₽ network keyword against the account CPA, and lowers (never raises) the 2 400 ₽ one', async () => {
    const { scoring } = await analyse(data);
    expect(actionsOf(scoring.keywordVerdicts)).toEqual({
      'купить цветы': 'raise_bid', // 571,43 ≤ 0,8 × 720 = 576
      'заказать букет': 'raise_bid', // 514,29 ≤ 576
      'цветы на заказ': 'stop', // 2 000 ≥ 2 × 720 = 1 440
      'цветы недорого': 'stop', // 5 400 ≥ 1 440
      букеты: 'lower_bid', // 2 400 ≥ 1,5 × 720 = 1 080 (its campaign's 7 800 is no reference)
      'цветы оптом': 'stop',
    });
    const stop = of(scoring.findings, 'keyword.action_stop').find((finding) => finding.target.label === 'цветы недорого')!;
    expect(stop).toMatchObject({ money: 5400, moneyPerMonth: 10800 });
    expect(stop.evidence[1]).toMatchObject({ label: 'Цена конверсии аккаунта', value: 720 });
    expect(stop.explanation).toContain('В кампании «Цветы | РСЯ» конверсия стоит 7');
    const lower = of(scoring.findings, 'keyword.action_lower_bid')[0];
    // Overpay 4 800 − 2 × 720 = 3 360.
    expect(lower).toMatchObject({ money: 3360, moneyPerMonth: 6720 });
    expect(scoring.keywordVerdicts.find((verdict) => verdict.target.label === 'букеты')).toMatchObject({ referenceCpa: 720, referenceCpaSource: 'account' });
  });

  it('shows the network campaign\'s money at risk in the rollup and in the money story', async () => {
    const { scoring, money } = await analyse(data);
    // Stops 5 400 + 5 400 and the excess 3 360: 14 160 ₽ per period, 28 320 ₽ per month.
    const network = scoring.campaigns.find((item) => item.target.label === 'Цветы | РСЯ')!;
    expect(network.moneyPerMonth).toBe(28320);
    const wasted = money.causes.find((cause) => cause.cause === 'wasted_keywords')!;
    // Stops: 2 000 + 5 400 + 5 400 = 12 800 → 25 600 per month.
    expect(wasted.perMonth).toBe(25600);
    expect(money.causes.find((cause) => cause.cause === 'overpaid_clicks')!.perMonth).toBe(6720);
  });
});

describe('the CPA reference and a material difference', () => {
  const period = { from: '2026-10-01', to: '2026-10-30' };

  it('does not raise a bid for 821 ₽ against 823 ₽, with or without a target', async () => {
    // Account: (4 105 + 4 125) / 10 = 823 ₽.
    const data = yandex([
      campaign('Окна', [group('Окна', [kw('окна пвх', { stats: stats(1000, 40, 4105, 5) }), kw('окна цена', { stats: stats(1000, 40, 4125, 5) })], [ad('Окна ПВХ')])]),
    ], [], { period });
    for (const settings of [{}, { targetCpa: 823 }]) {
      const { scoring } = await analyse(data, settings);
      expect(actionsOf(scoring.keywordVerdicts), JSON.stringify(settings)).toEqual({ 'окна пвх': 'keep', 'окна цена': 'keep' });
      expect(of(scoring.findings, 'keyword.action_raise_bid')).toEqual([]);
    }
  });

  it('raises a bid only from the configured difference and with enough clicks', async () => {
    const data = yandex([
      campaign('Окна', [
        group('Окна', [
          kw('окна пвх', { stats: stats(1000, 40, 3250, 5) }), // CPA 650 ≤ 0,8 × 823 = 658,4 → raise
          kw('окна недорого', { stats: stats(1000, 20, 300, 1) }), // CPA 300 but 20 clicks < 30 → collect data
        ], [ad('Окна ПВХ')]),
      ]),
    ], [], { period });
    const { scoring } = await analyse(data, { targetCpa: 823 });
    expect(actionsOf(scoring.keywordVerdicts)).toEqual({ 'окна пвх': 'raise_bid', 'окна недорого': 'collect_data' });
    const raise = of(scoring.findings, 'keyword.action_raise_bid')[0];
    expect(raise.evidence[0]).toMatchObject({ value: 650, threshold: 658.4, setting: 'bidChangeMinDifference' });
    expect(raise.evidence[1]).toMatchObject({ label: 'Целевая цена конверсии', value: 823, setting: 'targetCpa' });
    // A 25 % threshold: 650 > 0,75 × 823 = 617,25 → keep.
    const strict = await analyse(data, { targetCpa: 823, bidChangeMinDifference: 0.25 });
    expect(actionsOf(strict.scoring.keywordVerdicts)['окна пвх']).toBe('keep');
  });

  it('compares with the account on the same placement, never with the keyword\'s own campaign', async () => {
    const data = yandex([
      campaign('Дешёвая', [
        group('Окна', [
          kw('окна пвх', { stats: stats(1000, 50, 5000, 10) }), // CPA 500
          kw('окна цена', { stats: stats(1000, 40, 2700, 3) }), // CPA 900: dearer than its campaign (7 700 / 13 = 592), cheaper than the account
        ], [ad('Окна ПВХ')]),
      ]),
      campaign('Дорогая', [group('Окна', [kw('окна купить', { stats: stats(1000, 100, 15000, 10) })], [ad('Окна ПВХ')])]), // CPA 1 500
    ], [], { period });
    // Search account: 22 700 / 23 = 986,96 ₽, with conversions in both campaigns → the placement's CPA.
    const { scoring } = await analyse(data);
    expect(actionsOf(scoring.keywordVerdicts)).toEqual({
      'окна пвх': 'raise_bid', // 500 ≤ 789,57
      'окна цена': 'keep', // 900 is within 20 % of 986,96 (the old rule: 900 ≥ 1,5 × 592 → «снизить ставку»)
      'окна купить': 'lower_bid', // 1 500 ≥ 1,5 × 986,96 = 1 480,43
    });
    expect(scoring.keywordVerdicts.every((verdict) => verdict.referenceCpaSource === 'placement' && verdict.referenceCpa === 986.96)).toBe(true);
    expect(labels(scoring.findings, 'keyword.action_lower_bid')).toEqual(['окна купить']);
    const lower = of(scoring.findings, 'keyword.action_lower_bid')[0];
    expect(lower.evidence[1]).toMatchObject({ label: 'Цена конверсии аккаунта на поиске', value: 986.96 });
    // Overpay 15 000 − 10 × 986,96 = 5 130,43.
    expect(lower.money).toBe(5130.43);
  });

  it('takes the network account CPA for a network keyword when other network campaigns convert', async () => {
    const data = yandex([
      campaign('Поиск', [group('Окна', [kw('окна пвх', { stats: stats(1000, 100, 5000, 10) })], [ad('Окна ПВХ')])], { type: 'search' }), // search CPA 500
      campaign('РСЯ 1', [group('Окна', [kw('окна', { stats: stats(50000, 100, 3000, 1) })], [ad('Окна ПВХ')])]), // CPA 3 000
      campaign('РСЯ 2', [group('Окна', [kw('окна баннер', { stats: stats(50000, 100, 3000, 2) })], [ad('Окна ПВХ')])]), // CPA 1 500
    ], [], { period });
    // Networks: 6 000 / 3 = 2 000 ₽. РСЯ 1: 3 000 ≥ 1,5 × 2 000 → lower; РСЯ 2: 1 500 ≤ 0,8 × 2 000 = 1 600 → raise.
    // Against the whole account (11 000 / 13 = 846 ₽) both would be «lower».
    const { scoring } = await analyse(data);
    expect(actionsOf(scoring.keywordVerdicts)).toMatchObject({ окна: 'lower_bid', 'окна баннер': 'raise_bid' });
    expect(scoring.keywordVerdicts.find((verdict) => verdict.target.label === 'окна')).toMatchObject({ referenceCpa: 2000, referenceCpaSource: 'placement' });
  });
});

describe('statistics split by placement', () => {
  it('judges the search share by search rules and the network share by network rules', async () => {
    const data = yandex([
      campaign('Окна', [
        group('Окна', [
          kw('окна пвх купить', {
            stats: stats(51000, 1510, 15300, 5),
            placementStats: { search: stats(1000, 10, 300, 0), networks: stats(50000, 1500, 15000, 5) },
          }),
        ], [ad('Окна ПВХ')]),
      ], { type: 'text' }),
    ], [], { period: { from: '2026-10-01', to: '2026-10-30' } });
    expect((await prepared(data)).campaigns[0]).toMatchObject({ placement: 'both', placementSource: 'statistics' });
    const { scoring } = await analyse(data);
    // Search share: CTR 10 / 1 000 = 1 % < 2 % → low (on all the keyword's traffic it would be 2,96 %: no verdict).
    const low = of(scoring.findings, 'stats.low_ctr');
    expect(low).toHaveLength(1);
    expect(low[0].evidence[0]).toMatchObject({ value: 0.01, threshold: 0.02, setting: 'lowSearchCtr', unit: 'share' });
    expect(low[0].evidence[1]).toMatchObject({ label: 'Показы на поиске', value: 1000 });
    // Network share: CTR 1 500 / 50 000 = 3 % ≥ 2 % → suspicious, with its 15 000 ₽.
    const network = of(scoring.findings, 'stats.network_ctr_suspicious');
    expect(network).toHaveLength(1);
    expect(network[0]).toMatchObject({ money: 15000 });
    expect(network[0].evidence[0]).toMatchObject({ value: 0.03, setting: 'suspiciousNetworkCtr', unit: 'share' });
  });

  it('an English Google campaign on the Display Network: network CPC median, no search CTR verdict', async () => {
    const report = [
      'Campaign,Ad group,Keyword,Match type,Network,Impr.,Clicks,Cost,Conversions',
      'Flowers Search,Roses,buy roses,Exact,Google search,1000,10,30.00,0',
      'Flowers Search,Roses,rose bouquet,Exact,Google search,1000,80,80.00,2',
      'Flowers Search,Roses,roses delivery,Exact,Google search,1000,90,90.00,2',
      'Flowers,Bouquets,flowers,Broad,Display Network,100000,150,30.00,0',
      'Flowers,Bouquets,cheap flowers,Broad,Display Network,100000,100,20.00,0',
      'Flowers,Bouquets,flower shop,Broad,Display Network,100000,20,40.00,0',
    ].join('\n');
    const result = await importCampaignFiles([textFile('google-keywords.csv', report)]);
    const data: CampaignData = { ...result.data!, period: { from: '2026-10-01', to: '2026-10-30' } };
    const account = await prepared(data);
    expect(account.campaigns.map((item) => [item.ref.label, item.placement, item.placementSource])).toEqual([
      ['Flowers Search', 'search', 'statistics'],
      ['Flowers', 'networks', 'statistics'],
    ]);
    const { scoring } = await analyse(data);
    // Search: «buy roses» CTR 1 % < 2 %. Display keywords (CTR 0,02–0,15 %) get no CTR verdict.
    expect(labels(scoring.findings, 'stats.low_ctr')).toEqual(['buy roses']);
    // Network CPCs 0,2; 0,2; 2 → median 0,2; «flower shop» 2 ≥ 2 × 0,2 → expensive against the network median.
    // Search CPCs 3; 1; 1 → median 1; «buy roses» 3 ≥ 2 → expensive against the search median.
    expect(labels(scoring.findings, 'stats.expensive_clicks')).toEqual(['buy roses', 'flower shop']);
    const shop = of(scoring.findings, 'stats.expensive_clicks').find((finding) => finding.target.label === 'flower shop')!;
    expect(shop.evidence[1]).toMatchObject({ label: 'Медиана цены клика в сетях', value: 0.2 });
  });
});

describe('network sites of a placements report', () => {
  it('names the sites to exclude: spend over the stop rule or a suspicious CTR, never a converting one', async () => {
    const data = yandex([
      campaign('Окна — Поиск', [group('Окна', [kw('окна пвх', { stats: stats(1000, 100, 5000, 10) })], [ad('Окна ПВХ')])], { type: 'search' }),
      campaign('Окна — РСЯ', [group('Окна', [kw('окна', { stats: stats(60000, 400, 4000, 0) })], [ad('Окна ПВХ')])], {
        sites: [
          { site: 'avito.ru', stats: stats(10000, 60, 1200, 0) }, // 1 200 ≥ 2 × 500 → excluded
          { site: 'com.puzzle.game', stats: stats(5000, 250, 500, 0) }, // CTR 5 % ≥ 2 % → excluded
          { site: 'dzen.ru', stats: stats(40000, 80, 2000, 1) }, // a conversion: kept
          { site: 'mail.ru', stats: stats(5000, 10, 300, 0) }, // 300 < 1 000 and CTR 0,2 %: kept
        ],
      }),
    ], [], { period: { from: '2026-10-01', to: '2026-10-30' } });
    // Reference: networks have no conversions, so the whole account's CPA: (5 000 + 4 000) / 10 = 900 ₽;
    // stop rule 2 × 900 = 1 800 ₽. avito.ru's 1 200 ₽ is under it (and its CTR 0,6 % is fine): not named.
    const { scoring } = await analyse(data);
    const found = of(scoring.findings, 'stats.network_sites');
    expect(found).toHaveLength(1);
    expect(found[0].target.label).toBe('Окна — РСЯ');
    expect(found[0].explanation).toContain('«com.puzzle.game» (CTR 5 % без конверсий)');
    expect(found[0].explanation).not.toContain('avito.ru');
    expect(found[0].explanation).not.toContain('dzen.ru');
    expect(found[0].money).toBeUndefined();

    // With a target CPA of 500 ₽ the stop rule is 1 000 ₽: avito.ru's 1 200 ₽ is named too, dearest first.
    const targeted = await analyse(data, { targetCpa: 500 });
    const withTarget = of(targeted.scoring.findings, 'stats.network_sites')[0];
    expect(withTarget.evidence.slice(0, 3)).toMatchObject([
      { label: 'Площадок', value: 2 },
      { label: 'Расход на них', value: 1700 },
      { label: 'Расход без конверсий от', value: 1000, setting: 'stopCostCpaRatio' },
    ]);
    expect(withTarget.explanation.replace(/\u00a0/g, ' ')).toContain('«avito.ru» (1 200 ₽ без конверсий), «com.puzzle.game» (CTR 5 % без конверсий)');
  });
});

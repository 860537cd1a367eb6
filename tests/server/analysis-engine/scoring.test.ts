import { describe, expect, it } from 'vitest';
import type { Ad } from '../../../contract/campaigns.js';
import type { Finding } from '../../../contract/analysis-results.js';
import { ad, campaign, group, kw, query, stats, yandex } from '../../fixtures/analysis/builders.js';
import { analyse } from './helpers.js';

/**
 * Checks that fired on the entity labelled `label` (all findings' checks without one): its own findings
 * and the aggregated findings that list it as an item.
 */
const ids = (findings: Finding[], label?: string) =>
  findings.filter((finding) => label === undefined || finding.target.label === label || finding.items?.some((item) => item.target.label === label)).map((finding) => finding.checkId);

describe('keyword hygiene', () => {
  const data = yandex([
    campaign('Окна', [
      group('Окна', [kw('окна'), kw('"окна"'), kw('окна пвх', { negativeWords: ['пвх'] }), kw('окна деревянные'), kw('деревянные окна'), kw('окна [алюминиевые'), kw('-бесплатно')], [ad('Окна ПВХ и деревянные окна')]),
      group('Двери', [kw('двери межкомнатные')], [ad('Межкомнатные двери')], { negativeKeywords: ['межкомнатные'] }),
    ]),
    campaign('Без минусов', [group('Кухни', [kw('кухни на заказ')], [ad('Кухни на заказ')])], { negativeKeywords: [] }),
  ]);

  it('flags one-word broad keywords, not quoted or longer ones', async () => {
    const { scoring } = await analyse(data);
    expect(ids(scoring.findings, 'окна')).toContain('keyword.too_broad');
    expect(ids(scoring.findings, '"окна"')).not.toContain('keyword.too_broad');
    expect(ids(scoring.findings, 'окна деревянные')).not.toContain('keyword.too_broad');
  });

  it('flags duplicates once per extra copy, linked to the merge suggestion', async () => {
    const { scoring } = await analyse(data);
    const duplicates = scoring.findings.filter((finding) => finding.checkId === 'keyword.duplicate');
    expect(duplicates.map((finding) => finding.target.label)).toEqual(['деревянные окна']);
    expect(duplicates[0].suggestionIds?.[0]).toMatch(/^xm:dup:/);
  });

  it('flags conflicting operators: a minus-word equal to a word of the phrase, a group negative switching the phrase off, an unpaired bracket', async () => {
    const { scoring } = await analyse(data);
    expect(ids(scoring.findings, 'окна пвх')).toContain('keyword.conflicting_operators');
    expect(ids(scoring.findings, 'двери межкомнатные')).toContain('keyword.conflicting_operators');
    expect(ids(scoring.findings, 'окна [алюминиевые')).toContain('keyword.conflicting_operators');
    expect(ids(scoring.findings, 'окна деревянные')).not.toContain('keyword.conflicting_operators');
  });

  it('flags a campaign without negatives once, listing its broad keywords that have none at any level', async () => {
    const { scoring } = await analyse(data);
    const missing = scoring.findings.filter((finding) => finding.checkId === 'campaign.no_negatives');
    expect(missing.map((finding) => finding.target.label)).toEqual(['Без минусов']);
    expect(missing[0]).toMatchObject({ count: 1, items: [{ target: { label: 'кухни на заказ', level: 'keyword' } }] });
    // No per-keyword card any more: the campaign finding is the one place.
    expect(scoring.checks.map((check) => check.id)).not.toContain('keyword.no_negatives');
    expect(ids(scoring.findings, 'окна деревянные')).not.toContain('campaign.no_negatives');
  });

  it('never counts a negative keyword as an active keyword', async () => {
    const { scoring } = await analyse(data);
    expect(scoring.counts.keywords).toBe(8);
    expect(scoring.keywords.some((score) => score.target.label === '-бесплатно')).toBe(false);
    // бесплатно ×2 campaigns… one campaign has it, plus the group negative and the negative row
    expect(scoring.counts.negativeKeywords).toBe(3);
  });

  it('flags intersections between groups', async () => {
    const intersecting = yandex([campaign('Шубы', [group('Все', [kw('шуба')], [ad('Шубы')]), group('Норка', [kw('шуба норковая')], [ad('Норковые шубы')])])]);
    const { scoring } = await analyse(intersecting);
    const finding = scoring.findings.find((item) => item.checkId === 'keyword.group_intersection')!;
    expect(finding.target.label).toBe('шуба');
    expect(finding.suggestionIds).toEqual(['xm:kw:c0g0k0']);
    expect(ids(scoring.findings, 'шуба норковая')).not.toContain('keyword.group_intersection');
  });

  it('flags one group for everything from the configured size', async () => {
    const many = yandex([campaign('Всё', [group('Всё', Array.from({ length: 20 }, (_, i) => kw(`товар номер ${i}`)), [ad('Товар номер один')])])]);
    expect(ids((await analyse(many)).scoring.findings, 'Всё')).toContain('campaign.single_group');
    expect(ids((await analyse(many, { singleGroupMinKeywords: 21 })).scoring.findings, 'Всё')).not.toContain('campaign.single_group');
  });
});

describe('ad quality and platform limits', () => {
  it('checks Yandex field limits with the punctuation allowance, and proposes shortened fields', async () => {
    const data = yandex([
      campaign('Окна', [
        group('Окна', [kw('пластиковые окна')], [
          ad('Пластиковые окна с установкой под ключ от производителя в Москве', {
            headlines: ['Пластиковые окна с установкой под ключ от производителя в Москве', 'Окна. Двери. Балконы. Лоджии!!'],
            texts: ['Окна, двери, балконы: гарантия 10 лет. Замер, доставка, монтаж! Без предоплаты. Звоните.'],
            displayUrl: 'plastikovye-okna-moskva',
            sitelinks: [{ title: 'Очень длинный заголовок быстрой ссылки', description: 'Описание' }],
            callouts: ['Бесплатная доставка по Москве и области'],
          }),
          ad('Пластиковые окна', { texts: ['Сверхпрочныеэнергосберегающиестеклопакеты'] }),
        ]),
      ]),
    ]);
    const { scoring } = await analyse(data);
    const first = scoring.findings.filter((finding) => finding.target.key === 'c0g0a0');
    const evidence = (id: string) => first.filter((finding) => finding.checkId === id).map((finding) => finding.evidence[0]);
    // Заголовок 1: 64 > 56. Заголовок 2: 30 chars with 5 narrow marks → 25 ≤ 30. Текст: 88 chars, 9 marks → 79 ≤ 81.
    expect(evidence('ad.headline_too_long')).toEqual([{ label: 'Заголовок 1', value: 64, threshold: 56, unit: 'chars' }]);
    expect(evidence('ad.text_too_long')).toEqual([]);
    expect(evidence('ad.display_url_too_long')).toEqual([{ label: 'Отображаемая ссылка', value: 23, threshold: 20, unit: 'chars' }]);
    expect(evidence('ad.sitelink_too_long')[0]).toMatchObject({ value: 38, threshold: 30 });
    expect(evidence('ad.callout_too_long')[0]).toMatchObject({ value: 39, threshold: 25 });
    const second = scoring.findings.filter((finding) => finding.target.key === 'c0g0a1');
    expect(second.find((finding) => finding.checkId === 'ad.word_too_long')!.evidence[0]).toMatchObject({ value: 41, threshold: 23 });
    const fix = scoring.suggestions.find((item) => item.id === 'ad:c0g0a0:headline:0')!;
    expect(fix.after).toBe('Пластиковые окна с установкой под ключ от производителя');
    expect(fix.after.length).toBeLessThanOrEqual(56);
  });

  it('flags missing keyword in headline, sitelinks, callouts, display URL and UTM tags, and not on a complete ad', async () => {
    const data = yandex([
      campaign('Окна', [
        group('Окна', [kw('пластиковые окна')], [
          ad('Пластиковые окна'),
          ad('Двери на заказ', { sitelinks: [], callouts: [], displayUrl: undefined, finalUrl: 'https://example.ru/doors' }),
        ]),
      ]),
    ]);
    const { scoring } = await analyse(data);
    expect(ids(scoring.findings.filter((finding) => finding.target.key === 'c0g0a0'))).toEqual([]);
    expect(ids(scoring.findings.filter((finding) => finding.target.key === 'c0g0a1')).sort()).toEqual(['ad.keyword_not_in_headline', 'ad.no_callouts', 'ad.no_display_url', 'ad.no_sitelinks', 'ad.no_utm']);
    expect(scoring.suggestions.find((item) => item.field === 'finalUrl')!.after).toBe('https://example.ru/doors?utm_source=yandex&utm_medium=cpc&utm_campaign={campaign_id}&utm_content={ad_id}&utm_term={keyword}');
  });

  it('checks Google RSA limits and asset counts', async () => {
    const data = {
      platform: 'google_ads' as const,
      searchQueries: [],
      campaigns: [campaign('Shoes', [group('Running', [kw('running shoes', { matchType: 'phrase' })], [
        { kind: 'responsive_search' as const, headlines: ['Running shoes for everyone on sale', 'Running shoes'], texts: ['Fast delivery'], paths: ['running-shoes-for-men'], finalUrl: 'https://shop.example/run?utm_source=google', sitelinks: [{ title: 'Sale' }], callouts: ['Free returns'] },
      ])])],
    };
    const { scoring } = await analyse(data);
    const found = scoring.findings.map((finding) => `${finding.checkId}:${finding.evidence[0].value}`);
    expect(found).toEqual(expect.arrayContaining(['ad.headline_too_long:34', 'ad.display_url_too_long:21', 'ad.rsa_asset_count:2']));
  });

  it('flags the same text in many groups from the threshold', async () => {
    const same = ad('Окна');
    const data = yandex([campaign('Окна', ['А', 'Б', 'В'].map((name) => group(name, [kw(`окна ${name.toLowerCase()}`)], [same])))]);
    expect(ids((await analyse(data)).scoring.findings)).toContain('ad.same_text_many_groups');
    expect(ids((await analyse(data, { sameAdTextGroups: 4 })).scoring.findings)).not.toContain('ad.same_text_many_groups');
  });
});

describe('every platform length limit: fires one character over, not at the limit', () => {
  /** Text of exactly `length` characters in short words, no punctuation. */
  const textOf = (length: number) => {
    const text = 'Окна пластиковые и двери '.repeat(10).slice(0, length);
    return text.endsWith(' ') ? `${text.slice(0, -1)}ы` : text;
  };
  const word = (length: number) => `Окна ${'о'.repeat(length)}`;
  const googleAd = (extra: Partial<Ad>): Ad => ({ kind: 'responsive_search', headlines: ['Окна', 'Двери', 'Балконы'], texts: ['Окна на заказ', 'Двери на заказ'], paths: ['okna'], finalUrl: 'https://example.ru/?utm_source=google', sitelinks: [{ title: 'Цены' }], callouts: ['Гарантия'], ...extra });

  // [platform, what, check, limit, the ad with a field of a given length]
  const cases: [string, string, string, number, (length: number) => Ad][] = [
    ['yandex', 'Заголовок 1', 'ad.headline_too_long', 56, (n) => ad(textOf(n))],
    ['yandex', 'слово заголовка 1', 'ad.word_too_long', 22, (n) => ad(word(n))],
    ['yandex', 'Заголовок 2', 'ad.headline_too_long', 30, (n) => ad('Окна', { headlines: ['Окна', textOf(n)] })],
    ['yandex', 'Текст', 'ad.text_too_long', 81, (n) => ad('Окна', { texts: [textOf(n)] })],
    ['yandex', 'слово текста', 'ad.word_too_long', 23, (n) => ad('Окна', { texts: [word(n)] })],
    ['yandex', 'Отображаемая ссылка', 'ad.display_url_too_long', 20, (n) => ad('Окна', { displayUrl: 'o'.repeat(n) })],
    ['yandex', 'заголовок быстрой ссылки', 'ad.sitelink_too_long', 30, (n) => ad('Окна', { sitelinks: [{ title: textOf(n) }] })],
    ['yandex', 'описание быстрой ссылки', 'ad.sitelink_too_long', 60, (n) => ad('Окна', { sitelinks: [{ title: 'Цены', description: textOf(n) }] })],
    ['yandex', 'уточнение', 'ad.callout_too_long', 25, (n) => ad('Окна', { callouts: [textOf(n)] })],
    ['google', 'заголовок', 'ad.headline_too_long', 30, (n) => googleAd({ headlines: [textOf(n), 'Двери', 'Балконы'] })],
    ['google', 'описание', 'ad.text_too_long', 90, (n) => googleAd({ texts: [textOf(n), 'Двери на заказ'] })],
    ['google', 'путь', 'ad.display_url_too_long', 15, (n) => googleAd({ paths: ['o'.repeat(n)] })],
  ];

  it.each(cases)('%s %s (%s): limit %i', async (platform, _what, checkId, limit, make) => {
    const findingsFor = async (length: number) => {
      const data = yandex([campaign('Окна', [group('Окна', [kw('окна')], [make(length)])])]);
      if (platform === 'google') data.platform = 'google_ads';
      return (await analyse(data)).scoring.findings.filter((finding) => finding.checkId === checkId);
    };
    expect(await findingsFor(limit)).toEqual([]);
    const over = await findingsFor(limit + 1);
    expect(over).toHaveLength(1);
    expect(over[0].evidence[0]).toMatchObject({ value: limit + 1, threshold: limit, unit: 'chars' });
  });

  it('Yandex lets up to 15 narrow punctuation marks go free in Заголовок 2 and Текст, not in Заголовок 1', async () => {
    const punctuated = (length: number) => `${textOf(length)}${',.!:;'.repeat(3)}`;
    const checksOf = async (extra: Partial<Ad>, headline = 'Окна') =>
      (await analyse(yandex([campaign('Окна', [group('Окна', [kw('окна')], [ad(headline, extra)])])]))).scoring.findings.map((finding) => finding.checkId);
    expect(await checksOf({ texts: [punctuated(81)] })).not.toContain('ad.text_too_long');
    expect(await checksOf({ texts: [`${punctuated(81)}!`] })).toContain('ad.text_too_long');
    expect(await checksOf({ headlines: ['Окна', punctuated(30)] })).not.toContain('ad.headline_too_long');
    // 57 characters, 15 of them marks: over 56, the marks count in Заголовок 1.
    expect(await checksOf({}, punctuated(42))).toContain('ad.headline_too_long');
  });
});

describe('statistics: evidence rules, actions and money per month', () => {
  // 15 days of statistics: money per month is the period's money × 2.
  const period = { from: '2024-03-01', to: '2024-03-15' };
  const data = yandex(
    [
      campaign('Поиск', [
        group('Окна', [
          kw('окна пвх цена', { stats: stats(1000, 100, 10000, 10) }), // CPA 1000 = campaign CPA → keep
          kw('окна пвх купить', { stats: stats(1000, 40, 2400, 0) }), // 0 conv, cost 2400 ≥ 2 × 1000 → stop
          kw('окна пвх недорого', { stats: stats(1000, 40, 1500, 1) }), // CPA 1500 ≥ 1.5 × 1000 → lower bid
          kw('окна пвх заказать', { stats: stats(400, 30, 600, 3) }), // CPA 200 < campaign → raise
          kw('окна пвх монтаж', { stats: stats(100, 10, 5000, 0) }), // 10 clicks < 30 → collect data
          kw('окна пвх установка', { stats: stats(2000, 20, 500, 0) }), // CTR 1 % < 2 % → low
          kw('окна пвх дорого', { stats: stats(300, 30, 1200, 0) }), // 0 conv, cost 1200 < 2000 → hold
        ], [ad('Окна ПВХ')]),
      ]),
      campaign('Сети', [group('РСЯ', [kw('окна пвх баннер', { stats: stats(10000, 300, 3000, 0) })], [ad('Окна ПВХ')])], { type: 'network' }),
    ],
    [],
    { period },
  );

  it('gives keyword actions against the account CPA (never the campaign\'s own), with collect data under 30 clicks', async () => {
    const { scoring } = await analyse(data);
    const actions = Object.fromEntries(scoring.keywordVerdicts.map((verdict) => [verdict.target.label, verdict.action]));
    // Account: 24 200 ₽ / 14 conversions ≈ 1729 ₽ (all search conversions are this campaign's, so the
    // search-only figure would be its own CPA: the whole account's is the reference). купить: 2400 < 2 × 1729
    // → hold; цена 1000 ≤ 0.8 × 1729 → raise; недорого 1500 > 0.8 × 1729 = 1383 → keep (not a material difference).
    expect(actions).toEqual({
      'окна пвх цена': 'raise_bid',
      'окна пвх купить': 'hold',
      'окна пвх недорого': 'keep',
      'окна пвх заказать': 'raise_bid',
      'окна пвх монтаж': 'collect_data',
      'окна пвх установка': 'collect_data',
      'окна пвх дорого': 'hold',
      // Network campaign without conversions: compared with the account CPA; 3000 < 2 × 1729 → hold.
      'окна пвх баннер': 'hold',
    });
    const verdict = scoring.keywordVerdicts.find((item) => item.target.label === 'окна пвх купить')!;
    expect(verdict).toMatchObject({ referenceCpaSource: 'account', referenceCpa: 1728.57 });
  });

  it('uses the project target CPA when set, and reports the threshold that fired', async () => {
    const { scoring } = await analyse(data, { targetCpa: 900 });
    const actions = Object.fromEntries(scoring.keywordVerdicts.map((verdict) => [verdict.target.label, verdict.action]));
    expect(actions).toMatchObject({ 'окна пвх цена': 'keep', 'окна пвх купить': 'stop', 'окна пвх недорого': 'lower_bid', 'окна пвх заказать': 'raise_bid', 'окна пвх дорого': 'hold', 'окна пвх монтаж': 'collect_data' });
    const stop = scoring.findings.find((finding) => finding.checkId === 'keyword.action_stop' && finding.target.label === 'окна пвх купить')!;
    expect(stop.severity).toBe('high');
    expect(stop.evidence[0]).toMatchObject({ value: 2400, threshold: 1800, setting: 'stopCostCpaRatio' });
    expect(stop).toMatchObject({ money: 2400, moneyPerMonth: 4800, period });
    const lower = scoring.findings.find((finding) => finding.checkId === 'keyword.action_lower_bid')!;
    // Overpay: 1500 − 1 × 900 = 600 ₽ over 15 days → 1200 ₽ a month.
    expect(lower).toMatchObject({ money: 600, moneyPerMonth: 1200 });
    expect(lower.evidence[0]).toMatchObject({ value: 1500, threshold: 1350, setting: 'lowerBidCpaRatio' });
  });

  it('judges search CTR below 2 % as low and network CTR of 2 % or more as suspicious', async () => {
    const { scoring } = await analyse(data);
    const low = scoring.findings.filter((finding) => finding.checkId === 'stats.low_ctr');
    expect(low.map((finding) => finding.target.label)).toEqual(['окна пвх установка']);
    expect(low[0].evidence[0]).toMatchObject({ value: 0.01, threshold: 0.02, setting: 'lowSearchCtr', unit: 'share' });
    const network = scoring.findings.find((finding) => finding.checkId === 'stats.network_ctr_suspicious')!;
    expect(network.target.label).toBe('Сети');
    expect(network.evidence[0]).toMatchObject({ value: 0.03, threshold: 0.02, unit: 'share' });
    expect(network.moneyPerMonth).toBe(6000);
  });

  it('prices wasted spend per month and flags expensive clicks against the median', async () => {
    const { scoring } = await analyse(data);
    // Zero-conversion keywords: 2400 + 5000 + 500 + 1200 + 3000 = 12 100 ₽ over 15 days.
    expect(scoring.wastedSpend).toEqual({ period: 12100, perMonth: 24200 });
    expect(scoring.monthFactor).toBe(2);
    const expensive = scoring.findings.filter((finding) => finding.checkId === 'stats.expensive_clicks');
    // Search CPCs: 100, 60, 37.5, 20, 500, 25, 40 → median 40; 100 and 500 ≥ 2 × 40. Overpay (CPC − median) × clicks.
    // Two keywords of one campaign: one finding at the campaign, the keywords as items, most money first.
    expect(expensive).toHaveLength(1);
    expect(expensive[0]).toMatchObject({ target: { level: 'campaign', label: 'Поиск' }, count: 2, money: 10600, moneyPerMonth: 21200, title: 'Дорогие клики: 2 фразы' });
    expect(expensive[0].items!.map((item) => [item.target.label, item.money, item.moneyPerMonth])).toEqual([
      ['окна пвх цена', 6000, 12000],
      ['окна пвх монтаж', 4600, 9200],
    ]);
  });

  it('every statistics flag shows its numbers, the period, the volume and the threshold that fired', async () => {
    const { scoring } = await analyse(data, { targetCpa: 900 });
    const flags = scoring.findings.filter((finding) => finding.family === 'statistics');
    expect(new Set(flags.map((finding) => finding.checkId))).toEqual(
      new Set(['keyword.action_stop', 'keyword.action_lower_bid', 'keyword.action_raise_bid', 'stats.low_ctr', 'stats.network_ctr_suspicious', 'stats.expensive_clicks', 'stats.wasted_spend']),
    );
    for (const finding of flags) {
      const where = `${finding.checkId} ${finding.target.label}`;
      expect(finding.period, where).toEqual(period);
      expect(finding.evidence.some((item) => item.label === 'Период, дней' && item.value === 15), where).toBe(true);
      expect(finding.evidence.some((item) => item.unit === 'clicks' || item.unit === 'impressions'), where).toBe(true);
      expect(finding.evidence.some((item) => item.threshold !== undefined), where).toBe(true);
      expect(finding.explanation.length, where).toBeGreaterThan(20);
      expect(finding.fix.length, where).toBeGreaterThan(10);
    }
  });

  it('with no conversion data says so and runs no conversion-based verdicts', async () => {
    const noConversions = structuredClone(data);
    for (const c of noConversions.campaigns) for (const g of c.groups) for (const k of g.keywords) k.stats!.conversions = 0;
    const { scoring, semantic } = await analyse(noConversions);
    expect(scoring.notices.map((notice) => notice.code)).toContain('NO_CONVERSIONS');
    expect(semantic.notices.map((notice) => notice.code)).toContain('NO_CONVERSIONS');
    expect(scoring.keywordVerdicts).toEqual([]);
    expect(scoring.findings.some((finding) => finding.checkId.startsWith('keyword.action_') || finding.checkId === 'stats.wasted_spend')).toBe(false);
    expect(scoring.checks.some((check) => check.needs === 'conversions')).toBe(false);
  });

  it('flags a campaign spending without conversions and ranks money first', async () => {
    const withWaste = yandex(
      [
        campaign('Хорошая', [group('А', [kw('окна пвх', { stats: stats(1000, 50, 5000, 5) })], [ad('Окна ПВХ')])]),
        campaign('Пустая', [group('Б', [kw('двери входные', { stats: stats(1000, 40, 8000, 0) })], [ad('Двери входные')])]),
      ],
      [query('окна пвх', stats(10, 1, 100, 1), { campaignName: 'Хорошая' })],
      { period: { from: '2024-01-01', to: '2024-01-30' } },
    );
    const { scoring } = await analyse(withWaste);
    const stop = scoring.findings.find((finding) => finding.checkId === 'keyword.action_stop')!;
    const wasted = scoring.findings.find((finding) => finding.checkId === 'stats.wasted_spend')!;
    expect(wasted.target.label).toBe('Пустая');
    expect(wasted.evidence[0]).toMatchObject({ value: 8000 });
    // The keyword's stop finding already prices these 8000 ₽: the campaign does not count them twice.
    expect(stop).toMatchObject({ money: 8000, moneyPerMonth: 8000 });
    expect(wasted.money ?? 0).toBe(0);
    expect(scoring.account.moneyPerMonth).toBe(8000);
    expect(scoring.findings[0].severity).toBe('high');
  });
});

describe('scores', () => {
  it('rolls findings up into 0–100 scores per keyword, ad, group, campaign and account', async () => {
    const data = yandex([
      campaign('Чистая', [group('А', [kw('окна пвх'), kw('окна пвх цена')], [ad('Окна ПВХ')])]),
      campaign('Грязная', [group('Б', [kw('окна')], [ad('Двери', { sitelinks: [], callouts: [] })])], { negativeKeywords: [] }),
    ]);
    const { scoring } = await analyse(data);
    const score = (key: string) => [...scoring.keywords, ...scoring.ads, ...scoring.groups, ...scoring.campaigns].find((item) => item.target.key === key)!.score;
    expect(score('c0g0k0')).toBe(100);
    expect(score('c0')).toBe(100);
    // окна: too broad (10) = 90 (a missing negative is the campaign's finding, not the keyword's);
    // ad: no keyword in headline (8) + no sitelinks (8) + no callouts (4) = 80.
    expect(score('c1g0k0')).toBe(90);
    expect(score('c1g0a0')).toBe(80);
    // Group: mean 85, minus low relevance of its ads (8) = 77.
    expect(score('c1g0')).toBe(77);
    // Campaign without negatives: −10.
    expect(score('c1')).toBe(67);
    // Account: mean weighted by size (3 and 2 objects) = (100×3 + 67×2) / 5 = 86.8.
    expect(scoring.account.score).toBe(87);
  });
});

import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../contract/analysis-results.js';
import { summarizeAudit } from '../../../server/analysis/run-audit.js';
import { ad, campaign, group, kw, stats, yandex } from '../../fixtures/analysis/builders.js';
import { analyse } from './helpers.js';

const ofCheck = (findings: Finding[], checkId: string) => findings.filter((finding) => finding.checkId === checkId);
const noUtm = (path: string) => ({ finalUrl: `https://example.ru/${path}` });

describe('a check that fires on several entities of a campaign is one finding there', () => {
  // «Окна»: 4 ads without UTM tags in two groups, 3 one-word broad keywords. «Двери»: 1 ad without UTM.
  const data = yandex([
    campaign('Окна', [
      group('Пластиковые', [kw('окна'), kw('пластиковые окна')], [ad('Пластиковые окна', noUtm('a')), ad('Окна ПВХ', noUtm('b')), ad('Окна пластиковые')]),
      group('Деревянные', [kw('рамы'), kw('стеклопакеты')], [ad('Деревянные окна', noUtm('c')), ad('Окна из дерева', noUtm('d'))]),
    ]),
    campaign('Двери', [group('Входные', [kw('двери входные')], [ad('Двери входные', noUtm('e')), ad('Входные двери')])]),
  ]);

  it('reports «Нет UTM-меток» once per campaign with every ad as an item and its fix; alone in a campaign, at the ad', async () => {
    const { scoring } = await analyse(data);
    const utm = ofCheck(scoring.findings, 'ad.no_utm');
    expect(utm.map((finding) => [finding.target.level, finding.target.label, finding.count])).toEqual([
      ['campaign', 'Окна', 4],
      ['ad', 'Двери входные', undefined],
    ]);
    const [windows] = utm;
    expect(windows.title).toBe('Нет UTM-меток: 4 объявления');
    expect(windows.items!.map((item) => item.target.key)).toEqual(['c0g0a0', 'c0g0a1', 'c0g1a0', 'c0g1a1']);
    expect(windows.items!.map((item) => item.suggestionIds)).toEqual([['ad:c0g0a0:finalUrl:0'], ['ad:c0g0a1:finalUrl:0'], ['ad:c0g1a0:finalUrl:0'], ['ad:c0g1a1:finalUrl:0']]);
    expect(windows.explanation).toContain('В кампании «Окна» 4 объявления со ссылкой без UTM-меток');
    expect(windows.explanation).toContain('и ещё 1');
    expect(windows.evidence[0]).toEqual({ label: 'Объявлений', value: 4, unit: 'count' });
    // Every ad still has its own proposed fix.
    expect(scoring.suggestions.filter((item) => item.field === 'finalUrl')).toHaveLength(5);
  });

  it('«N фраз» for keywords: three one-word keywords of two groups are one finding', async () => {
    const { scoring } = await analyse(data);
    const broad = ofCheck(scoring.findings, 'keyword.too_broad');
    expect(broad).toHaveLength(1);
    expect(broad[0]).toMatchObject({ title: 'Слишком широкая фраза: 3 фразы', count: 3, target: { key: 'c0' } });
    expect(broad[0].items!.map((item) => [item.target.label, item.target.groupName])).toEqual([
      ['окна', 'Пластиковые'],
      ['рамы', 'Деревянные'],
      ['стеклопакеты', 'Деревянные'],
    ]);
  });

  it('keeps the scores of separate findings: the aggregated weight lands on each ad it lists', async () => {
    const { scoring } = await analyse(data);
    const score = (key: string) => [...scoring.ads, ...scoring.keywords, ...scoring.groups].find((item) => item.target.key === key)!;
    // ad.no_utm weighs 6: each listed ad scores 94, the ad with tags 100; «Деревянные окна» also has no
    // word of its group's keywords in the headline (another aggregated finding, 8): 86. «окна» loses 10 for being too broad.
    expect([score('c0g0a0').score, score('c0g0a1').score, score('c0g0a2').score, score('c0g1a0').score]).toEqual([94, 94, 100, 86]);
    expect(score('c0g1a0').findings).toBe(2);
    expect(score('c0g0k0').score).toBe(90);
    expect(score('c0g0a0').findings).toBe(1);
    // Group «Пластиковые»: (90 + 100 + 94 + 94 + 100) / 5 = 95.6 → 96.
    expect(score('c0g0').score).toBe(96);
  });

  it('counts findings and the entities they cover per check, severity and in the summary', async () => {
    const result = await analyse(data);
    const { scoring } = result;
    const utm = scoring.byCheck.find((check) => check.checkId === 'ad.no_utm')!;
    expect(utm).toMatchObject({ title: 'Нет UTM-меток', count: 2, entities: 5 });
    const medium = scoring.findings.filter((finding) => finding.severity === 'medium');
    expect(scoring.bySeverity.medium).toMatchObject({ count: medium.length, entities: medium.reduce((sum, finding) => sum + (finding.count ?? 1), 0) });
    const summary = summarizeAudit(result);
    expect(summary.by_check!.find((check) => check.check_id === 'ad.no_utm')).toEqual({ check_id: 'ad.no_utm', title: 'Нет UTM-меток', severity: 'medium', findings: 2, entities: 5, money_per_month: 0 });
    expect(summary.by_severity.medium).toMatchObject({ count: medium.length });
    // A campaign counts an aggregated finding once.
    expect(scoring.campaigns[0].findings).toBe(scoring.findings.filter((finding) => finding.target.campaignIndex === 0).length);
  });

  it('keeps byCheck examples small: an aggregated example holds at most 5 items, its count says how many there are', async () => {
    const many = yandex([campaign('Окна', [group('Окна', [kw('окна пвх')], Array.from({ length: 8 }, (_, index) => ad(`Окна ПВХ ${index}`, noUtm(String(index)))))])]);
    const { scoring } = await analyse(many);
    const example = scoring.byCheck.find((check) => check.checkId === 'ad.no_utm')!.examples[0];
    expect(example.count).toBe(8);
    expect(example.items).toHaveLength(5);
    expect(scoring.findings.find((finding) => finding.checkId === 'ad.no_utm')!.items).toHaveLength(8);
  });
});

describe('aggregated money: the sum of the items, worst first', () => {
  // 30 days: money per month = money of the period. Search CPCs 300, 50, 60, 40, 45, 250, 55 → median 55;
  // 300, 250 ≥ 2 × 55 are expensive. Overpay (CPC − 55) × clicks: 245 × 10 = 2450, 195 × 20 = 3900.
  const period = { from: '2024-01-01', to: '2024-01-30' };
  const data = yandex(
    [
      campaign('Поиск', [
        group('А', [kw('окна пвх цена', { stats: stats(500, 10, 3000, 1) }), kw('окна пвх', { stats: stats(500, 10, 500, 1) }), kw('окна пластик', { stats: stats(500, 10, 600, 1) })], [ad('Окна ПВХ')]),
        group('Б', [kw('рамы пвх', { stats: stats(500, 10, 400, 1) }), kw('рамы пластик', { stats: stats(500, 10, 450, 1) }), kw('рамы цена', { stats: stats(500, 20, 5000, 1) }), kw('рамы купить', { stats: stats(500, 10, 550, 1) })], [ad('Рамы ПВХ')]),
      ]),
    ],
    [],
    { period },
  );

  it('«Дорогие клики: 2 фразы» at the campaign, priced with both keywords, the dearer first', async () => {
    const { scoring } = await analyse(data);
    const expensive = ofCheck(scoring.findings, 'stats.expensive_clicks');
    expect(expensive).toHaveLength(1);
    expect(expensive[0]).toMatchObject({ target: { level: 'campaign', label: 'Поиск' }, count: 2, money: 6350, moneyPerMonth: 6350, period });
    expect(expensive[0].items!.map((item) => [item.target.label, item.money])).toEqual([
      ['рамы цена', 3900],
      ['окна пвх цена', 2450],
    ]);
    expect(expensive[0].explanation.replace(/\s/g, ' ')).toContain('Больше всего денег: «рамы цена» (группа «Б») — 3 900 ₽ в месяц');
    // The campaign's money is the finding's once; each keyword and group carries its item's share.
    const entity = (key: string) => [...scoring.keywords, ...scoring.groups, ...scoring.campaigns].find((item) => item.target.key === key)!;
    expect([entity('c0g1k2').moneyPerMonth, entity('c0g0').moneyPerMonth, entity('c0g1').moneyPerMonth, entity('c0').moneyPerMonth]).toEqual([3900, 2450, 3900, 6350]);
    expect(scoring.byCheck.find((check) => check.checkId === 'stats.expensive_clicks')).toMatchObject({ count: 1, entities: 2, moneyPerMonth: 6350 });
  });

  it('keeps «Остановить фразу» per keyword: each is a decision with its own money', async () => {
    const stops = yandex(
      [
        campaign('Поиск', [
          group('А', [kw('окна пвх', { stats: stats(1000, 50, 5000, 5) }), kw('окна дешево', { stats: stats(1000, 40, 3000, 0) }), kw('окна даром', { stats: stats(1000, 40, 2500, 0) })], [ad('Окна ПВХ')]),
        ]),
      ],
      [],
      { period },
    );
    const { scoring } = await analyse(stops, { targetCpa: 1000 });
    expect(ofCheck(scoring.findings, 'keyword.action_stop').map((finding) => [finding.target.label, finding.money, finding.count])).toEqual([
      ['окна дешево', 3000, undefined],
      ['окна даром', 2500, undefined],
    ]);
  });

  it('lists a zero-conversion campaign\'s keywords in «Расход без конверсий», without the ones a stop finding prices', async () => {
    const empty = yandex(
      [
        campaign('Хорошая', [group('А', [kw('окна пвх', { stats: stats(1000, 50, 5000, 5) })], [ad('Окна ПВХ')])]),
        campaign('Пустая', [
          group('Б', [kw('двери входные', { stats: stats(1000, 40, 8000, 0) }), kw('двери стальные', { stats: stats(500, 10, 900, 0) }), kw('двери металлические', { stats: stats(500, 35, 1500, 0) }), kw('двери дешево', { stats: stats(100, 0, 0, 0) })], [ad('Двери входные')]),
        ]),
      ],
      [],
      { period },
    );
    const { scoring } = await analyse(empty, { targetCpa: 1000 });
    // входные: 8000 ≥ 2 × 1000 → stop. металлические 1500 < 2000 (hold) and стальные (10 clicks, collect data) are the campaign's items.
    expect(ofCheck(scoring.findings, 'keyword.action_stop').map((finding) => finding.target.label)).toEqual(['двери входные']);
    const wasted = ofCheck(scoring.findings, 'stats.wasted_spend')[0];
    expect(wasted).toMatchObject({ target: { label: 'Пустая' }, count: 2, money: 2400, moneyPerMonth: 2400 });
    expect(wasted.items!.map((item) => [item.target.label, item.money])).toEqual([
      ['двери металлические', 1500],
      ['двери стальные', 900],
    ]);
    // Its weight stays on the campaign (one problem there), not on each keyword.
    expect(scoring.keywords.find((item) => item.target.label === 'двери металлические')!.score).toBe(100);
  });
});

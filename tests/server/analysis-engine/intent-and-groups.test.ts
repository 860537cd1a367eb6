import { describe, expect, it } from 'vitest';
import type { CampaignData, Keyword } from '../../../contract/campaigns.js';
import { ad, campaign, group, kw, stats, yandex } from '../../fixtures/analysis/builders.js';
import { analyse } from './helpers.js';

const google = (...args: Parameters<typeof yandex>): CampaignData => ({ ...yandex(...args), platform: 'google_ads' });
const findingsOf = async (data: CampaignData, checkId: string) => (await analyse(data)).scoring.findings.filter((finding) => finding.checkId === checkId);

describe('keyword.non_commercial: intent without statistics', () => {
  const one = (keywords: Keyword[], extra: Partial<CampaignData> = {}) => ({ ...yandex([campaign('Цветы', [group('Цветы', keywords, [ad('Цветы с доставкой')])])]), ...extra });

  it('flags a keyword whose words mean a non-commercial intent, with the word and its category', async () => {
    const [finding] = await findingsOf(one([kw('цветы бесплатно'), kw('цветы с доставкой')]), 'keyword.non_commercial');
    expect(finding).toMatchObject({ severity: 'high', target: { level: 'keyword', label: 'цветы бесплатно' } });
    expect(finding.evidence.slice(0, 2)).toEqual([
      { label: 'Нецелевое слово', value: 'бесплатно' },
      { label: 'Категория', value: 'Бесплатное и скачивание' },
    ]);
    expect(finding.money).toBeUndefined();
  });

  it('every category: free, DIY, jobs, essays, used goods, marketplaces', async () => {
    const phrases = ['скачать каталог цветов', 'букет своими руками', 'вакансии флорист', 'реферат о цветах', 'горшки б/у', 'цветы авито', 'цветы даром'];
    const [finding] = await findingsOf(one(phrases.map((phrase) => kw(phrase))), 'keyword.non_commercial');
    // Several in one campaign: one finding at the campaign with the keywords as items.
    expect(finding.count).toBe(7);
    expect(finding.target.level).toBe('campaign');
    expect(finding.items!.map((item) => [item.target.label, item.evidence[0].value, item.evidence[1].value])).toEqual([
      ['скачать каталог цветов', 'скачать', 'Бесплатное и скачивание'],
      ['букет своими руками', 'своими руками', 'Информационные и «своими руками»'],
      ['вакансии флорист', 'вакансии', 'Работа и вакансии'],
      ['реферат о цветах', 'реферат', 'Информационные и «своими руками»'],
      ['горшки б/у', 'б/у', 'Б/у и объявления'],
      ['цветы авито', 'авито', 'Б/у и объявления'],
      ['цветы даром', 'даром', 'Бесплатное и скачивание'],
    ]);
  });

  it('with statistics, the money is the spend of the keywords that brought nothing, summed over the items', async () => {
    const data = one(
      [kw('букет своими руками', { stats: stats(1000, 40, 1400) }), kw('цветы бесплатно', { stats: stats(500, 10, 600) }), kw('купить цветы', { stats: stats(900, 90, 5000, 9) })],
      { period: { from: '2024-03-01', to: '2024-03-30' } },
    );
    const [finding] = await findingsOf(data, 'keyword.non_commercial');
    expect(finding).toMatchObject({ count: 2, money: 2000, moneyPerMonth: 2000 });
    expect(finding.items!.map((item) => [item.target.label, item.money])).toEqual([['букет своими руками', 1400], ['цветы бесплатно', 600]]);
  });

  it('does not fire on commercial phrases, selling points or ambiguous words', async () => {
    const phrases = ['цветы с доставкой', 'бесплатная доставка цветов', 'доставка цветов бесплатно', 'ремонтные работы', 'отзывы о доставке цветов', 'купить цветы недорого'];
    expect(await findingsOf(one(phrases.map((phrase) => kw(phrase))), 'keyword.non_commercial')).toEqual([]);
  });

  it('English keywords get the English list: free flowers yes, free delivery no', async () => {
    const data = google([campaign('Flowers', [group('Flowers', [kw('free flowers'), kw('flowers free delivery'), kw('florist jobs'), kw('diy bouquet'), kw('cheap flowers')], [ad('Flowers')])])]);
    const [finding] = await findingsOf(data, 'keyword.non_commercial');
    expect(finding.items!.map((item) => [item.target.label, item.evidence[0].value])).toEqual([['free flowers', 'free'], ['florist jobs', 'jobs'], ['diy bouquet', 'diy']]);
  });
});

describe('group.catch_all: groups about everything', () => {
  const groupOf = (phrases: string[]) => yandex([campaign('Цветы', [group('Всё', phrases.map((phrase) => kw(phrase)), [ad('Цветы')]), group('Другая', [kw('купить орхидею')], [ad('Орхидеи')])])]);

  it('three unrelated topics of two keywords each: flagged, however small the group', async () => {
    const [finding] = await findingsOf(groupOf(['купить розы', 'розы цена', 'тюльпаны купить', 'тюльпаны оптом', 'горшки для цветов', 'горшок купить']), 'group.catch_all');
    expect(finding).toMatchObject({ target: { level: 'group', groupName: 'Всё' } });
    expect(finding.evidence).toEqual([
      { label: 'Несвязанных тем', value: 3, threshold: 3, unit: 'count' },
      { label: 'Фраз в группе', value: 6, unit: 'count' },
    ]);
  });

  it('two topics are not a catch-all', async () => {
    expect(await findingsOf(groupOf(['купить розы', 'розы цена', 'тюльпаны купить', 'тюльпаны оптом']), 'group.catch_all')).toEqual([]);
  });

  it('topics that share a word are one topic', async () => {
    expect(await findingsOf(groupOf(['красные розы', 'красные розы купить', 'белые розы', 'белые розы цена', 'розы кустовые', 'розы кустовые оптом']), 'group.catch_all')).toEqual([]);
  });

  it('a single keyword counts as a topic only at 20 % of the group or more', async () => {
    // 5 keywords: 3 + 1 (20 %) + 1 (20 %) → three topics.
    expect(await findingsOf(groupOf(['купить розы', 'розы цена', 'розы оптом', 'тюльпаны', 'горшки']), 'group.catch_all')).toHaveLength(1);
    // 6 keywords: 4 + 1 (17 %) + 1 (17 %) → one topic and noise.
    expect(await findingsOf(groupOf(['купить розы', 'розы цена', 'розы оптом', 'розы недорого', 'тюльпаны', 'горшки']), 'group.catch_all')).toEqual([]);
  });
});

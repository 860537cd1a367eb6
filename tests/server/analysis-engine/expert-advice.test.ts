/**
 * Advice an expert rejects (issue 28, §Why 7), on a flower shop's account: each test shows the case as the
 * walk-through met it and what a specialist expects instead.
 */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../contract/analysis-results.js';
import type { CampaignData } from '../../../contract/campaigns.js';
import { ad, campaign, group, kw, query, stats, yandex } from '../../fixtures/analysis/builders.js';
import { analyse } from './helpers.js';

const flowers = (headline: string) => ad(headline, { finalUrl: 'https://flowers.example.ru/?utm_source=yandex&utm_medium=cpc', displayUrl: 'rozy' });
const period = { from: '2024-03-01', to: '2024-03-30' };
const findingsOf = async (data: CampaignData, checkId: string): Promise<Finding[]> => (await analyse(data, { targetCpa: 500 })).scoring.findings.filter((finding) => finding.checkId === checkId);
/** Text with the formatters' no-break spaces as plain ones. */
const plain = (text: string | undefined) => (text ?? '').replace(/\s/g, ' ');
/** The labels a finding covers: its items' when it has them, else its target's. */
const labelsOf = (finding: Finding) => (finding.items ? finding.items.map((item) => item.target.label) : [finding.target.label]);

describe('duplicates are keywords that meet in one auction', () => {
  it('«розы» in a search campaign and in a РСЯ campaign are not duplicates', async () => {
    const data = yandex([
      campaign('Цветы — Поиск', [group('Розы', [kw('розы'), kw('купить розы')], [flowers('Розы с доставкой')])]),
      campaign('Цветы — РСЯ', [group('Розы', [kw('розы'), kw('купить розы')], [flowers('Розы с доставкой')])]),
    ]);
    const { semantic, scoring } = await analyse(data);
    expect(semantic.duplicates).toEqual([]);
    expect(scoring.findings.filter((finding) => finding.checkId === 'keyword.duplicate')).toEqual([]);
  });

  it('groups for Moscow and for Saint Petersburg do not compete; two groups for Moscow do', async () => {
    const data = yandex([
      campaign('Цветы — Поиск', [
        group('Розы Москва', [kw('розы с доставкой')], [flowers('Розы в Москве')], { region: 'Москва' }),
        group('Розы Питер', [kw('розы с доставкой')], [flowers('Розы в Петербурге')], { region: 'Санкт-Петербург' }),
        group('Розы МО', [kw('доставка роз')], [flowers('Розы в Подмосковье')], { region: 'Московская область' }),
      ]),
    ]);
    const { semantic } = await analyse(data);
    // Moscow and its region overlap (a city brings its region); Saint Petersburg is apart.
    expect(semantic.duplicates.map((set) => set.keywords.map((ref) => ref.groupName))).toEqual([['Розы Москва', 'Розы МО']]);
  });

  it('a search campaign and one on search and networks do meet', async () => {
    const data = yandex([
      campaign('Цветы — Поиск', [group('Розы', [kw('розы с доставкой')], [flowers('Розы')])]),
      campaign('Цветы', [group('Розы', [kw('доставка роз')], [flowers('Розы')])], { placement: 'both' }),
    ]);
    const { semantic } = await analyse(data);
    expect(semantic.duplicates).toHaveLength(1);
  });
});

describe('a duplicate card keeps the copy with the better results and says so', () => {
  const data = yandex(
    [
      campaign('Цветы — Поиск', [
        group('Розы', [kw('розы с доставкой', { stats: stats(4000, 120, 6000, 2) })], [flowers('Розы с доставкой')]),
        group('Доставка', [kw('доставка роз', { stats: stats(9000, 400, 19000, 32) })], [flowers('Доставка роз')]),
      ]),
    ],
    [],
    { period },
  );

  it('the copy with 32 conversions stays, the other is the one to delete', async () => {
    const { semantic, scoring } = await analyse(data);
    expect(semantic.duplicates[0].keywords.map((ref) => ref.label)).toEqual(['доставка роз', 'розы с доставкой']);
    const merge = semantic.crossMinus.find((item) => item.remove.length > 0)!;
    expect(merge.target.label).toBe('доставка роз');
    expect(merge.remove.map((ref) => ref.label)).toEqual(['розы с доставкой']);
    expect(merge.reason).toContain('Остаётся «доставка роз» (у неё больше конверсий: 32)');

    const [card] = scoring.findings.filter((finding) => finding.checkId === 'keyword.duplicate');
    expect(labelsOf(card)).toEqual(['розы с доставкой']);
    expect(card.fix).toBe('Оставьте «доставка роз» (у неё больше конверсий: 32), а эту копию удалите, перенеся её минус-слова в оставленную фразу.');
    expect(plain(card.explanation)).toContain('у этой копии 2 конверсии и 6 000 ₽ расхода, у «доставка роз» — 32 конверсии и 19 000 ₽');
    expect(card.evidence).toContainEqual({ label: 'Оставить фразу', value: 'доставка роз' });
  });

  it('several copies in a campaign: one card whose items are only the copies to delete', async () => {
    const many = yandex(
      [
        campaign('Цветы — Поиск', [
          group('Розы', [kw('розы с доставкой', { stats: stats(4000, 120, 6000, 2) }), kw('доставка розы', { stats: stats(100, 3, 90, 0) })], [flowers('Розы с доставкой')]),
          group('Доставка', [kw('доставка роз', { stats: stats(9000, 400, 19000, 32) })], [flowers('Доставка роз')]),
        ]),
      ],
      [],
      { period },
    );
    const [card] = await findingsOf(many, 'keyword.duplicate');
    expect(labelsOf(card).sort()).toEqual(['доставка розы', 'розы с доставкой']);
    expect(card.fix).toContain('у каждой указано, какую фразу оставить');
    expect(card.items!.every((item) => item.evidence.some((entry) => entry.label === 'Оставить фразу' && entry.value === 'доставка роз'))).toBe(true);
  });
});

describe('a negative the campaign already has', () => {
  // The builders' campaigns have «бесплатно» among their negatives; «цветы бесплатно» still spent 3 000 ₽.
  const data = yandex(
    [
      campaign('Цветы — Поиск', [
        group('Цветы', [kw('цветы бесплатно', { stats: stats(2000, 60, 3000, 0) }), kw('купить цветы', { stats: stats(5000, 200, 12000, 20) })], [flowers('Цветы с доставкой')]),
      ]),
    ],
    [query('цветы бесплатно доставка', stats(900, 40, 2000, 0), { campaignName: 'Цветы — Поиск', groupName: 'Цветы', keyword: 'цветы бесплатно' })],
    { period },
  );

  it('is never advised again, and the card says why the keyword still spends (Direct does not apply a negative the keyword contains)', async () => {
    const { scoring } = await analyse(data);
    const [card] = scoring.findings.filter((finding) => finding.checkId === 'keyword.non_commercial');
    expect(card.target.label).toBe('цветы бесплатно');
    expect(card.fix).not.toContain('добавьте');
    expect(card.fix).toBe('Остановите фразу: минус-слово «бесплатно» в кампании уже есть и отсекает такие запросы у остальных фраз.');
    expect(card.explanation).toContain('Директ не применяет минус-слово к фразе, в которой оно есть');
    expect(card.money).toBe(3000);
  });

  it('the keyword is not also reported as switched off by that negative', async () => {
    const { scoring } = await analyse(data);
    const said = scoring.findings.filter((finding) => labelsOf(finding).includes('цветы бесплатно')).map((finding) => `${finding.explanation} ${finding.fix}`);
    expect(said.join(' ')).not.toMatch(/отключает саму фразу/);
    expect(scoring.findings.filter((finding) => finding.checkId === 'keyword.conflicting_operators')).toEqual([]);
  });

  it('its query is neither «already blocked» nor given the same negative again', async () => {
    const { semantic } = await analyse(data);
    expect(semantic.coveredQueries).toEqual([]);
    expect(semantic.negatives.filter((negative) => negative.level === 'campaign' && negative.text === 'бесплатно')).toEqual([]);
  });

  it('another contained campaign negative is reported as not applied, not as switching the keyword off', async () => {
    const other = yandex([campaign('Цветы', [group('Опт', [kw('розы оптом')], [flowers('Розы оптом')])], { negativeKeywords: ['опт'] })]);
    const [card] = await findingsOf(other, 'keyword.conflicting_operators');
    expect(card.explanation).toBe('Во фразе «розы оптом»: минус-слово кампании «опт» входит в саму фразу, а такое минус-слово Директ к фразе не применяет: она показывается и по запросам с «опт».');
    expect(card.fix).toBe('Решите, нужны ли запросы с «опт»: если нет — остановите фразу, если да — уберите «опт» из минус-слов кампании.');
  });

  it('on Google Ads the negative does block the keyword: no money counted for a keyword that cannot spend any more', async () => {
    const google: CampaignData = { ...yandex([campaign('Flowers', [group('Flowers', [kw('free flowers', { stats: stats(900, 30, 3000, 0) })], [flowers('Flowers')])], { negativeKeywords: ['free'] })], [], { period }), platform: 'google_ads' };
    const [card] = await findingsOf(google, 'keyword.non_commercial');
    expect(card.fix).toBe('Удалите фразу: минус-слово «free» кампании её уже отключило.');
    expect(card.money).toBeUndefined();
  });
});

describe('bid advice a specialist would give', () => {
  const account = (keywordStats: ReturnType<typeof stats>, bid?: number) =>
    yandex([campaign('Цветы — Поиск', [group('Розы', [kw('розы премиум', { stats: keywordStats, bid }), kw('купить розы', { stats: stats(9000, 600, 15000, 30) })], [flowers('Розы')])])], [], { period });

  it('a conversion 9 times dearer than the target: no «lower the bid 9 times», the click price that pays off and one bounded step', async () => {
    // 300 clicks at 30 ₽, 2 conversions: 4 500 ₽ a conversion against a target of 500 ₽.
    const [card] = await findingsOf(account(stats(6000, 300, 9000, 2), 45), 'keyword.action_lower_bid');
    expect(plain(card.explanation)).toContain('стоит 4 500 ₽ — в 9 раз дороже');
    expect(card.fix).not.toMatch(/примерно в|9,0/);
    expect(plain(card.fix)).toBe(
      'Ставкой этот разрыв не закрыть: чтобы конверсия стоила 500 ₽, клик должен стоить не дороже 3 ₽ — в 9 раз дешевле нынешних 30 ₽. Проверьте запросы и страницу фразы и остановите её, если она не приводит покупателей; если оставляете — снизьте ставку на 30 % (ставка 45 ₽ → 32 ₽) и через 1–2 недели сравните цену конверсии.',
    );
    expect(card.evidence).toContainEqual({ label: 'Цена клика, при которой конверсия стоит ориентир', value: 3.33, unit: 'rub' });
  });

  it('a conversion 1,6 times dearer: a first cut of at most 30 % towards a named click price', async () => {
    // 100 clicks at 40 ₽, 5 conversions: 800 ₽ against 500 ₽; a click of 25 ₽ pays off.
    const [card] = await findingsOf(account(stats(3000, 100, 4000, 5)), 'keyword.action_lower_bid');
    expect(plain(card.explanation)).toContain('в 1,6 раза дороже');
    expect(plain(card.fix)).toBe('Снизьте ставку по шагам: сначала на 30 % и через 1–2 недели сравните цену конверсии; цель — клик около 25 ₽ вместо 40 ₽.');
  });

  it('a cheap conversion: raise by at most 20 %, with the click price that still pays off', async () => {
    // 100 clicks at 20 ₽, 10 conversions: 200 ₽ against 500 ₽; a click pays off up to 50 ₽.
    const [card] = await findingsOf(account(stats(3000, 100, 2000, 10), 20), 'keyword.action_raise_bid');
    expect(plain(card.fix)).toBe('Повысьте ставку на 20 % (ставка 20 ₽ → 24 ₽) и через 1–2 недели сравните цену конверсии: конверсия окупается, пока клик стоит не дороже 50 ₽ (сейчас 20 ₽).');
  });
});

describe('clusters by meaning', () => {
  const shop = yandex([
    campaign('Цветы — Поиск', [
      group('Цветы', [kw('доставка цветов'), kw('цветы с доставкой'), kw('купить цветы'), kw('цветы недорого'), kw('букет цветов')], [flowers('Цветы с доставкой')]),
      group('Розы', [kw('розы'), kw('купить розы')], [flowers('Розы')]),
      group('Разное', [kw('тюльпаны'), kw('пионы'), kw('орхидея в горшке')], [flowers('Цветы')]),
    ]),
  ]);

  it('the count the screen shows is the number of clusters listed', async () => {
    const { semantic } = await analyse(shop);
    expect(semantic.clusters.length).toBeGreaterThan(0);
    expect(semantic.counts.clusters).toBe(semantic.clusters.length);
  });

  it('«цветов» and «цветы» are one word, «цветок», in a flower shop: one cluster, and the same words are duplicates', async () => {
    const { semantic } = await analyse(shop);
    const flowerClusters = semantic.clusters.filter((cluster) => cluster.lemmas.includes('цветок') || cluster.lemmas.includes('цвет'));
    expect(flowerClusters.map((cluster) => cluster.lemmas)).toEqual([['цветок']]);
    expect(flowerClusters[0].keywords.map((ref) => ref.label)).toEqual(expect.arrayContaining(['доставка цветов', 'цветы с доставкой', 'купить цветы']));
    expect(semantic.duplicates.map((set) => set.keywords.map((ref) => ref.label).sort())).toContainEqual(['доставка цветов', 'цветы с доставкой']);
  });

  it('in a paint shop the same form «цветов» reads as «цвет»', async () => {
    const paint = yandex([campaign('Краски', [group('Краски', [kw('краска цветов'), kw('цвета краски'), kw('краска цвет слоновой кости')], [flowers('Краски')])])]);
    const { semantic } = await analyse(paint);
    expect(semantic.clusters.map((cluster) => cluster.lemmas)).toContainEqual(['краска', 'цвет']);
  });
});

import { describe, expect, it } from 'vitest';
import { parseNegativeList, parseYandexPhrase } from '../../../server/projects/importers/phrases.js';
import { readCampaignBlock } from '../../../server/projects/importers/yandex-direct.js';
import { campaignNamed, dataOf, groupNamed, importFixtures } from './helpers.js';

const CAMPAIGN = 'Диваны Комфорт — Поиск — Москва';

describe('Yandex Direct phrases', () => {
  it('splits minus-words off a phrase and keeps the operators', () => {
    expect(parseYandexPhrase('купить диван -бесплатно -б/у')).toEqual({ phrase: 'купить диван', negativeWords: ['бесплатно', 'б/у'], matchType: 'broad', isAutotargeting: false });
    expect(parseYandexPhrase('"угловой диван"')).toMatchObject({ phrase: '"угловой диван"', negativeWords: [], matchType: 'phrase' });
    expect(parseYandexPhrase('"[прямой диван]"')).toMatchObject({ phrase: '"[прямой диван]"', matchType: 'exact' });
    expect(parseYandexPhrase('"!купить !диван"')).toMatchObject({ matchType: 'exact' });
    expect(parseYandexPhrase('диван на !заказ +в москве -икеа')).toMatchObject({ phrase: 'диван на !заказ +в москве', negativeWords: ['икеа'] });
    expect(parseYandexPhrase('(раскладной|выкатной) диван')).toMatchObject({ phrase: '(раскладной|выкатной) диван', negativeWords: [] });
    // A hyphen inside a word, quotes or brackets is not a minus-word.
    expect(parseYandexPhrase('диван-кровать с ящиком -детский')).toMatchObject({ phrase: 'диван-кровать с ящиком', negativeWords: ['детский'] });
    expect(parseYandexPhrase('"диван -кровать"')).toMatchObject({ phrase: '"диван -кровать"', negativeWords: [] });
    expect(parseYandexPhrase('---autotargeting')).toEqual({ phrase: '---autotargeting', negativeWords: [], matchType: 'broad', isAutotargeting: true });
  });

  it('reads minus-word lists written with «-», commas, «||» or line breaks', () => {
    expect(parseNegativeList('-бесплатно -своими руками -б/у')).toEqual(['бесплатно', 'своими руками', 'б/у']);
    expect(parseNegativeList('бесплатно, б/у')).toEqual(['бесплатно', 'б/у']);
    expect(parseNegativeList('бесплатно||своими руками\nавито')).toEqual(['бесплатно', 'своими руками', 'авито']);
    expect(parseNegativeList('')).toEqual([]);
  });
});

describe('Yandex Direct export (CSV)', () => {
  const encodings = [
    ['direct-export-utf16.tsv', 'utf-16le', '\t'],
    ['direct-export-utf16-nobom.tsv', 'utf-16le', '\t'],
    ['direct-export-cp1251.csv', 'windows-1251', ';'],
    ['direct-export-utf8-bom.csv', 'utf-8-bom', ';'],
    ['direct-export-utf8.tsv', 'utf-8', '\t'],
  ] as const;

  it.each(encodings)('%s: detects %s and the delimiter, and imports the same account', async (file, encoding, delimiter) => {
    const result = await importFixtures([file]);
    expect(result.detected).toEqual([{ file, kind: 'yandex_direct', encoding, delimiter, headerRow: 1, platform: 'yandex_direct' }]);
    expect(result.problems).toEqual([]);
    expect(result.counts).toEqual({ campaigns: 1, groups: 2, ads: 4, keywords: 6, searchQueries: 0 });
    const reference = dataOf(await importFixtures(['direct-export-utf8.tsv']));
    expect(dataOf(result)).toEqual(reference);
  });

  it('reads the campaign, its minus-phrases and type', async () => {
    const data = dataOf(await importFixtures(['direct-export-utf16.tsv']));
    expect(data.platform).toBe('yandex_direct');
    expect(data.currency).toBe('RUB');
    const campaign = campaignNamed(data, CAMPAIGN);
    expect(campaign).toMatchObject({ externalId: '51234567', type: 'текстово-графические объявления', currency: 'RUB', platform: 'yandex_direct' });
    expect(campaign.negativeKeywords).toEqual(['бесплатно', 'своими руками', 'б/у']);
  });

  it('groups rows by «Доп. объявление группы»: «-» opens a group, «+» adds an ad to it with blank group cells', async () => {
    const campaign = campaignNamed(dataOf(await importFixtures(['direct-export-utf8.tsv'])), CAMPAIGN);
    expect(campaign.groups.map((group) => [group.name, group.externalId, group.keywords.length, group.ads.length])).toEqual([
      ['Угловые диваны', '4001', 4, 2],
      ['Диваны-кровати', '4002', 2, 2],
    ]);
    const corner = groupNamed(campaign, 'Угловые диваны');
    // The first ad repeats on every phrase row of the group: kept once.
    expect(corner.ads.map((ad) => ad.externalId)).toEqual(['7001', '7002']);
    expect(corner.ads[1]).toMatchObject({ kind: 'text', headlines: ['Угловой диван за 1 день', 'Москва и область'], isMobile: true, callouts: ['Рассрочка 0%'] });
    expect(corner.region).toBe('Москва');
  });

  it('reads keywords: minus-words, operators, autotargeting, bids, network bids and statuses', async () => {
    const corner = groupNamed(campaignNamed(dataOf(await importFixtures(['direct-export-utf8.tsv'])), CAMPAIGN), 'Угловые диваны');
    expect(corner.keywords).toEqual([
      { externalId: '9001', phrase: 'купить угловой диван', negativeWords: ['бесплатно', 'б/у'], matchType: 'broad', bid: 35.5, networkBid: 12, status: 'Активна' },
      { externalId: '9002', phrase: '"угловой диван"', negativeWords: [], matchType: 'phrase', bid: 28, status: 'Активна' },
      { externalId: '9003', phrase: 'угловой диван на !заказ +в москве', negativeWords: ['икеа'], matchType: 'broad', bid: 1200, status: 'Остановлена' },
      { externalId: '9004', phrase: '---autotargeting', negativeWords: [], matchType: 'broad', isAutotargeting: true, bid: 20, status: 'Активна' },
    ]);
    expect(corner.negativeKeywords).toEqual(['детский', 'кукольный']);
  });

  it('reads a text ad with sitelinks and callouts split on «||», and an image ad', async () => {
    const campaign = campaignNamed(dataOf(await importFixtures(['direct-export-utf8.tsv'])), CAMPAIGN);
    const [first] = groupNamed(campaign, 'Угловые диваны').ads;
    expect(first).toEqual({
      externalId: '7001',
      kind: 'text',
      headlines: ['Угловые диваны от фабрики', 'Доставка по Москве за 1 день'],
      texts: ['Более 200 моделей в наличии. Рассрочка 0%. Гарантия 3 года.'],
      finalUrl: 'https://divany-komfort.example/uglovye',
      displayUrl: 'uglovye-divany',
      sitelinks: [
        { title: 'Каталог', description: 'Более 200 моделей', url: 'https://divany-komfort.example/catalog' },
        { title: 'Акции', description: 'Скидки до 30%', url: 'https://divany-komfort.example/sale' },
        { title: 'Доставка', description: 'Бесплатно по Москве', url: 'https://divany-komfort.example/delivery' },
        { title: 'Отзывы', url: 'https://divany-komfort.example/reviews' },
      ],
      callouts: ['Рассрочка 0%', 'Гарантия 3 года', 'Сборка бесплатно'],
      status: 'Активно',
    });
    const beds = groupNamed(campaign, 'Диваны-кровати');
    expect(beds.negativeKeywords).toEqual(['икеа', 'авито']);
    expect(beds.keywords.map((keyword) => [keyword.phrase, keyword.negativeWords])).toEqual([
      ['диван-кровать с ящиком', ['детский']],
      ['(раскладной|выкатной) диван кровать', []],
    ]);
    expect(beds.ads[1]).toEqual({
      externalId: '7004',
      kind: 'image',
      headlines: [],
      texts: [],
      finalUrl: 'https://divany-komfort.example/divany-krovati',
      image: 'divan-krovat_1080x607.jpg',
      sitelinks: [],
      callouts: [],
      status: 'Черновик',
      // The interface's «Черновик» is a moderation status too (importers/moderation-columns.ts).
      moderation: { status: 'draft' },
    });
  });

  it('reports a bad bid as a row-level warning with row and column, and still imports the row', async () => {
    const result = await importFixtures(['direct-bad-number.csv']);
    expect(result.problems).toEqual([
      { file: 'direct-bad-number.csv', row: 3, column: 'Ставка', severity: 'warning', message: 'Не число: «28,5о». Значение пропущено' },
      { file: 'direct-bad-number.csv', row: 4, column: 'Ставка', severity: 'warning', message: 'Отрицательное значение «-10». Значение пропущено' },
    ]);
    const corner = groupNamed(campaignNamed(dataOf(result), CAMPAIGN), 'Угловые диваны');
    expect(corner.keywords[1]).toMatchObject({ phrase: '"угловой диван"' });
    expect(corner.keywords[1].bid).toBeUndefined();
    expect(result.counts.keywords).toBe(6);
  });

  it('refuses a file without the group columns with a clear Russian error', async () => {
    const result = await importFixtures(['direct-missing-group.csv']);
    expect(result.data).toBeNull();
    expect(result.problems).toEqual([
      {
        file: 'direct-missing-group.csv',
        row: 1,
        severity: 'error',
        message: 'Не найден обязательный столбец «Название группы» (или «ID группы», «Номер группы»)',
      },
    ]);
  });
});

describe('Yandex Direct export (Direct Commander XLSX)', () => {
  it('finds the header below the campaign block and reads the block', async () => {
    const result = await importFixtures(['direct-commander.xlsx']);
    expect(result.detected).toEqual([
      { file: 'direct-commander.xlsx', kind: 'yandex_direct', encoding: 'xlsx', sheet: 'Тексты', headerRow: 14, platform: 'yandex_direct' },
    ]);
    expect(result.problems).toEqual([
      { file: 'direct-commander.xlsx', severity: 'warning', message: 'Лист «Инструкция» не распознан и пропущен' },
    ]);
    const campaign = campaignNamed(dataOf(result), 'Диваны Комфорт — Комбинаторные');
    expect(campaign).toMatchObject({ externalId: '51239999', type: 'текстово-графические объявления', currency: 'RUB', dailyBudget: 4500 });
    expect(campaign.negativeKeywords).toEqual(['бесплатно', 'вакансии', 'своими руками']);
    expect(result.counts).toEqual({ campaigns: 1, groups: 2, ads: 3, keywords: 3, searchQueries: 0 });
  });

  it('reads repeated «Заголовок 1»/«Заголовок 2» by position: classic ad first, combinatorial block second', async () => {
    const campaign = campaignNamed(dataOf(await importFixtures(['direct-commander.xlsx'])), 'Диваны Комфорт — Комбинаторные');
    const straight = groupNamed(campaign, 'Прямые диваны');
    expect(straight.ads.map((ad) => [ad.externalId, ad.kind, ad.headlines, ad.texts])).toEqual([
      ['8001', 'text', ['Прямые диваны от 24 990 ₽', 'Фабрика «Диваны Комфорт»'], ['Ткани и цвета на выбор. Доставка по Москве бесплатно.']],
      [
        '8002',
        'combinatorial',
        ['Прямые диваны в наличии', 'Доставка за 1 день', 'Рассрочка 0%', 'Гарантия 3 года', 'Более 50 тканей'],
        ['Соберём бесплатно в день доставки.', 'Вывезем старый диван.'],
      ],
    ]);
    expect(straight.keywords.map((keyword) => [keyword.phrase, keyword.negativeWords, keyword.matchType, keyword.bid])).toEqual([
      ['купить прямой диван', ['бу'], 'broad', 24.5],
      ['"[прямой диван]"', [], 'exact', 30],
    ]);
    expect(straight.ads[0].sitelinks).toEqual([
      { title: 'Каталог', description: 'Все модели', url: 'https://divany-komfort.example/catalog' },
      { title: 'Рассрочка', description: '0% на 12 месяцев', url: 'https://divany-komfort.example/credit' },
    ]);
    expect(straight.ads[0].callouts).toEqual(['Гарантия 3 года', 'Сборка бесплатно']);
    expect(straight.region).toBe('Москва и Московская область');
  });
});

describe('the Direct campaign block above the header', () => {
  it('reads «label | value» rows, «label: value» cells and a titles row over a values row', () => {
    expect(
      readCampaignBlock([
        { number: 1, cells: ['Название кампании:', '', 'Диваны — РСЯ'] },
        { number: 2, cells: ['Валюта: RUB'] },
        { number: 4, cells: ['Тип кампании', '№ заказа', 'Минус-фразы на кампанию'] },
        { number: 5, cells: ['Текстово-графические объявления', '51230000', '-бесплатно -б/у'] },
      ]),
    ).toEqual({ name: 'Диваны — РСЯ', currency: 'RUB', type: 'Текстово-графические объявления', id: '51230000', negatives: ['бесплатно', 'б/у'] });
  });
});

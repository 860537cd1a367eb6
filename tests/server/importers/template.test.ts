import { describe, expect, it } from 'vitest';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { buildTemplateCsv, buildTemplateFile, campaignDataToTemplateCsv, templateColumns, templateFileName } from '../../../server/projects/importers/template.js';
import { campaignNamed, dataOf, fixture, groupNamed, importFixtures, textFile } from './helpers.js';

describe('our CSV template', () => {
  it('is a UTF-8 file with a BOM, «;»-separated, with the documented header and two example rows', () => {
    const bytes = buildTemplateFile();
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = buildTemplateCsv().trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0].split(';')).toEqual([...templateColumns]);
    expect(templateColumns).toContain('Минус-слова группы');
    expect(templateFileName.endsWith('.csv')).toBe(true);
    // The committed fixture is the generator's output.
    expect(Buffer.from(fixture('template.csv').bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it('imports its own example rows', async () => {
    const result = await importFixtures(['template.csv']);
    expect(result.detected).toEqual([{ file: 'template.csv', kind: 'template', encoding: 'utf-8-bom', delimiter: ';', headerRow: 1 }]);
    expect(result.problems).toEqual([]);
    const data = dataOf(result);
    expect(data.platform).toBe('yandex_direct');
    const campaign = campaignNamed(data, 'Диваны — Поиск — Москва');
    expect(campaign).toMatchObject({ type: 'поиск', dailyBudget: 3000, negativeKeywords: ['бесплатно', 'б/у', 'своими руками'] });
    const group = groupNamed(campaign, 'Угловые диваны');
    expect(group).toMatchObject({ region: 'Москва', negativeKeywords: ['детский'] });
    expect(group.keywords).toEqual([
      {
        phrase: 'купить угловой диван',
        negativeWords: ['авито'],
        matchType: 'broad',
        bid: 35.5,
        status: 'Активна',
        stats: { impressions: 1240, clicks: 86, cost: 2915.4, conversions: 4 },
      },
      { phrase: '"угловой диван"', negativeWords: [], matchType: 'phrase', bid: 28, status: 'Активна', stats: { impressions: 530, clicks: 31, cost: 868, conversions: 1 } },
    ]);
    expect(group.ads).toEqual([
      {
        kind: 'text',
        headlines: ['Угловые диваны от фабрики', 'Доставка по Москве за 1 день'],
        texts: ['Более 200 моделей в наличии. Рассрочка 0%. Гарантия 3 года.'],
        finalUrl: 'https://divany-komfort.example/uglovye',
        displayUrl: 'uglovye-divany',
        sitelinks: [
          { title: 'Каталог', description: 'Все модели', url: 'https://divany-komfort.example/catalog' },
          { title: 'Акции', description: 'Скидки недели', url: 'https://divany-komfort.example/sale' },
          { title: 'Доставка', description: 'Бесплатно по Москве', url: 'https://divany-komfort.example/delivery' },
        ],
        callouts: ['Рассрочка 0%', 'Гарантия 3 года'],
        status: 'Активно',
      },
    ]);
  });

  it('round-trips a Yandex Direct account: export to the template and import gives the same campaigns', async () => {
    const original = dataOf(await importFixtures(['direct-export-utf8.tsv', 'yandex-stats.csv']));
    const csv = campaignDataToTemplateCsv(original);
    const again = dataOf(await importCampaignFiles([textFile('round-trip.csv', csv)], { platform: 'yandex_direct' }));
    const shape = (data: typeof original) =>
      data.campaigns.map((campaign) => ({
        name: campaign.name,
        type: campaign.type,
        negativeKeywords: campaign.negativeKeywords,
        groups: campaign.groups.map((group) => ({
          name: group.name,
          region: group.region,
          negativeKeywords: group.negativeKeywords,
          keywords: group.keywords.map(({ phrase, negativeWords, matchType, bid, status, stats, isAutotargeting }) => ({ phrase, negativeWords, matchType, bid, status, stats, isAutotargeting })),
          ads: group.ads
            .filter((ad) => ad.headlines.length > 0)
            .map(({ headlines, texts, finalUrl, displayUrl, sitelinks, callouts, status }) => ({ headlines, texts, finalUrl, displayUrl, sitelinks, callouts, status })),
        })),
      }));
    expect(shape(again)).toEqual(shape(original));
  });

  it('round-trips a Google Ads account with match types, negatives and paths', async () => {
    const original = dataOf(await importFixtures(['google-editor-utf16.csv']));
    const again = dataOf(await importCampaignFiles([textFile('round-trip.csv', campaignDataToTemplateCsv(original))], { platform: 'google_ads' }));
    const group = (data: typeof original) => groupNamed(campaignNamed(data, 'Диваны Комфорт — Google Поиск'), 'Угловые диваны');
    expect(group(again).keywords.map((keyword) => [keyword.phrase, keyword.matchType, keyword.bid])).toEqual(
      group(original).keywords.map((keyword) => [keyword.phrase, keyword.matchType, keyword.bid]),
    );
    expect(group(again).negativeKeywords).toEqual(group(original).negativeKeywords);
    expect(group(again).ads[0]).toMatchObject({ kind: 'responsive_search', headlines: group(original).ads[0].headlines, paths: ['divany', 'uglovye'] });
    expect(campaignNamed(again, 'Диваны Комфорт — Google Поиск').negativeKeywords).toEqual(['[б/у]', 'вакансии']);
  });

  it('refuses a template without the «Группа» column', async () => {
    const csv = 'Кампания;Фраза;Тип соответствия;Минус-слова кампании\nДиваны;купить диван;;\n';
    const result = await importCampaignFiles([textFile('шаблон.csv', csv)]);
    expect(result.data).toBeNull();
    expect(result.problems).toEqual([{ file: 'шаблон.csv', row: 1, severity: 'error', message: 'Не найден обязательный столбец «Группа»' }]);
  });

  it('warns about rows without a group and about an unknown match type', async () => {
    const csv = ['Кампания;Группа;Фраза;Тип соответствия;Ставка', 'Диваны;;купить диван;;', 'Диваны;Кресла;кресло;примерное;12,5'].join('\n');
    const result = await importCampaignFiles([textFile('шаблон.csv', csv)]);
    expect(result.problems).toEqual([
      { file: 'шаблон.csv', row: 2, column: 'Группа', severity: 'warning', message: 'Не указана группа объявлений: строка пропущена' },
      { file: 'шаблон.csv', row: 3, column: 'Тип соответствия', severity: 'warning', message: 'Неизвестный тип соответствия «примерное»: считаем его широким' },
    ]);
    expect(result.counts).toMatchObject({ campaigns: 1, groups: 1, keywords: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { campaignNamed, dataOf, fixture, groupNamed, importFixtures, textFile } from './helpers.js';

const CAMPAIGN = 'Диваны Комфорт — Поиск — Москва';
const GOOGLE_CAMPAIGN = 'Диваны Комфорт — Google Поиск';

describe('Yandex Direct statistics report merged onto the export', () => {
  it('detects the report below its title and period lines', async () => {
    const result = await importFixtures(['direct-export-utf8.tsv', 'yandex-stats.csv']);
    expect(result.detected[1]).toEqual({ file: 'yandex-stats.csv', kind: 'yandex_stats', encoding: 'utf-8-bom', delimiter: ';', headerRow: 4, platform: 'yandex_direct', statsRows: 7 });
  });

  it('sums daily rows onto keywords by id, by phrase with operators, and onto autotargeting; takes the period from the dates', async () => {
    const result = await importFixtures(['direct-export-utf8.tsv', 'yandex-stats.csv']);
    const data = dataOf(result);
    expect(data.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    const campaign = campaignNamed(data, CAMPAIGN);
    const corner = groupNamed(campaign, 'Угловые диваны');
    expect(corner.keywords.map((keyword) => [keyword.externalId, keyword.stats])).toEqual([
      ['9001', { impressions: 2220, clicks: 147, cost: 4925.4, conversions: 6 }],
      ['9002', { impressions: 530, clicks: 31, cost: 868, conversions: 1 }],
      ['9003', undefined],
      ['9004', { impressions: 210, clicks: 9, cost: 180.5, conversions: 0 }],
    ]);
    const beds = groupNamed(campaign, 'Диваны-кровати');
    expect(beds.keywords.map((keyword) => keyword.stats)).toEqual([
      { impressions: 410, clicks: 22, cost: 702.3, conversions: 1 },
      { impressions: 0, clicks: 3, cost: 90, conversions: 0 },
    ]);
    // The «Итого» row is not counted anywhere, and the import brings no new keywords.
    expect(result.counts.keywords).toBe(6);
  });

  it('reports a bad number and an unmatched row as warnings with their rows', async () => {
    const result = await importFixtures(['direct-export-utf8.tsv', 'yandex-stats.csv']);
    expect(result.problems).toEqual([
      { file: 'yandex-stats.csv', row: 11, column: 'Показы', severity: 'warning', message: 'Не число: «12о». Значение пропущено' },
      {
        file: 'yandex-stats.csv',
        row: 10,
        severity: 'warning',
        message: 'Строка статистики не сопоставлена ни с одной фразой или объявлением загруженных кампаний',
      },
    ]);
  });

  it('builds the tree from the report when no campaign export came with it', async () => {
    const result = await importFixtures(['yandex-stats.csv']);
    const campaign = campaignNamed(dataOf(result), CAMPAIGN);
    expect(campaign.externalId).toBe('51234567');
    expect(result.counts).toEqual({ campaigns: 1, groups: 2, ads: 0, keywords: 6, searchQueries: 0 });
    expect(groupNamed(campaign, 'Угловые диваны').keywords[0]).toMatchObject({
      externalId: '9001',
      phrase: 'купить угловой диван',
      negativeWords: ['бесплатно', 'б/у'],
      stats: { impressions: 2220, clicks: 147, cost: 4925.4, conversions: 6 },
    });
    expect(result.problems).toContainEqual({
      file: 'yandex-stats.csv',
      severity: 'warning',
      message: 'Среди файлов нет структуры кампаний: кампании, группы и фразы собраны из отчёта статистики',
    });
  });

  it('merges a campaign-level report onto the campaign and an ad-level one onto ads by id', async () => {
    const report = ['Кампания;№ Объявления;Показы;Клики;Расход, руб.;Конверсии', `${CAMPAIGN};7002;300;12;410,50;1`, `${CAMPAIGN};;5 000;200;7 000;9`].join('\n');
    const data = dataOf(await importCampaignFiles([fixture('direct-export-utf8.tsv'), textFile('ads.csv', report)]));
    const campaign = campaignNamed(data, CAMPAIGN);
    expect(campaign.stats).toEqual({ impressions: 5000, clicks: 200, cost: 7000, conversions: 9 });
    expect(groupNamed(campaign, 'Угловые диваны').ads[1].stats).toEqual({ impressions: 300, clicks: 12, cost: 410.5, conversions: 1 });
  });
});

describe('Yandex Direct search-query report (XLSX)', () => {
  it('collects queries, sums repeated ones, skips totals and takes the period from the line above the header', async () => {
    const result = await importFixtures(['direct-export-utf8.tsv', 'yandex-search-queries.xlsx']);
    expect(result.detected[1]).toMatchObject({ kind: 'yandex_search_queries', encoding: 'xlsx', sheet: 'Поисковые запросы', headerRow: 4 });
    const data = dataOf(result);
    expect(data.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(data.searchQueries).toEqual([
      {
        query: 'купить угловой диван недорого',
        campaignName: CAMPAIGN,
        groupName: 'Угловые диваны',
        keyword: 'купить угловой диван -бесплатно -б/у',
        stats: { impressions: 520, clicks: 40, cost: 1350.5, conversions: 3 },
      },
      { query: 'угловой диван бесплатно отдам', campaignName: CAMPAIGN, groupName: 'Угловые диваны', keyword: '"угловой диван"', stats: { impressions: 95, clicks: 7, cost: 196, conversions: 0 } },
      {
        query: 'угловой диван своими руками чертежи',
        campaignName: CAMPAIGN,
        groupName: 'Угловые диваны',
        keyword: '---autotargeting',
        stats: { impressions: 60, clicks: 4, cost: 80, conversions: 0 },
      },
      {
        query: 'диван кровать икеа',
        campaignName: CAMPAIGN,
        groupName: 'Диваны-кровати',
        keyword: 'диван-кровать с ящиком -детский',
        stats: { impressions: 140, clicks: 12, cost: 384, conversions: 0 },
      },
    ]);
    expect(result.counts.searchQueries).toBe(4);
    expect(result.problems).toEqual([
      { file: 'yandex-search-queries.xlsx', row: 10, column: 'Поисковый запрос', severity: 'warning', message: 'Пустой поисковый запрос: строка пропущена' },
    ]);
  });
});

describe('Google Ads reports merged onto the Editor export', () => {
  it('puts keyword-report rows on keywords by campaign, group, text and match type', async () => {
    const result = await importFixtures(['google-editor-utf16.csv', 'google-keyword-report.csv']);
    expect(result.detected[1]).toMatchObject({ kind: 'google_stats', encoding: 'utf-8', delimiter: ',', headerRow: 3, platform: 'google_ads' });
    expect(result.problems).toEqual([]);
    const data = dataOf(result);
    expect(data.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(data.currency).toBe('RUB');
    const campaign = campaignNamed(data, GOOGLE_CAMPAIGN);
    expect(groupNamed(campaign, 'Угловые диваны').keywords.map((keyword) => [keyword.phrase, keyword.matchType, keyword.stats])).toEqual([
      ['купить угловой диван', 'broad', { impressions: 1820, clicks: 97, cost: 4102.75, conversions: 5 }],
      ['угловой диван', 'phrase', { impressions: 640, clicks: 28, cost: 1190, conversions: 1 }],
      ['угловой диван москва', 'exact', { impressions: 150, clicks: 12, cost: 630, conversions: 2 }],
    ]);
    expect(groupNamed(campaign, 'Диваны-кровати').keywords[0].stats).toEqual({ impressions: 430, clicks: 19, cost: 722, conversions: 0 });
  });

  it('reads the search terms report', async () => {
    const result = await importFixtures(['google-editor-utf16.csv', 'google-search-terms.csv']);
    expect(result.detected[1]).toMatchObject({ kind: 'google_search_terms', headerRow: 3 });
    expect(dataOf(result).searchQueries).toEqual([
      {
        query: 'угловой диван купить недорого',
        campaignName: GOOGLE_CAMPAIGN,
        groupName: 'Угловые диваны',
        keyword: 'купить угловой диван',
        stats: { impressions: 310, clicks: 22, cost: 912.4, conversions: 2 },
      },
      { query: 'угловой диван бу авито', campaignName: GOOGLE_CAMPAIGN, groupName: 'Угловые диваны', keyword: '"угловой диван"', stats: { impressions: 85, clicks: 6, cost: 250, conversions: 0 } },
    ]);
  });
});

describe('several platforms in one upload', () => {
  it('keeps each campaign in its own notation and warns that a file belongs to another platform', async () => {
    const result = await importFixtures(['direct-export-utf8.tsv', 'google-editor-utf16.csv'], { platform: 'yandex_direct' });
    const data = dataOf(result);
    expect(data.platform).toBe('yandex_direct');
    expect(data.campaigns.map((campaign) => [campaign.name, campaign.platform])).toEqual([
      [CAMPAIGN, 'yandex_direct'],
      [GOOGLE_CAMPAIGN, 'google_ads'],
    ]);
    expect(result.problems).toEqual([
      { file: 'google-editor-utf16.csv', severity: 'warning', message: 'Файл похож на выгрузку Google Ads, а проект — Яндекс Директ' },
    ]);
  });
});

describe('report edge cases', () => {
  it('skips total rows but keeps a query that starts with «всего»', async () => {
    const csv = [
      'Поисковый запрос;Кампания;Показы;Клики;Расход',
      'всего за 9990 диван;Диваны;10;1;30',
      'Итого;;10;1;30',
      'Всего:;;10;1;30',
    ].join('\n');
    const data = dataOf(await importCampaignFiles([textFile('queries.csv', csv)]));
    expect(data.searchQueries.map((query) => query.query)).toEqual(['всего за 9990 диван']);
  });
});

describe('a report in the Russian interface of Google Ads', () => {
  it('is Google’s when it says «Группа объявлений», or when the project is a Google one', async () => {
    const csv = ['Кампания;Группа объявлений;Ключевое слово;Показы;Клики;Стоимость;Конверсии', 'Диваны;Кресла;[кресло мешок];100;5;250,00;1'].join('\n');
    const result = await importCampaignFiles([textFile('google-ru.csv', csv)]);
    expect(result.detected[0]).toMatchObject({ kind: 'google_stats', platform: 'google_ads' });
    expect(dataOf(result).campaigns[0].groups[0].keywords[0]).toMatchObject({ phrase: 'кресло мешок', matchType: 'exact', stats: { impressions: 100, clicks: 5, cost: 250, conversions: 1 } });
    const plain = ['Кампания;Группа;Фраза;Показы;Клики;Расход', 'Диваны;Кресла;кресло;10;1;30'].join('\n');
    expect((await importCampaignFiles([textFile('plain.csv', plain)], { platform: 'google_ads' })).detected[0]).toMatchObject({ kind: 'google_stats' });
    expect((await importCampaignFiles([textFile('plain.csv', plain)])).detected[0]).toMatchObject({ kind: 'yandex_stats' });
  });
});

describe('a statistics report in XLSX with date cells', () => {
  it('reads Excel dates for the period and sums a campaign-level report', async () => {
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Отчёт');
    sheet.addRow(['Дата', 'Кампания', 'Показы', 'Клики', 'Расход (руб.)', 'Конверсии']);
    sheet.addRow([new Date(Date.UTC(2026, 9, 3)), CAMPAIGN, 1000, 50, 1500.5, 2]);
    sheet.addRow([new Date(Date.UTC(2026, 9, 9)), CAMPAIGN, 500, 20, 600, 1]);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const data = dataOf(await importCampaignFiles([fixture('direct-export-utf8.tsv'), { name: 'report.xlsx', bytes }]));
    expect(data.period).toEqual({ from: '2026-10-03', to: '2026-10-09' });
    expect(campaignNamed(data, CAMPAIGN).stats).toEqual({ impressions: 1500, clicks: 70, cost: 2100.5, conversions: 3 });
  });
});

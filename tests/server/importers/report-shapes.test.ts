/**
 * Statistics and search-query reports in the other shapes each platform downloads: Google Ads reports as
 * XLSX and as "CSV for Excel" (UTF-16LE, tab-separated), Yandex reports as Windows-1251 CSV and XLSX with
 * their title and period rows above the header.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { campaignNamed, dataOf, fixture, groupNamed } from './helpers.js';

const GOOGLE_CAMPAIGN = 'Диваны Комфорт — Google Поиск';
const CAMPAIGN = 'Диваны Комфорт — Поиск — Москва';

async function xlsx(sheetName: string, rows: (string | number | Date)[][]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  for (const row of rows) sheet.addRow(row);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

function utf16Tsv(rows: string[][]): Uint8Array {
  const text = rows.map((row) => row.join('\t')).join('\r\n') + '\r\n';
  return new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
}

/** Windows-1251 of the Cyrillic, ASCII and the few punctuation marks used here. */
function cp1251(text: string): Uint8Array {
  return Uint8Array.from([...text].map((char) => {
    const code = char.codePointAt(0)!;
    if (code < 0x80) return code;
    if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
    if (code === 0x401) return 0xa8;
    if (code === 0x451) return 0xb8;
    if (code === 0x2014) return 0x97;
    if (code === 0x2013) return 0x96;
    throw new Error(`no cp1251 byte for ${char}`);
  }));
}

describe('Google Ads reports downloaded as XLSX', () => {
  it('reads a search terms report below its title and date range rows', async () => {
    const bytes = await xlsx('Search terms report', [
      ['Search terms report'],
      ['October 1, 2026 - October 31, 2026'],
      ['Search term', 'Match type', 'Added/Excluded', 'Campaign', 'Ad group', 'Keyword', 'Impr.', 'Clicks', 'Cost', 'Conversions'],
      ['угловой диван купить недорого', 'Broad match', 'None', GOOGLE_CAMPAIGN, 'Угловые диваны', 'купить угловой диван', 310, 22, 912.4, 2],
      ['угловой диван бу авито', 'Phrase match', 'None', GOOGLE_CAMPAIGN, 'Угловые диваны', '"угловой диван"', 85, 6, 250, 0],
      ['Total: Search terms', '', '', '', '', '', 395, 28, 1162.4, 2],
    ]);
    const result = await importCampaignFiles([fixture('google-editor-utf16.csv'), { name: 'search-terms.xlsx', bytes }]);
    expect(result.detected[1]).toEqual({ file: 'search-terms.xlsx', kind: 'google_search_terms', encoding: 'xlsx', sheet: 'Search terms report', headerRow: 3, platform: 'google_ads', statsRows: 2 });
    expect(result.problems).toEqual([]);
    const data = dataOf(result);
    expect(data.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(data.searchQueries.map((query) => [query.query, query.keyword, query.stats])).toEqual([
      ['угловой диван купить недорого', 'купить угловой диван', { impressions: 310, clicks: 22, cost: 912.4, conversions: 2 }],
      ['угловой диван бу авито', '"угловой диван"', { impressions: 85, clicks: 6, cost: 250, conversions: 0 }],
    ]);
  });

  it('puts a keyword report by day onto the Editor keywords and takes the period from the day cells', async () => {
    const bytes = await xlsx('Search keyword report', [
      ['Search keyword report'],
      ['Day', 'Keyword', 'Match type', 'Campaign', 'Ad group', 'Impr.', 'Clicks', 'Cost', 'Conversions'],
      [new Date(Date.UTC(2026, 9, 2)), 'купить угловой диван', 'Broad match', GOOGLE_CAMPAIGN, 'Угловые диваны', 1000, 50, 2100.5, 3],
      [new Date(Date.UTC(2026, 9, 20)), 'купить угловой диван', 'Broad match', GOOGLE_CAMPAIGN, 'Угловые диваны', 820, 47, 2002.25, 2],
      [new Date(Date.UTC(2026, 9, 20)), 'угловой диван москва', 'Exact match', GOOGLE_CAMPAIGN, 'Угловые диваны', 150, 12, 630, 2],
    ]);
    const result = await importCampaignFiles([fixture('google-editor-utf16.csv'), { name: 'keywords.xlsx', bytes }]);
    expect(result.detected[1]).toMatchObject({ kind: 'google_stats', encoding: 'xlsx', headerRow: 2 });
    expect(result.problems).toEqual([]);
    const data = dataOf(result);
    expect(data.period).toEqual({ from: '2026-10-02', to: '2026-10-20' });
    expect(groupNamed(campaignNamed(data, GOOGLE_CAMPAIGN), 'Угловые диваны').keywords.map((keyword) => [keyword.phrase, keyword.stats])).toEqual([
      ['купить угловой диван', { impressions: 1820, clicks: 97, cost: 4102.75, conversions: 5 }],
      ['угловой диван', undefined],
      ['угловой диван москва', { impressions: 150, clicks: 12, cost: 630, conversions: 2 }],
    ]);
  });
});

describe('a Google Ads report saved as "CSV for Excel" (UTF-16LE, tab-separated)', () => {
  it('is detected by its encoding and delimiter and merged like the comma-separated one', async () => {
    const bytes = utf16Tsv([
      ['Search keyword report'],
      ['October 1, 2026 - October 31, 2026'],
      ['Keyword', 'Match type', 'Campaign', 'Ad group', 'Currency code', 'Impr.', 'Clicks', 'Cost', 'Conversions'],
      ['[диван кровать]', 'Exact match', GOOGLE_CAMPAIGN, 'Диваны-кровати', 'RUB', '430', '19', '722.00', '0.00'],
      ['угловой диван', 'Phrase match', GOOGLE_CAMPAIGN, 'Угловые диваны', 'RUB', '1,640', '28', '1,190.00', '1.00'],
    ]);
    const result = await importCampaignFiles([fixture('google-editor-utf16.csv'), { name: 'keywords-excel.csv', bytes }]);
    expect(result.detected[1]).toEqual({ file: 'keywords-excel.csv', kind: 'google_stats', encoding: 'utf-16le', delimiter: '\t', headerRow: 3, platform: 'google_ads', statsRows: 2 });
    expect(result.problems).toEqual([]);
    const campaign = campaignNamed(dataOf(result), GOOGLE_CAMPAIGN);
    expect(groupNamed(campaign, 'Диваны-кровати').keywords[0].stats).toEqual({ impressions: 430, clicks: 19, cost: 722, conversions: 0 });
    expect(groupNamed(campaign, 'Угловые диваны').keywords[1].stats).toEqual({ impressions: 1640, clicks: 28, cost: 1190, conversions: 1 });
  });
});

describe('Yandex Direct reports in their other shapes', () => {
  it('reads a search-query report saved by Russian Excel (Windows-1251, «;»)', async () => {
    const text = [
      'Поисковые запросы',
      'Период: 01.10.2026 - 31.10.2026',
      '',
      'Поисковый запрос;Кампания;Группа;Условие показа;Показы;Клики;Расход (руб.);Конверсии',
      `угловой диван бесплатно отдам;${CAMPAIGN};Угловые диваны;"""угловой диван""";95;7;196,00;0`,
      `диван кровать икеа;${CAMPAIGN};Диваны-кровати;диван-кровать с ящиком -детский;140;12;384,00;0`,
      'Итого;;;;235;19;580,00;0',
    ].join('\r\n');
    const result = await importCampaignFiles([fixture('direct-export-utf8.tsv'), { name: 'zaprosy.csv', bytes: cp1251(text) }]);
    expect(result.detected[1]).toEqual({ file: 'zaprosy.csv', kind: 'yandex_search_queries', encoding: 'windows-1251', delimiter: ';', headerRow: 4, platform: 'yandex_direct', statsRows: 2 });
    expect(result.problems).toEqual([]);
    const data = dataOf(result);
    expect(data.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(data.searchQueries).toEqual([
      { query: 'угловой диван бесплатно отдам', campaignName: CAMPAIGN, groupName: 'Угловые диваны', keyword: '"угловой диван"', stats: { impressions: 95, clicks: 7, cost: 196, conversions: 0 } },
      { query: 'диван кровать икеа', campaignName: CAMPAIGN, groupName: 'Диваны-кровати', keyword: 'диван-кровать с ящиком -детский', stats: { impressions: 140, clicks: 12, cost: 384, conversions: 0 } },
    ]);
  });

  it('reads a «Мастер отчётов» XLSX by phrase, with its title and period rows above the header', async () => {
    const bytes = await xlsx('Отчёт', [
      ['Мастер отчётов: статистика по условиям показа'],
      ['Период: 01.10.2026 – 31.10.2026'],
      [],
      ['Кампания', '№ Кампании', 'Группа', '№ Группы', 'Условие показа', '№ Условия показа', 'Показы', 'Клики', 'Расход (руб.)', 'Конверсии', 'Доход (руб.)'],
      [CAMPAIGN, 51234567, 'Угловые диваны', 4001, 'купить угловой диван -бесплатно -б/у', 9001, 2220, 147, 4925.4, 6, 61500],
      [CAMPAIGN, 51234567, 'Диваны-кровати', 4002, 'диван-кровать с ящиком -детский', 9101, 410, 22, 702.3, 1, 19990],
      ['Итого', '', '', '', '', '', 2630, 169, 5627.7, 7, 81490],
    ]);
    const result = await importCampaignFiles([fixture('direct-export-utf8.tsv'), { name: 'master-otchetov.xlsx', bytes }]);
    expect(result.detected[1]).toMatchObject({ kind: 'yandex_stats', encoding: 'xlsx', headerRow: 4, platform: 'yandex_direct' });
    expect(result.problems).toEqual([]);
    const data = dataOf(result);
    expect(data.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    const campaign = campaignNamed(data, CAMPAIGN);
    expect(groupNamed(campaign, 'Угловые диваны').keywords[0].stats).toEqual({ impressions: 2220, clicks: 147, cost: 4925.4, conversions: 6, revenue: 61500 });
    expect(groupNamed(campaign, 'Диваны-кровати').keywords[0].stats).toEqual({ impressions: 410, clicks: 22, cost: 702.3, conversions: 1, revenue: 19990 });
  });
});

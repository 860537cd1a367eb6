/**
 * Search-query reports as each platform delivers them: the Direct Reports API TSV
 * (SEARCH_QUERY_PERFORMANCE_REPORT; title and totals lines optional, English or Russian field names, money
 * in roubles or micros, `--` for no value), the Direct web interface's report, Google Ads' search terms
 * report in English and in its Russian interface — and a file none of this describes.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { SearchQuery } from '../../../contract/campaigns.js';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { dataOf, fixture, textFile } from './helpers.js';

const CAMPAIGN = 'Диваны Комфорт — Поиск — Москва';
const GOOGLE_CAMPAIGN = 'Диваны Комфорт — Google Поиск';

/** The 12 queries of the expert's account: group, keyword, query, impressions, clicks, cost ₽, conversions. */
const QUERIES: [string, string, string, number, number, number, number][] = [
  ['Угловые диваны', 'купить угловой диван', 'угловой диван купить недорого', 310, 22, 912.4, 2],
  ['Угловые диваны', 'купить угловой диван', 'купить угловой диван в москве', 280, 19, 801.5, 3],
  ['Угловые диваны', 'купить угловой диван', 'угловой диван бу авито', 85, 6, 250, 0],
  ['Угловые диваны', '"угловой диван"', 'угловой диван', 400, 15, 640, 1],
  ['Угловые диваны', '"угловой диван"', 'угловой диван своими руками', 120, 9, 372.3, 0],
  ['Угловые диваны', 'угловой диван на заказ', 'угловой диван на заказ по размерам', 95, 8, 410, 1],
  ['Угловые диваны', 'угловой диван на заказ', 'угловой диван на заказ отзывы', 60, 4, 180, 0],
  ['Диваны-кровати', 'диван-кровать с ящиком', 'диван кровать с ящиком для белья', 210, 14, 530, 2],
  ['Диваны-кровати', 'диван-кровать с ящиком', 'диван кровать икеа', 140, 12, 384, 0],
  ['Диваны-кровати', 'диван-кровать с ящиком', 'диван кровать бесплатно', 70, 5, 150, 0],
  ['Диваны-кровати', 'выкатной диван кровать', 'выкатной диван кровать купить', 130, 10, 455.8, 1],
  ['Диваны-кровати', 'выкатной диван кровать', 'выкатной диван кровать чертеж', 45, 3, 96, 0],
];

const expectedQueries = (campaign = CAMPAIGN): SearchQuery[] =>
  QUERIES.map(([group, keyword, query, impressions, clicks, cost, conversions]) => ({
    query,
    campaignName: campaign,
    groupName: group,
    keyword,
    stats: { impressions, clicks, cost, conversions },
  }));

/** A cell with quotes written as a TSV/CSV writer quotes it. */
const quoted = (cell: string) => (cell.includes('"') ? `"${cell.replace(/"/g, '""')}"` : cell);

/** `--` is how the Reports API writes «no value»: zero conversions here. */
const apiCell = (value: number) => (value === 0 ? '--' : String(value));

function reportsApiTsv(options: { title?: boolean; totals?: boolean; micros?: boolean; russian?: boolean } = {}): string {
  const header = options.russian
    ? ['Кампания', '№ Кампании', 'Группа', 'Условие показа', 'Поисковый запрос', 'Показы', 'Клики', 'Расход', 'Конверсии']
    : ['CampaignName', 'CampaignId', 'AdGroupName', 'Criteria', 'Query', 'Impressions', 'Clicks', 'Cost', 'Conversions'];
  const lines: string[] = [];
  if (options.title) lines.push('"SEARCH_QUERY_PERFORMANCE_REPORT (2026-10-01 - 2026-10-31)"');
  lines.push(header.join('\t'));
  for (const [group, keyword, query, impressions, clicks, cost, conversions] of QUERIES) {
    const money = options.micros ? String(Math.round(cost * 1_000_000)) : String(cost);
    lines.push([CAMPAIGN, '51234567', group, quoted(keyword), query, String(impressions), String(clicks), money, apiCell(conversions)].join('\t'));
  }
  if (options.totals) lines.push(`Total rows: ${QUERIES.length}`);
  return `${lines.join('\n')}\n`;
}

describe('the Direct Reports API search-query report (TSV)', () => {
  it('the expert’s file: English field names, money in micros, title and totals lines — 12 queries, none lost', async () => {
    const result = await importCampaignFiles([fixture('direct-export-utf8.tsv'), textFile('report.tsv', reportsApiTsv({ title: true, totals: true, micros: true }))]);
    expect(result.problems).toEqual([]);
    expect(result.detected[1]).toEqual({ file: 'report.tsv', kind: 'yandex_search_queries', encoding: 'utf-8', delimiter: '\t', headerRow: 2, platform: 'yandex_direct', statsRows: 12 });
    const data = dataOf(result);
    expect(data.searchQueries).toEqual(expectedQueries());
    expect(data.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(result.counts.searchQueries).toBe(12);
  });

  it('without the title and totals lines (skipReportHeader, skipReportSummary), money in roubles', async () => {
    const result = await importCampaignFiles([fixture('direct-export-utf8.tsv'), textFile('report.tsv', reportsApiTsv())]);
    expect(result.problems).toEqual([]);
    expect(result.detected[1]).toMatchObject({ kind: 'yandex_search_queries', headerRow: 1, platform: 'yandex_direct' });
    expect(dataOf(result).searchQueries).toEqual(expectedQueries());
  });

  it('with Russian field names (Accept-Language: ru), in micros, alone (no campaign export)', async () => {
    const result = await importCampaignFiles([textFile('report.tsv', reportsApiTsv({ russian: true, micros: true, totals: true }))]);
    expect(result.problems).toEqual([]);
    expect(result.detected[0]).toMatchObject({ kind: 'yandex_search_queries', platform: 'yandex_direct' });
    expect(dataOf(result).searchQueries).toEqual(expectedQueries());
  });

  it('the money unit: the cost title and returnMoneyInMicros outrank the values', async () => {
    const tsv = (costTitle: string, cost: string, preamble = '') =>
      `${preamble}CampaignName\tQuery\tClicks\t${costTitle}\n${CAMPAIGN}\tдиван\t2\t${cost}\n`;
    const costOf = async (text: string) => dataOf(await importCampaignFiles([textFile('q.tsv', text)])).searchQueries[0].stats.cost;
    // A whole-number cost per click of 1 000 000 is micros (1 ₽); 200 ₽ per click is roubles.
    expect(await costOf(tsv('Cost', '2000000'))).toBe(2);
    expect(await costOf(tsv('Cost', '400'))).toBe(400);
    // A fraction is never micros.
    expect(await costOf(tsv('Cost', '2000000.5'))).toBe(2000000.5);
    expect(await costOf(tsv('Cost (micros)', '400000'))).toBe(0.4);
    expect(await costOf(tsv('Расход (руб.)', '2000000'))).toBe(2000000);
    expect(await costOf(tsv('Cost', '2000000', 'returnMoneyInMicros: false\n'))).toBe(2000000);
    expect(await costOf(tsv('Cost', '400000', 'returnMoneyInMicros: true\n'))).toBe(0.4);
  });

  it('in UTF-16, as a spreadsheet re-saves it', async () => {
    const text = reportsApiTsv({ micros: true }).replace(/\n/g, '\r\n');
    const utf16 = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const result = await importCampaignFiles([fixture('direct-export-utf8.tsv'), { name: 'report.tsv', bytes: utf16 }]);
    expect(result.problems).toEqual([]);
    expect(result.detected[1]).toMatchObject({ kind: 'yandex_search_queries', encoding: 'utf-16le' });
    expect(dataOf(result).searchQueries).toEqual(expectedQueries());
  });
});

describe('the Direct web interface’s search-query report', () => {
  it('CSV with «Фраза» and «Расход, ₽», a quoted period line and «Итого»', async () => {
    const lines = [
      'Отчёт по поисковым запросам',
      '"Период: 01.10.2026 - 31.10.2026"',
      'Поисковый запрос;Фраза;Кампания;Группа;Показы;Клики;Расход, ₽;Конверсии',
      ...QUERIES.map(([group, keyword, query, impressions, clicks, cost, conversions]) =>
        [query, quoted(keyword), CAMPAIGN, group, impressions, clicks, String(cost).replace('.', ','), conversions].join(';'),
      ),
      'Итого;;;;1945;127;5182,00;10',
    ];
    const result = await importCampaignFiles([fixture('direct-export-utf8.tsv'), textFile('zaprosy.csv', lines.join('\r\n'))]);
    expect(result.problems).toEqual([]);
    expect(result.detected[1]).toMatchObject({ kind: 'yandex_search_queries', platform: 'yandex_direct', headerRow: 3 });
    const data = dataOf(result);
    expect(data.searchQueries).toEqual(expectedQueries());
    expect(data.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
  });

  it('XLSX with «Условие показа»', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Поисковые запросы');
    sheet.addRow(['Поисковые запросы за период 01.10.2026 - 31.10.2026']);
    sheet.addRow(['Кампания', 'Группа', 'Условие показа', 'Поисковый запрос', 'Показы', 'Клики', 'Расход (руб.)', 'Конверсии']);
    for (const [group, keyword, query, impressions, clicks, cost, conversions] of QUERIES) sheet.addRow([CAMPAIGN, group, keyword, query, impressions, clicks, cost, conversions]);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const result = await importCampaignFiles([fixture('direct-export-utf8.tsv'), { name: 'zaprosy.xlsx', bytes }]);
    expect(result.problems).toEqual([]);
    expect(result.detected[1]).toMatchObject({ kind: 'yandex_search_queries', encoding: 'xlsx', headerRow: 2 });
    expect(dataOf(result).searchQueries).toEqual(expectedQueries());
  });
});

describe('Google Ads search terms report', () => {
  const rows = (campaign: string) =>
    QUERIES.map(([group, keyword, query, impressions, clicks, cost, conversions]) => [query, 'Broad match', campaign, group, keyword, impressions, clicks, cost.toFixed(2), conversions.toFixed(2)]);

  it('English headers, CSV', async () => {
    const text = [
      'Search terms report',
      '"October 1, 2026 - October 31, 2026"',
      'Search term,Match type,Campaign,Ad group,Keyword,Impr.,Clicks,Cost,Conversions',
      ...rows(GOOGLE_CAMPAIGN).map((row) => row.map((cell) => quoted(String(cell))).join(',')),
      'Total: Search terms,,,,,1945,127,5182.00,10.00',
    ].join('\n');
    const result = await importCampaignFiles([fixture('google-editor-utf16.csv'), textFile('search-terms.csv', text)]);
    expect(result.problems).toEqual([]);
    expect(result.detected[1]).toMatchObject({ kind: 'google_search_terms', platform: 'google_ads', headerRow: 3 });
    expect(dataOf(result).searchQueries).toEqual(expectedQueries(GOOGLE_CAMPAIGN));
  });

  it('Russian interface headers, UTF-16 tab-separated ("CSV for Excel")', async () => {
    const header = ['Поисковый запрос', 'Тип соответствия', 'Кампания', 'Группа объявлений', 'Ключевое слово', 'Показы', 'Клики', 'Стоимость', 'Конверсии'];
    const lines = [header, ...rows(GOOGLE_CAMPAIGN).map((row) => row.map((cell) => quoted(String(cell).replace('.', ','))))].map((row) => row.join('\t'));
    const bytes = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines.join('\r\n'), 'utf16le')]));
    const result = await importCampaignFiles([fixture('google-editor-utf16.csv'), { name: 'запросы.csv', bytes }]);
    expect(result.problems).toEqual([]);
    expect(result.detected[1]).toMatchObject({ kind: 'google_search_terms', platform: 'google_ads', encoding: 'utf-16le' });
    expect(dataOf(result).searchQueries).toEqual(expectedQueries(GOOGLE_CAMPAIGN));
  });
});

describe('a file the importer does not understand', () => {
  it('says which file, that its columns were not recognised and which ones it expects, and the upload fails', async () => {
    const text = 'Ключ\tЗапросов в месяц\tКонкуренция\nугловой диван\t12000\tвысокая\n';
    const result = await importCampaignFiles([fixture('direct-export-utf8.tsv'), textFile('wordstat.tsv', text)]);
    expect(result.data).toBeNull();
    expect(result.problems).toEqual([
      {
        file: 'wordstat.tsv',
        severity: 'error',
        message:
          'Не удалось распознать файл «wordstat.tsv»: его столбцы не распознаны («Ключ», «Запросов в месяц», «Конкуренция»). Для отчёта по поисковым запросам нужны столбцы «Поисковый запрос» (Query, Search term) и «Показы», «Клики» или «Расход» (Impressions, Clicks, Cost); для отчёта статистики — «Кампания» (CampaignName, Campaign) или «Условие показа» (Criterion, Keyword) и те же показатели; для выгрузки кампаний — её столбцы без изменений',
      },
    ]);
  });

  it('a statistics report none of whose rows match the campaigns is an error, not a pile of warnings', async () => {
    // Its query column is one no platform writes: the rows are read as campaign statistics and match nothing.
    const text = ['CampaignId\tSearchPhrase\tImpressions\tClicks\tCost', ...QUERIES.map(([, , query, impressions, clicks, cost]) => `999\t${query}\t${impressions}\t${clicks}\t${cost}`)].join('\n');
    const result = await importCampaignFiles([fixture('direct-export-utf8.tsv'), textFile('other.tsv', text)]);
    expect(result.data).toBeNull();
    expect(result.problems).toEqual([
      {
        file: 'other.tsv',
        severity: 'error',
        message:
          'Ни одна строка отчёта «other.tsv» не сопоставлена с кампаниями из загруженных файлов: отчёт о других кампаниях или его столбцы не поняты (распознаны: «CampaignId», «Impressions», «Clicks», «Cost»). Для отчёта по поисковым запросам нужны столбцы «Поисковый запрос» (Query, Search term) и «Показы», «Клики» или «Расход» (Impressions, Clicks, Cost); для отчёта статистики — «Кампания» (CampaignName, Campaign) или «Условие показа» (Criterion, Keyword) и те же показатели; для выгрузки кампаний — её столбцы без изменений',
      },
    ]);
  });
});

/**
 * Statistics and search-query reports of both platforms, CSV or XLSX:
 * - Yandex Direct «Мастер отчётов» / «Статистика по фразам»: Дата, Кампания, № Кампании, Группа, № Группы,
 *   Условие показа (Фраза), № Условия показа, № Объявления, Показы, Клики, Расход (руб.), Конверсии, Доход;
 *   «Поисковые запросы»: Поисковый запрос, Кампания, Группа, Условие показа, Показы, Клики, Расход, Конверсии.
 * - Google Ads keyword / search terms reports: Campaign, Ad group, Keyword, Match type, Search term, Day,
 *   Impr., Clicks, Cost, Conversions, Conv. value (also in the Russian interface: Кампания, Группа
 *   объявлений, Ключевое слово, Стоимость).
 * - The Direct Reports API TSV (SEARCH_QUERY_PERFORMANCE_REPORT and the statistics reports) with its field names:
 *   CampaignName, CampaignId, AdGroupName, AdGroupId, Criterion/Criteria, CriterionId, Query, MatchType,
 *   Impressions, Clicks, Cost, Conversions, Revenue (or their Russian names); money in roubles or micros
 *   (see moneyInMicros), `--` for no value.
 * A placement column («Тип площадки», AdNetworkType, Network / Сеть) splits each row's statistics by
 * placement (`placementStats` of keywords and campaigns) besides adding them to the totals.
 * A title and a period line may sit above the header; «Итого»/«Total»/«Total rows: N» rows are skipped. Rows become
 * `StatRecord`s merged onto the imported keywords and ads later (see merge-stats.ts); search queries are
 * summed per query, campaign, group and keyword.
 */
import type { AdPlatform, SearchQuery, Stats } from '../../../contract/campaigns.js';
import { placementOfLabel } from '../../engines/placement.js';
import { addStats } from './builder.js';
import type { Dictionary } from './columns.js';
import { format, importerMessages } from './messages.js';
import { readNumber, type SheetContext } from './sheet.js';
import type { Row } from './types.js';
import { clean, findDates, parseDate } from './values.js';

export const reportColumns = {
  date: ['Дата', 'День', 'Day', 'Date'],
  campaignName: ['Кампания', 'Название кампании', 'Campaign', 'CampaignName'],
  campaignId: ['№ Кампании', 'ID кампании', 'Номер кампании', 'Campaign ID'],
  groupName: ['Группа', 'Название группы', 'Группа объявлений', 'Ad group', 'AdGroupName'],
  groupId: ['№ Группы', 'ID группы', 'Номер группы', 'Ad group ID'],
  phrase: ['Условие показа', 'Фраза', 'Ключевая фраза', 'Фраза (с минус-словами)', 'Ключевое слово', 'Keyword', 'Search keyword', 'Criterion', 'Criteria'],
  keywordId: ['№ Условия показа', 'ID условия показа', 'ID фразы', 'Keyword ID', 'CriterionId', 'CriteriaId'],
  matchType: ['Match type', 'Search keyword match type', 'Тип соответствия'],
  adId: ['№ Объявления', 'ID объявления', 'Ad ID'],
  adTitle: ['Заголовок', 'Заголовок 1', 'Headline 1'],
  query: ['Поисковый запрос', 'Запрос', 'Search term', 'Search query', 'Query'],
  impressions: ['Показы', 'Impr.', 'Impressions'],
  clicks: ['Клики', 'Clicks'],
  cost: ['Расход', 'Стоимость', 'Cost', 'Cost micros'],
  conversions: ['Конверсии', 'Conversions', 'Conv.'],
  revenue: ['Доход', 'Ценность конверсий', 'Conv. value', 'Conversion value', 'Revenue'],
  currency: ['Валюта', 'Currency code', 'Currency'],
  /** Search or networks per row: Yandex «Тип площадки» (Поиск / Сети), Reports API AdNetworkType (SEARCH / AD_NETWORK), Google Network. */
  placement: ['Тип площадки', 'AdNetworkType', 'Network', 'Network (with search partners)', 'Сеть', 'Сеть (с поисковыми партнерами)', 'Сеть (с поисковыми партнёрами)'],
  /** A network site or app: Yandex «Площадка», Google «Placement» / «Место размещения». */
  site: ['Площадка', 'Placement', 'Место размещения', 'Placement URL', 'URL места размещения'],
} as const satisfies Dictionary<string>;

export type ReportField = keyof typeof reportColumns;

export function isReportHeader(columns: { has(field: ReportField): boolean }): boolean {
  const metric = columns.has('impressions') || columns.has('clicks') || columns.has('cost');
  const identity = columns.has('campaignName') || columns.has('campaignId') || columns.has('query') || columns.has('phrase');
  return metric && identity;
}

export function missingReportColumns(columns: { has(field: ReportField): boolean }): string[] {
  if (columns.has('query')) return [];
  return columns.has('campaignName') || columns.has('campaignId') ? [] : ['«Кампания» (или «№ Кампании»)'];
}

/**
 * Field names only the Yandex Direct Reports API writes (a Google report says «Campaign», «Search term»,
 * «Keyword»): a TSV with them is Direct's even though its titles are English.
 */
const YANDEX_REPORTS_API_FIELDS = new Set([
  'CampaignName', 'AdGroupName', 'AdGroupId', 'Criterion', 'Criteria', 'CriterionId', 'CriteriaId', 'CriterionType', 'CriteriaType',
  'Query', 'MatchedKeyword', 'AdNetworkType', 'Placement', 'TargetingCategory',
]);

/**
 * The platform a report's header speaks for: Reports API field names are Direct's; other English titles are Google's; Russian ones are Google's when
 * Google-only words appear (its Russian interface), otherwise the project's platform, Yandex by default.
 */
export function reportPlatform(titles: string[], projectPlatform?: AdPlatform): AdPlatform {
  if (titles.some((title) => YANDEX_REPORTS_API_FIELDS.has(title.trim()))) return 'yandex_direct';
  const joined = titles.join(' ').toLowerCase();
  if (!/[а-яё]/.test(joined)) return 'google_ads';
  if (joined.includes('ключевое слово') || joined.includes('группа объявлений')) return 'google_ads';
  return projectPlatform ?? 'yandex_direct';
}

/** One statistics row, waiting to be matched to a keyword, ad, group or campaign. */
export interface StatRecord {
  file: string;
  row: number;
  platform: AdPlatform;
  campaignName?: string;
  campaignId?: string;
  groupName?: string;
  groupId?: string;
  phrase?: string;
  keywordId?: string;
  matchType?: string;
  adId?: string;
  adTitle?: string;
  /** The row's placement when the report has a placement column and its value names one. */
  placement?: 'search' | 'networks';
  /** A network site or app the row is about (a placements report). */
  site?: string;
  stats: Stats;
}

export class ReportSink {
  readonly records: StatRecord[] = [];
  private readonly queries = new Map<string, SearchQuery>();
  from?: string;
  to?: string;
  currency?: string;

  addDate(date: string): void {
    if (!this.from || date < this.from) this.from = date;
    if (!this.to || date > this.to) this.to = date;
  }

  addQuery(query: SearchQuery): void {
    const key = [query.query.toLowerCase(), query.campaignName ?? '', query.groupName ?? '', query.keyword ?? ''].join('\u0001');
    const existing = this.queries.get(key);
    if (existing) addStats(existing.stats, query.stats);
    else this.queries.set(key, query);
  }

  get searchQueries(): SearchQuery[] {
    return [...this.queries.values()];
  }
}

/** «Итого», «Всего:», «Total: Account», «Total rows: 5» — but not a query that starts with «всего». */
const TOTAL_ROW = /^((итого|всего|total)\s*(:.*)?|total rows\b.*)$/i;

/** Reads one report table into the sink; answers how many of its rows became statistics or search queries. */
export function importReport(context: SheetContext<ReportField>, platform: AdPlatform, sink: ReportSink): number {
  const { columns, log } = context;
  const isQueryReport = columns.has('query');
  // This table's rows are kept apart until its money unit is known (see moneyInMicros).
  const records: StatRecord[] = [];
  const queries: SearchQuery[] = [];
  let rowsSeen = 0;
  let datesSeen = false;
  for (const row of context.rows) {
    const first = row.cells.find((cell) => cell.trim() !== '') ?? '';
    if (TOTAL_ROW.test(first.trim())) continue;
    rowsSeen += 1;
    const stats = readReportStats(context, row);
    const dateCell = columns.get(row, 'date');
    if (dateCell) {
      const date = parseDate(dateCell);
      if (date) {
        sink.addDate(date);
        datesSeen = true;
      } else if (!/^(итого|total)/i.test(dateCell)) {
        log.warn(format(importerMessages.badDate, { value: dateCell }), row.number, columns.title('date'));
      }
    }
    const currency = clean(columns.get(row, 'currency'));
    if (currency && !sink.currency) sink.currency = currency;
    const campaignName = clean(columns.get(row, 'campaignName')) || undefined;
    const groupName = clean(columns.get(row, 'groupName')) || undefined;
    const phrase = clean(columns.get(row, 'phrase')) || undefined;

    if (isQueryReport) {
      const query = clean(columns.get(row, 'query'));
      if (!query) {
        log.warn(importerMessages.emptyQuery, row.number, columns.title('query'));
        continue;
      }
      const searchQuery: SearchQuery = { query, stats };
      if (campaignName) searchQuery.campaignName = campaignName;
      if (groupName) searchQuery.groupName = groupName;
      if (phrase) searchQuery.keyword = phrase;
      queries.push(searchQuery);
      continue;
    }
    const record: StatRecord = { file: context.file, row: row.number, platform, stats };
    const optional = {
      campaignName,
      campaignId: clean(columns.get(row, 'campaignId')),
      groupName,
      groupId: clean(columns.get(row, 'groupId')),
      phrase,
      keywordId: clean(columns.get(row, 'keywordId')),
      matchType: clean(columns.get(row, 'matchType')),
      adId: clean(columns.get(row, 'adId')),
      adTitle: clean(columns.get(row, 'adTitle')),
    };
    for (const [key, value] of Object.entries(optional) as [keyof typeof optional, string | undefined][]) {
      if (value) record[key] = value;
    }
    // Only a value that names search or networks splits the statistics; anything else leaves the row unsplit.
    // «Площадка» names a site (avito.ru, an app) — or, in some reports, the placement type itself.
    const site = clean(columns.get(row, 'site'));
    const placement = placementOfLabel(clean(columns.get(row, 'placement'))) ?? placementOfLabel(site);
    if (placement === 'search' || placement === 'networks') record.placement = placement;
    else if (site) record.site = site;
    records.push(record);
  }
  const stats = [...records.map((record) => record.stats), ...queries.map((query) => query.stats)];
  if (moneyInMicros(context, stats)) for (const item of stats) fromMicros(item);
  sink.records.push(...records);
  for (const query of queries) sink.addQuery(query);
  if (!datesSeen) {
    // The period line above the header: «Период: 01.10.2026 - 31.10.2026», «Oct 1, 2026 - Oct 31, 2026».
    for (const row of context.preamble) {
      const dates = findDates(row.cells.join(' '));
      if (dates.length >= 2) {
        sink.addDate(dates[0]);
        sink.addDate(dates[dates.length - 1]);
        break;
      }
    }
  }
  if (rowsSeen === 0) log.error(importerMessages.noDataRows);
  return records.length + queries.length;
}

const MICROS = 1_000_000;
/** A cost per click from this amount up is micros: no click costs 100 000 ₽, and 100 000 micros is 0.10 ₽. */
const MICROS_COST_PER_CLICK = 100_000;

/**
 * Whether a table's money is in micros (millionths of the currency), as the Direct Reports API writes it by
 * default (`returnMoneyInMicros`) and Google's API as `cost_micros`. In this order:
 * 1. the cost title says so: «micros»/«микро» → micros; a currency («руб.», «₽», «RUB») → as written;
 * 2. a line above the header says `returnMoneyInMicros: true|false`;
 * 3. the values: every cost a whole number and the table's cost per click at least 100 000.
 */
export function moneyInMicros(context: SheetContext<ReportField>, stats: Stats[]): boolean {
  if (!context.columns.has('cost')) return false;
  const title = context.columns.title('cost').toLowerCase();
  if (/micro|микро/.test(title)) return true;
  if (/руб|₽|rub|\(.+\)/.test(title)) return false;
  for (const row of context.preamble) {
    const stated = /returnmoneyinmicros\W*(true|false|да|нет)/i.exec(row.cells.join(' '));
    if (stated) return /true|да/i.test(stated[1]);
  }
  let cost = 0;
  let clicks = 0;
  for (const item of stats) {
    if (!Number.isInteger(item.cost)) return false;
    cost += item.cost;
    clicks += item.clicks;
  }
  return clicks > 0 && cost / clicks >= MICROS_COST_PER_CLICK;
}

function fromMicros(stats: Stats): void {
  stats.cost /= MICROS;
  if (stats.revenue !== undefined) stats.revenue /= MICROS;
}

function readReportStats(context: SheetContext<ReportField>, row: Row): Stats {
  const stats: Stats = {
    impressions: readNumber(context, row, 'impressions') ?? 0,
    clicks: readNumber(context, row, 'clicks') ?? 0,
    cost: readNumber(context, row, 'cost') ?? 0,
    conversions: readNumber(context, row, 'conversions') ?? 0,
  };
  const revenue = readNumber(context, row, 'revenue');
  if (revenue !== undefined) stats.revenue = revenue;
  return stats;
}

/**
 * Reklama Lab's own CSV template: UTF-8 (with a BOM so Excel shows Cyrillic), `;`-separated, one row per
 * keyword and/or ad. Downloadable from step 2 of project creation; any spreadsheet can fill it.
 * Its columns and what goes in each are documented once, in contract/import-template.ts, which step 2
 * shows to the user; here the file is written (with two example rows) and read back.
 */
import type { Ad, AdPlatform, CampaignData, Keyword, MatchType, Stats } from '../../../contract/campaigns.js';
import { IMPORT_TEMPLATE_FILE_NAME, importTemplateColumns, type TemplateColumn } from '../../../contract/import-template.js';
import { csvLine as writeCsvLine } from '../../lib/csv.js';
import { pushUnique, type StructureBuilder } from './builder.js';
import type { Dictionary } from './columns.js';
import { format, importerMessages } from './messages.js';
import { matchTypeFromLabel, parseGoogleKeyword, parseNegativeList, parseYandexPhrase } from './phrases.js';
import { readNumber, type SheetContext } from './sheet.js';
import type { Row } from './types.js';
import { clean, splitMulti } from './values.js';

export type { TemplateColumn };
export const templateFileName = IMPORT_TEMPLATE_FILE_NAME;
export const templateDelimiter = ';';

/** The template's columns in the order the generated file has them. */
export const templateColumns: readonly TemplateColumn[] = importTemplateColumns.map((column) => column.title);

const MAX_HEADLINES = 15;
const MAX_TEXTS = 4;

export const templateDictionary = {
  campaign: ['Кампания'],
  campaignType: ['Тип кампании'],
  dailyBudget: ['Бюджет в день'],
  campaignNegatives: ['Минус-слова кампании'],
  group: ['Группа'],
  region: ['Регион'],
  groupNegatives: ['Минус-слова группы'],
  phrase: ['Фраза'],
  matchType: ['Тип соответствия'],
  bid: ['Ставка'],
  keywordStatus: ['Статус фразы'],
  ...Object.fromEntries(Array.from({ length: MAX_HEADLINES }, (_, i) => [`headline${i + 1}`, [`Заголовок ${i + 1}`]])),
  ...Object.fromEntries(Array.from({ length: MAX_TEXTS }, (_, i) => [`text${i + 1}`, [`Текст ${i + 1}`]])),
  url: ['Ссылка'],
  displayUrl: ['Отображаемая ссылка'],
  sitelinkTitles: ['Заголовки быстрых ссылок'],
  sitelinkDescriptions: ['Описания быстрых ссылок'],
  sitelinkUrls: ['Адреса быстрых ссылок'],
  callouts: ['Уточнения'],
  adStatus: ['Статус объявления'],
  impressions: ['Показы'],
  clicks: ['Клики'],
  cost: ['Расход'],
  conversions: ['Конверсии'],
} as Dictionary<string>;

export function isTemplateHeader(columns: { has(field: string): boolean }): boolean {
  // The titles only the template has; «Группа» is checked as a required column so its absence gets a clear message.
  return columns.has('campaign') && (columns.has('matchType') || columns.has('groupNegatives') || columns.has('campaignNegatives'));
}

export function missingTemplateColumns(columns: { has(field: string): boolean }): string[] {
  const missing: string[] = [];
  if (!columns.has('campaign')) missing.push('«Кампания»');
  if (!columns.has('group')) missing.push('«Группа»');
  return missing;
}

const EXAMPLE_ROWS: Record<TemplateColumn, string>[] = [
  {
    'Кампания': 'Диваны — Поиск — Москва',
    'Тип кампании': 'поиск',
    'Бюджет в день': '3 000',
    // Comma-separated rather than «-бесплатно …»: a cell starting with «-» would get the formula guard's «'».
    'Минус-слова кампании': 'бесплатно, б/у, своими руками',
    'Группа': 'Угловые диваны',
    'Регион': 'Москва',
    'Минус-слова группы': 'детский',
    'Фраза': 'купить угловой диван -авито',
    'Тип соответствия': '',
    'Ставка': '35,50',
    'Статус фразы': 'Активна',
    'Заголовок 1': 'Угловые диваны от фабрики',
    'Заголовок 2': 'Доставка по Москве за 1 день',
    'Заголовок 3': '',
    'Текст 1': 'Более 200 моделей в наличии. Рассрочка 0%. Гарантия 3 года.',
    'Текст 2': '',
    'Ссылка': 'https://divany-komfort.example/uglovye',
    'Отображаемая ссылка': 'uglovye-divany',
    'Заголовки быстрых ссылок': 'Каталог||Акции||Доставка',
    'Описания быстрых ссылок': 'Все модели||Скидки недели||Бесплатно по Москве',
    'Адреса быстрых ссылок': 'https://divany-komfort.example/catalog||https://divany-komfort.example/sale||https://divany-komfort.example/delivery',
    'Уточнения': 'Рассрочка 0%||Гарантия 3 года',
    'Статус объявления': 'Активно',
    'Показы': '1 240',
    'Клики': '86',
    'Расход': '2 915,40',
    'Конверсии': '4',
  },
  {
    'Кампания': 'Диваны — Поиск — Москва',
    'Тип кампании': 'поиск',
    'Бюджет в день': '3 000',
    'Минус-слова кампании': '',
    'Группа': 'Угловые диваны',
    'Регион': 'Москва',
    'Минус-слова группы': '',
    'Фраза': '"угловой диван" ',
    'Тип соответствия': 'фразовое',
    'Ставка': '28',
    'Статус фразы': 'Активна',
    'Заголовок 1': '',
    'Заголовок 2': '',
    'Заголовок 3': '',
    'Текст 1': '',
    'Текст 2': '',
    'Ссылка': '',
    'Отображаемая ссылка': '',
    'Заголовки быстрых ссылок': '',
    'Описания быстрых ссылок': '',
    'Адреса быстрых ссылок': '',
    'Уточнения': '',
    'Статус объявления': '',
    'Показы': '530',
    'Клики': '31',
    'Расход': '868',
    'Конверсии': '1',
  },
];

/** The shared CSV writer: `;`-separated, formula-like cells neutralised (server/lib/csv.ts). */
function csvLine(cells: readonly string[]): string {
  return writeCsvLine(cells, templateDelimiter);
}

/** The template file as text: header plus two example rows. */
export function buildTemplateCsv(): string {
  const lines = [csvLine(templateColumns), ...EXAMPLE_ROWS.map((row) => csvLine(templateColumns.map((column) => row[column])))];
  return `${lines.join('\r\n')}\r\n`;
}

/** The template file as bytes to download: UTF-8 with a BOM. */
export function buildTemplateFile(): Uint8Array {
  return withBom(buildTemplateCsv());
}

function withBom(text: string): Uint8Array {
  const body = new TextEncoder().encode(text);
  const bytes = new Uint8Array(body.length + 3);
  bytes.set([0xef, 0xbb, 0xbf]);
  bytes.set(body, 3);
  return bytes;
}

const MATCH_LABELS: Record<MatchType, string> = { broad: 'широкое', phrase: 'фразовое', exact: 'точное' };

/**
 * Writes campaign data in the template (one row per keyword, then one per ad), e.g. to let a person edit an
 * imported account and load it back. Importing the result gives the same campaigns, groups, keywords, ads
 * and statistics.
 */
export function campaignDataToTemplateCsv(data: Pick<CampaignData, 'campaigns' | 'platform'>): string {
  let headlines = 3;
  let texts = 2;
  for (const campaign of data.campaigns)
    for (const group of campaign.groups)
      for (const ad of group.ads) {
        headlines = Math.max(headlines, Math.min(ad.headlines.length, MAX_HEADLINES));
        texts = Math.max(texts, Math.min(ad.texts.length, MAX_TEXTS));
      }
  const columns: string[] = templateColumns.filter((column) => !/^(Заголовок|Текст) \d+$/.test(column));
  const at = columns.indexOf('Ссылка');
  columns.splice(at, 0, ...Array.from({ length: headlines }, (_, i) => `Заголовок ${i + 1}`), ...Array.from({ length: texts }, (_, i) => `Текст ${i + 1}`));
  const lines = [csvLine(columns)];
  const statsCells = (stats: Stats | undefined): Record<string, string> =>
    stats ? { 'Показы': String(stats.impressions), 'Клики': String(stats.clicks), 'Расход': String(stats.cost), 'Конверсии': String(stats.conversions) } : {};
  for (const campaign of data.campaigns) {
    const google = (campaign.platform ?? data.platform) === 'google_ads';
    const campaignCells: Record<string, string> = {
      'Кампания': campaign.name,
      'Тип кампании': campaign.type ?? '',
      'Бюджет в день': campaign.dailyBudget === undefined ? '' : String(campaign.dailyBudget),
      'Минус-слова кампании': campaign.negativeKeywords.join('||'),
    };
    for (const group of campaign.groups) {
      const groupCells: Record<string, string> = {
        ...campaignCells,
        'Группа': group.name,
        'Регион': group.region ?? '',
        'Минус-слова группы': group.negativeKeywords.join('||'),
      };
      const rows: Record<string, string>[] = [];
      for (const keyword of group.keywords) {
        const phrase = [keyword.phrase, ...keyword.negativeWords.map((word) => `-${word}`)].join(' ');
        rows.push({
          ...groupCells,
          'Фраза': phrase,
          'Тип соответствия': google ? MATCH_LABELS[keyword.matchType] : '',
          'Ставка': keyword.bid === undefined ? '' : String(keyword.bid),
          'Статус фразы': keyword.status ?? '',
          ...statsCells(keyword.stats),
        });
      }
      for (const ad of group.ads) {
        const cells: Record<string, string> = { ...groupCells };
        ad.headlines.slice(0, MAX_HEADLINES).forEach((headline, i) => (cells[`Заголовок ${i + 1}`] = headline));
        ad.texts.slice(0, MAX_TEXTS).forEach((text, i) => (cells[`Текст ${i + 1}`] = text));
        cells['Ссылка'] = ad.finalUrl ?? '';
        cells['Отображаемая ссылка'] = ad.displayUrl ?? (ad.paths ?? []).join('/');
        cells['Заголовки быстрых ссылок'] = ad.sitelinks.map((link) => link.title).join('||');
        cells['Описания быстрых ссылок'] = ad.sitelinks.some((link) => link.description) ? ad.sitelinks.map((link) => link.description ?? '').join('||') : '';
        cells['Адреса быстрых ссылок'] = ad.sitelinks.some((link) => link.url) ? ad.sitelinks.map((link) => link.url ?? '').join('||') : '';
        cells['Уточнения'] = ad.callouts.join('||');
        cells['Статус объявления'] = ad.status ?? '';
        Object.assign(cells, statsCells(ad.stats));
        rows.push(cells);
      }
      if (rows.length === 0) rows.push(groupCells);
      for (const row of rows) lines.push(csvLine(columns.map((column) => row[column] ?? '')));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

export function importTemplate(context: SheetContext<string>, builder: StructureBuilder, platform: AdPlatform): void {
  const { columns, log } = context;
  let rowsSeen = 0;
  for (const row of context.rows) {
    rowsSeen += 1;
    const campaignName = clean(columns.get(row, 'campaign'));
    if (!campaignName) {
      log.warn(importerMessages.noCampaign, row.number, columns.title('campaign'));
      continue;
    }
    const groupName = clean(columns.get(row, 'group'));
    const campaign = builder.campaign({ name: campaignName });
    const type = clean(columns.get(row, 'campaignType'));
    if (type && !campaign.type) campaign.type = type.toLowerCase();
    const budget = readNumber(context, row, 'dailyBudget');
    if (budget !== undefined && campaign.dailyBudget === undefined) campaign.dailyBudget = budget;
    pushUnique(campaign.negativeKeywords, parseNegativeList(columns.get(row, 'campaignNegatives')));
    if (!groupName) {
      if (columns.get(row, 'phrase') || columns.get(row, 'headline1') || columns.get(row, 'text1')) {
        log.warn(importerMessages.noGroup, row.number, columns.title('group'));
      }
      continue;
    }
    const group = builder.group(campaign, { name: groupName });
    const region = clean(columns.get(row, 'region'));
    if (region && !group.region) group.region = region;
    pushUnique(group.negativeKeywords, parseNegativeList(columns.get(row, 'groupNegatives')));
    const stats = readRowStats(context, row);

    const phraseCell = clean(columns.get(row, 'phrase'));
    if (phraseCell) {
      const keyword = readKeyword(context, row, phraseCell, platform);
      if (keyword) {
        if (stats) keyword.stats = stats;
        builder.addKeyword(campaign, group, keyword);
      }
    }
    const ad = readAd(context, row, platform);
    if (ad) {
      if (stats && !phraseCell) ad.stats = stats;
      builder.addAd(campaign, group, ad);
    }
  }
  if (rowsSeen === 0) log.error(importerMessages.noDataRows);
}

function readKeyword(context: SheetContext<string>, row: Row, phraseCell: string, platform: AdPlatform): Keyword | null {
  const { columns, log } = context;
  const matchCell = clean(columns.get(row, 'matchType'));
  const labelled = matchTypeFromLabel(matchCell);
  if (matchCell && !labelled) log.warn(format(importerMessages.unknownMatchType, { value: matchCell }), row.number, columns.title('matchType'));
  const parsed = parseYandexPhrase(phraseCell);
  if (!parsed.phrase) {
    log.warn(importerMessages.emptyPhrase, row.number, columns.title('phrase'));
    return null;
  }
  let keyword: Keyword;
  if (platform === 'google_ads') {
    const google = parseGoogleKeyword(parsed.phrase);
    keyword = { phrase: google.text, negativeWords: parsed.negativeWords, matchType: labelled ?? google.matchType ?? 'broad' };
  } else {
    keyword = { phrase: parsed.phrase, negativeWords: parsed.negativeWords, matchType: labelled ?? parsed.matchType };
    if (parsed.isAutotargeting) keyword.isAutotargeting = true;
  }
  const bid = readNumber(context, row, 'bid');
  if (bid !== undefined) keyword.bid = bid;
  const status = clean(columns.get(row, 'keywordStatus'));
  if (status) keyword.status = status;
  return keyword;
}

function readAd(context: SheetContext<string>, row: Row, platform: AdPlatform): Ad | null {
  const { columns } = context;
  const headlines: string[] = [];
  for (let i = 1; i <= MAX_HEADLINES; i++) {
    const headline = clean(columns.get(row, `headline${i}`));
    if (headline) headlines.push(headline);
  }
  const texts: string[] = [];
  for (let i = 1; i <= MAX_TEXTS; i++) {
    const text = clean(columns.get(row, `text${i}`));
    if (text) texts.push(text);
  }
  if (headlines.length === 0 && texts.length === 0) return null;
  const titles = splitMulti(columns.get(row, 'sitelinkTitles'));
  const descriptions = splitMulti(columns.get(row, 'sitelinkDescriptions'));
  const urls = splitMulti(columns.get(row, 'sitelinkUrls'));
  const ad: Ad = {
    kind: platform === 'google_ads' && headlines.length >= 3 ? 'responsive_search' : 'text',
    headlines,
    texts,
    sitelinks: titles.flatMap((title, i) => (title ? [{ title, ...(descriptions[i] ? { description: descriptions[i] } : {}), ...(urls[i] ? { url: urls[i] } : {}) }] : [])),
    callouts: splitMulti(columns.get(row, 'callouts')).filter(Boolean),
  };
  const url = clean(columns.get(row, 'url'));
  if (url) ad.finalUrl = url;
  const display = clean(columns.get(row, 'displayUrl'));
  if (display) {
    if (platform === 'google_ads') ad.paths = display.split('/').filter(Boolean).slice(0, 2);
    else ad.displayUrl = display;
  }
  const status = clean(columns.get(row, 'adStatus'));
  if (status) ad.status = status;
  return ad;
}

function readRowStats(context: SheetContext<string>, row: Row): Stats | null {
  const impressions = readNumber(context, row, 'impressions');
  const clicks = readNumber(context, row, 'clicks');
  const cost = readNumber(context, row, 'cost');
  const conversions = readNumber(context, row, 'conversions');
  if (impressions === undefined && clicks === undefined && cost === undefined && conversions === undefined) return null;
  return { impressions: impressions ?? 0, clicks: clicks ?? 0, cost: cost ?? 0, conversions: conversions ?? 0 };
}

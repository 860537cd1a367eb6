/**
 * The Google Ads Editor CSV export (UTF-16LE tab-separated, or UTF-8 comma-separated).
 *
 * Rows are typed by what they fill: a keyword row has Keyword (+ Criterion Type), an ad row has Headline/
 * Description cells, an ad group row has Ad group only, a campaign row has Campaign only. Headers ignore
 * case and spaces. A blank cell (or `[]`) means "no value". Negatives («Negative Phrase», «Campaign Negative
 * Exact», …) go to the group's or the campaign's `negativeKeywords` in Google notation (`w`, `"w"`, `[w]`).
 * When the export carries performance columns (Impr., Clicks, Cost, Conversions) they become stats.
 */
import type { Ad, AdGroup, Campaign, Keyword, MatchType, Stats } from '../../../contract/campaigns.js';
import { placementOfLabel } from '../../engines/placement.js';
import { pushUnique, type StructureBuilder } from './builder.js';
import type { Dictionary } from './columns.js';
import { format, importerMessages } from './messages.js';
import { googleNegativeNotation, matchTypeFromLabel, parseGoogleKeyword } from './phrases.js';
import { readNumber, type SheetContext } from './sheet.js';
import type { Row } from './types.js';
import { clean } from './values.js';

const headlineTitles = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`headline${i + 1}`, [`Headline ${i + 1}`]]));
const descriptionTitles = Object.fromEntries(
  Array.from({ length: 4 }, (_, i) => [`description${i + 1}`, [`Description ${i + 1}`, `Description Line ${i + 1}`]]),
);

export const googleAdsEditorColumns = {
  campaign: ['Campaign', 'Campaign name'],
  campaignId: ['Campaign ID'],
  campaignType: ['Campaign Type'],
  /** «Google search;Search Partners;Display Network»: where the campaign shows. */
  networks: ['Networks', 'Сети'],
  budget: ['Budget', 'Campaign Daily Budget', 'Daily Budget'],
  currency: ['Currency', 'Currency code'],
  adGroup: ['Ad Group', 'Ad group name'],
  adGroupId: ['Ad Group ID'],
  keyword: ['Keyword'],
  keywordId: ['Keyword ID', 'Criterion ID'],
  criterionType: ['Criterion Type'],
  matchType: ['Match Type'],
  maxCpc: ['Max CPC', 'Max. CPC', 'Default max. CPC'],
  adType: ['Ad type'],
  adId: ['Ad ID'],
  finalUrl: ['Final URL', 'Final URLs'],
  path1: ['Path 1'],
  path2: ['Path 2'],
  status: ['Status'],
  campaignStatus: ['Campaign Status'],
  adGroupStatus: ['Ad Group Status'],
  impressions: ['Impr.', 'Impressions'],
  clicks: ['Clicks'],
  cost: ['Cost'],
  conversions: ['Conversions', 'Conv.'],
  revenue: ['Conv. value', 'Conversion value', 'All conv. value'],
  ...headlineTitles,
  ...descriptionTitles,
} as Dictionary<string>;

/**
 * `strong`: titles only Editor writes (a report never has Criterion Type or Headline 1). Otherwise a file
 * with Campaign, Keyword and Match type but no statistics is read as an Editor-style bulk sheet too.
 */
export function isGoogleAdsEditorHeader(columns: { has(field: string): boolean }, strength: 'strong' | 'weak'): boolean {
  if (!columns.has('campaign')) return false;
  if (strength === 'strong') {
    return ['criterionType', 'headline1', 'description1', 'campaignType', 'adGroupStatus', 'campaignStatus'].some((field) => columns.has(field));
  }
  const metrics = ['impressions', 'clicks', 'cost'].some((field) => columns.has(field));
  return !metrics && (columns.has('keyword') || columns.has('adGroup')) && (columns.has('matchType') || columns.has('maxCpc'));
}

export function missingGoogleAdsEditorColumns(columns: { has(field: string): boolean }): string[] {
  const missing: string[] = [];
  if (!columns.has('campaign')) missing.push('«Campaign»');
  if (columns.has('keyword') && !columns.has('adGroup')) missing.push('«Ad group»');
  return missing;
}

export function importGoogleAdsEditor(context: SheetContext<string>, builder: StructureBuilder): void {
  const { columns, log } = context;
  const hasMetrics = ['impressions', 'clicks', 'cost', 'conversions'].some((field) => columns.has(field));
  let rowsSeen = 0;
  for (const row of context.rows) {
    rowsSeen += 1;
    const campaignName = value(columns.get(row, 'campaign'));
    const campaignId = value(columns.get(row, 'campaignId'));
    const keywordCell = value(columns.get(row, 'keyword'));
    const headlines = collect(context, row, 'headline', 15);
    const descriptions = collect(context, row, 'description', 4);
    const isAd = headlines.length > 0 || descriptions.length > 0;
    if (!campaignName && !campaignId) {
      if (keywordCell || isAd) log.warn(importerMessages.noCampaign, row.number, columns.title('campaign'));
      continue;
    }
    const campaign = builder.campaign({ name: campaignName || undefined, id: campaignId || undefined });
    const groupName = value(columns.get(row, 'adGroup'));
    const groupId = value(columns.get(row, 'adGroupId'));
    const criterionField = columns.has('criterionType') ? 'criterionType' : 'matchType';
    const criterion = clean(columns.get(row, criterionField)).toLowerCase();

    if (keywordCell) {
      importKeywordRow(context, row, campaign, groupName, groupId, keywordCell, criterionField, criterion, builder, hasMetrics);
      continue;
    }
    if (!groupName && !groupId) {
      readCampaignRow(context, row, campaign);
      continue;
    }
    const group = builder.group(campaign, { id: groupId || undefined, name: groupName || undefined });
    if (isAd) {
      const ad: Ad = {
        kind: adKind(clean(columns.get(row, 'adType')), headlines.length),
        headlines,
        texts: descriptions,
        sitelinks: [],
        callouts: [],
      };
      const adId = value(columns.get(row, 'adId'));
      if (adId) ad.externalId = adId;
      const finalUrl = value(columns.get(row, 'finalUrl'));
      if (finalUrl) ad.finalUrl = finalUrl.split(/\s+/)[0];
      const paths = [value(columns.get(row, 'path1')), value(columns.get(row, 'path2'))].filter(Boolean);
      if (paths.length > 0) ad.paths = paths;
      const status = value(columns.get(row, 'status'));
      if (status) ad.status = status;
      if (hasMetrics) {
        const stats = readStats(context, row);
        if (stats) ad.stats = stats;
      }
      builder.addAd(campaign, group, ad);
    } else {
      const status = value(columns.get(row, 'adGroupStatus')) || value(columns.get(row, 'status'));
      if (status) group.status = status;
      readNumber(context, row, 'maxCpc');
    }
  }
  if (rowsSeen === 0) log.error(importerMessages.noDataRows);
}

function importKeywordRow(
  context: SheetContext<string>,
  row: Row,
  campaign: Campaign,
  groupName: string,
  groupId: string,
  keywordCell: string,
  criterionField: string,
  criterion: string,
  builder: StructureBuilder,
  hasMetrics: boolean,
): void {
  const { columns, log } = context;
  const parsed = parseGoogleKeyword(keywordCell);
  const negative = criterion.includes('negative');
  let matchType: MatchType | null = matchTypeFromLabel(criterion);
  if (criterion && !matchType && !negative && criterion !== 'keyword') {
    log.warn(format(importerMessages.unknownCriterionType, { value: columns.get(row, criterionField) }), row.number, columns.title(criterionField));
  }
  // «Negative keyword» or an empty type: the notation of the text decides.
  matchType = matchType ?? parsed.matchType ?? 'broad';
  if (negative) {
    const notation = googleNegativeNotation(parsed.text, matchType);
    const campaignLevel = criterion.startsWith('campaign') || (!groupName && !groupId);
    if (campaignLevel) pushUnique(campaign.negativeKeywords, [notation]);
    else pushUnique(builder.group(campaign, { id: groupId || undefined, name: groupName || undefined }).negativeKeywords, [notation]);
    return;
  }
  if (!groupName && !groupId) {
    log.warn(importerMessages.noGroup, row.number, columns.title('adGroup'));
    return;
  }
  const group: AdGroup = builder.group(campaign, { id: groupId || undefined, name: groupName || undefined });
  const keyword: Keyword = { phrase: parsed.text, negativeWords: [], matchType };
  const keywordId = value(columns.get(row, 'keywordId'));
  if (keywordId) keyword.externalId = keywordId;
  const bid = readNumber(context, row, 'maxCpc');
  if (bid !== undefined) keyword.bid = bid;
  const status = value(columns.get(row, 'status'));
  if (status) keyword.status = status;
  if (hasMetrics) {
    const stats = readStats(context, row);
    if (stats) keyword.stats = stats;
  }
  builder.addKeyword(campaign, group, keyword);
}

function readCampaignRow(context: SheetContext<string>, row: Row, campaign: Campaign): void {
  const { columns } = context;
  const type = value(columns.get(row, 'campaignType'));
  if (type) campaign.type = type.toLowerCase();
  const placement = placementOfLabel(value(columns.get(row, 'networks')));
  if (placement) campaign.placement = placement;
  const budget = readNumber(context, row, 'budget');
  if (budget !== undefined) campaign.dailyBudget = budget;
  const currency = value(columns.get(row, 'currency'));
  if (currency) campaign.currency = currency;
  const status = value(columns.get(row, 'campaignStatus')) || value(columns.get(row, 'status'));
  if (status) campaign.status = status;
}

export function readStats(context: SheetContext<string>, row: Row): Stats | null {
  const impressions = readNumber(context, row, 'impressions');
  const clicks = readNumber(context, row, 'clicks');
  const cost = readNumber(context, row, 'cost');
  const conversions = readNumber(context, row, 'conversions');
  const revenue = readNumber(context, row, 'revenue');
  if (impressions === undefined && clicks === undefined && cost === undefined && conversions === undefined) return null;
  const stats: Stats = { impressions: impressions ?? 0, clicks: clicks ?? 0, cost: cost ?? 0, conversions: conversions ?? 0 };
  if (revenue !== undefined) stats.revenue = revenue;
  return stats;
}

function collect(context: SheetContext<string>, row: Row, prefix: string, count: number): string[] {
  const result: string[] = [];
  for (let i = 1; i <= count; i++) {
    const text = value(context.columns.get(row, `${prefix}${i}`));
    if (text) result.push(text);
  }
  return result;
}

function adKind(type: string, headlineCount: number): Ad['kind'] {
  const lower = type.toLowerCase();
  if (lower.includes('responsive')) return 'responsive_search';
  if (lower.includes('text')) return 'text';
  // No ad type column: a responsive search ad has at least three headlines.
  if (!lower) return headlineCount >= 3 ? 'responsive_search' : 'text';
  return 'other';
}

/** A cell's value with Editor's "no value" forms (blank, `[]`) as ''. */
function value(raw: string): string {
  const text = clean(raw);
  return text === '[]' ? '' : text;
}

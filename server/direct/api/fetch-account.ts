import { createHash } from 'node:crypto';
import type { Ad, AdGroup, AdKind, BidAdjustment, BiddingStrategy, Campaign, CampaignData, CampaignFunds, CampaignStrategy, DailyStats, Keyword, Moderation, NegativeKeywordSet, Placement, PlacementStats, SearchQuery, Sitelink, Stats, StatsPeriod, WeekSchedule } from '../../../contract/campaigns.js';
import { directApiMessages } from '../../../contract/messages.js';
import type { DirectClient, ReportDefinition } from './client.js';
import { DirectApiError } from './errors.js';
import { splitKeyword } from './keyword-text.js';
import { createProgressTracker, type DirectProgressListener, type ProgressTracker } from './progress.js';
import { reportNumber, type ReportTable } from './report-tsv.js';

/**
 * Reads a whole Direct account (or some of its campaigns) through the API into the campaign model:
 * campaigns → groups → ads (with sitelinks and callouts) and keywords, plus, for a period,
 * statistics per campaign/ad/keyword and the search-query report.
 *
 * Per-request limits of `get` (official pages of each service, also seen in tapi-yandex-direct):
 * CampaignIds ≤ 10 for adgroups/ads/keywords, campaign Ids ≤ 1000, AdGroupIds ≤ 1000; so the
 * selections are cut into chunks, which the client runs at most 5 at a time.
 *
 * Ad images: `ads.get` gives only `AdImageHash` (in TextAd for a text ad with an image, in TextImageAd
 * for an image ad); the image's name comes from `adimages.get` (SelectionCriteria.AdImageHashes,
 * at most 10 000 a request), asked once per distinct hash.
 */

export interface FetchAccountOptions {
  /** The advertiser an agency token reads (the v4 shared-account call names it in `Logins`). */
  clientLogin?: string;
  /** Only these campaigns (archived ones included when named); otherwise every non-archived campaign. */
  campaignIds?: (number | string)[];
  /** Statistics and search queries for this period (inclusive ISO dates); none when absent. */
  statsPeriod?: StatsPeriod;
  /** Keep archived campaigns and ads when reading the whole account. */
  includeArchived?: boolean;
  /**
   * When given, a failed statistics or search-query report is noted here (Russian) and the account
   * structure is still returned; without it, such a failure throws.
   */
  warnings?: string[];
  /** Told after every answer that moves a stage (campaigns, groups, ads, keywords, extensions, reports). */
  onProgress?: DirectProgressListener;
}

/* The parts of the API objects we read (JSON field names of Campaigns/AdGroups/Ads/Keywords.get). */
type ArrayOfString = { Items?: string[] | null } | string[] | null | undefined;

interface ApiCampaign {
  Id: number;
  Name: string;
  Type?: string;
  State?: string;
  Status?: string;
  Currency?: string;
  DailyBudget?: { Amount?: number; Mode?: string } | null;
  /**
   * Where the money comes from (campaigns.get `Funds`): `CAMPAIGN_FUNDS` with the campaign's own
   * `CampaignFunds {Sum, Balance, BalanceBonus, SumAvailableForTransfer}` (micro-units), or
   * `SHARED_ACCOUNT_FUNDS` with `SharedAccountFunds {Refund, Spend}`: the balance is then the shared
   * account's, read by v4 Live `AccountManagement` (see sharedAccountBalance).
   */
  Funds?: { Mode?: string; CampaignFunds?: { Balance?: number | null } | null; SharedAccountFunds?: unknown } | null;
  StartDate?: string | null;
  EndDate?: string | null;
  TimeTargeting?: { Schedule?: ArrayOfString } | null;
  TimeZone?: string | null;
  NegativeKeywords?: ArrayOfString;
  /** Sites and apps the campaign does not show on (up to 1 000; `null` when none). */
  ExcludedSites?: ArrayOfString;
  TextCampaign?: ApiCampaignSettings | null;
  UnifiedCampaign?: ApiCampaignSettings | null;
}

/** The strategy of a text or unified campaign: a placement whose strategy is `SERVING_OFF` shows nothing. */
interface ApiCampaignSettings {
  BiddingStrategy?: { Search?: ApiPlacementStrategy | null; Network?: ApiPlacementStrategy | null } | null;
}

/**
 * `TextCampaignSearchStrategy` / `TextCampaignNetworkStrategy` (campaigns.get, TextCampaign parameters):
 * the type, and one structure named after it (`WbMaximumClicks`, `AverageCpa`, `PayForConversion`, …)
 * with its parameters; money in micros.
 */
type ApiPlacementStrategy = { BiddingStrategyType?: string } & Record<string, unknown>;

interface ApiStrategyParams {
  WeeklySpendLimit?: number | null;
  BidCeiling?: number | null;
  AverageCpa?: number | null;
  AverageCpc?: number | null;
  Cpa?: number | null;
  GoalId?: number | null;
}

interface ApiAdGroup {
  Id: number;
  Name: string;
  CampaignId: number;
  RegionIds?: number[] | null;
  NegativeKeywords?: ArrayOfString;
  NegativeKeywordSharedSetIds?: { Items?: number[] | null } | number[] | null;
  ServingStatus?: string;
}

interface ApiNegativeKeywordSharedSet {
  Id: number;
  Name?: string;
  NegativeKeywords?: ArrayOfString;
}

interface ApiAd {
  Id: number;
  AdGroupId: number;
  CampaignId?: number;
  State?: string;
  Status?: string;
  StatusClarification?: string | null;
  Type?: string;
  Subtype?: string;
  TextAd?: {
    Title?: string | null;
    Title2?: string | null;
    Text?: string | null;
    Href?: string | null;
    DisplayUrlPath?: string | null;
    Mobile?: 'YES' | 'NO';
    SitelinkSetId?: number | null;
    AdExtensions?: { AdExtensionId: number; Type?: string }[] | null;
    /** Older answers/clients name the callouts this way; read both. */
    AdExtensionIds?: number[] | null;
    AdImageHash?: string | null;
    SitelinksModeration?: ApiExtensionModeration | null;
    AdImageModeration?: ApiExtensionModeration | null;
    DisplayUrlPathModeration?: ApiExtensionModeration | null;
  } | null;
  TextImageAd?: { Href?: string | null; AdImageHash?: string | null } | null;
}

/** `ExtensionModeration`: the moderation of one part of an ad (sitelinks, image, display link). */
interface ApiExtensionModeration {
  Status?: string | null;
  StatusClarification?: string | null;
}

interface ApiKeyword {
  Id: number;
  Keyword: string;
  AdGroupId: number;
  CampaignId?: number;
  Bid?: number | null;
  ContextBid?: number | null;
  State?: string;
  Status?: string;
  ServingStatus?: string;
  /** Autotargeting rows only: `{Items: [{Category, Value}]}` (a bare array tolerated). */
  AutotargetingCategories?: { Items?: ApiAutotargetingCategory[] | null } | ApiAutotargetingCategory[] | null;
}

interface ApiAutotargetingCategory {
  Category?: string;
  Value?: string;
}

/**
 * One bid adjustment of `bidmodifiers.get`: the level's ids and one structure named after the type
 * (`MobileAdjustment`, `DemographicsAdjustment`, `RegionalAdjustment`, …) with `BidModifier` in percent.
 */
type ApiBidModifier = { Id?: number; CampaignId?: number | null; AdGroupId?: number | null; Level?: string; Type?: string } & Record<string, unknown>;

interface ApiAdjustmentValues {
  BidModifier?: number | null;
  Enabled?: string | null;
  Gender?: string | null;
  Age?: string | null;
  RegionId?: number | null;
  RetargetingConditionId?: number | null;
}

interface ApiSitelinksSet {
  Id: number;
  Sitelinks?: { Title?: string; Href?: string | null; Description?: string | null }[] | null;
}

interface ApiAdImage {
  AdImageHash: string;
  Name?: string | null;
}

interface ApiAdExtension {
  Id: number;
  Type?: string;
  Callout?: { CalloutText?: string } | null;
}

const CAMPAIGN_IDS_PER_REQUEST = 10;
const IDS_PER_REQUEST = 1000;

export const CAMPAIGN_FIELDS = ['Id', 'Name', 'Type', 'State', 'Status', 'Currency', 'DailyBudget', 'Funds', 'StartDate', 'EndDate', 'TimeTargeting', 'TimeZone', 'NegativeKeywords', 'ExcludedSites'];
/** The strategy (with its parameters) says how bids are set and where a text or unified campaign shows (search / networks `SERVING_OFF`). */
export const CAMPAIGN_STRATEGY_FIELDS = { TextCampaignFieldNames: ['BiddingStrategy'], UnifiedCampaignFieldNames: ['BiddingStrategy'] };
export const ADGROUP_FIELDS = ['Id', 'Name', 'CampaignId', 'Type', 'Status', 'ServingStatus', 'RegionIds', 'NegativeKeywords', 'NegativeKeywordSharedSetIds'];
export const AD_FIELDS = ['Id', 'AdGroupId', 'CampaignId', 'State', 'Status', 'StatusClarification', 'Type', 'Subtype'];
export const NEGATIVE_SET_FIELDS = ['Id', 'Name', 'NegativeKeywords'];
export const TEXT_AD_FIELDS = ['Title', 'Title2', 'Text', 'Href', 'DisplayUrlPath', 'Mobile', 'SitelinkSetId', 'AdExtensions', 'AdImageHash', 'SitelinksModeration', 'AdImageModeration', 'DisplayUrlPathModeration'];
export const TEXT_IMAGE_AD_FIELDS = ['Href', 'AdImageHash'];
export const AD_IMAGE_FIELDS = ['AdImageHash', 'Name'];
/**
 * Hashes per `adimages.get`: the API takes up to 10 000, but like the other id lists we send 1 000 so
 * that a large account's lookups spread over the client's parallel slots and each answer stays small.
 */
export const AD_IMAGE_HASHES_PER_REQUEST = IDS_PER_REQUEST;
export const KEYWORD_FIELDS = ['Id', 'Keyword', 'AdGroupId', 'CampaignId', 'Bid', 'ContextBid', 'State', 'Status', 'ServingStatus', 'AutotargetingCategories'];
/**
 * bidmodifiers.get (official page «get», BidModifiers): the campaign's and its groups' adjustments, each
 * type's values asked by its own field list. `Levels` is required.
 */
export const BID_MODIFIER_FIELDS = {
  FieldNames: ['Id', 'CampaignId', 'AdGroupId', 'Level', 'Type'],
  MobileAdjustmentFieldNames: ['BidModifier'],
  TabletAdjustmentFieldNames: ['BidModifier'],
  DesktopAdjustmentFieldNames: ['BidModifier'],
  DesktopOnlyAdjustmentFieldNames: ['BidModifier'],
  DemographicsAdjustmentFieldNames: ['Gender', 'Age', 'BidModifier', 'Enabled'],
  RetargetingAdjustmentFieldNames: ['RetargetingConditionId', 'BidModifier', 'Enabled'],
  RegionalAdjustmentFieldNames: ['RegionId', 'BidModifier', 'Enabled'],
  VideoAdjustmentFieldNames: ['BidModifier'],
};
export const DAILY_REPORT_FIELDS = ['Date', 'CampaignId', 'Impressions', 'Clicks', 'Cost', 'Conversions'];
export const STATS_REPORT_FIELDS = ['CampaignId', 'AdGroupId', 'AdId', 'CriterionId', 'CriterionType', 'AdNetworkType', 'Impressions', 'Clicks', 'Cost', 'Conversions'];
/** Network sites and apps per campaign (Reports `Placement`; network rows only, by the `AdNetworkType` filter). */
export const PLACEMENT_REPORT_FIELDS = ['CampaignId', 'AdNetworkType', 'Placement', 'Impressions', 'Clicks', 'Cost', 'Conversions'];
export const SEARCH_QUERY_REPORT_FIELDS = ['CampaignName', 'AdGroupName', 'Criterion', 'Query', 'Impressions', 'Clicks', 'Cost', 'Conversions'];

export async function fetchAccount(client: DirectClient, options: FetchAccountOptions = {}): Promise<CampaignData> {
  const named = options.campaignIds?.map(Number).filter(Number.isFinite);
  const period = options.statsPeriod;
  const progress = createProgressTracker(options.onProgress, () => client.units);

  // Reports queue on Yandex's side, so ask for them first and read the structure meanwhile.
  const stopReports = new AbortController();
  const reportOptions = { signal: stopReports.signal };
  for (const stage of ['statistics', 'search_queries'] as const) progress.update(stage, period ? { status: 'running', total: 1 } : { status: 'skipped' });
  const statsTable = period
    ? trackReport(optionalReport(client.reports(statsReport(period, named), reportOptions), directApiMessages.statsSkipped, options.warnings), progress, 'statistics')
    : null;
  const queriesTable = period
    ? trackReport(optionalReport(client.reports(searchQueryReport(period, named), reportOptions), directApiMessages.searchQueriesSkipped, options.warnings), progress, 'search_queries')
    : null;
  // The network sites travel with the statistics stage: a failure costs only the sites (a warning).
  const placementsTable = period ? optionalReport(client.reports(placementReport(period, named), reportOptions), directApiMessages.placementsSkipped, options.warnings) : null;
  // Day-by-day campaign totals (budget and schedule checks): small (campaigns × days); its failure costs only those checks.
  const dailyTable = period ? optionalReport(client.reports(dailyReport(period, named), reportOptions), directApiMessages.dailyStatsSkipped, options.warnings) : null;
  // Keep a rejected report from surfacing as "unhandled" while the structure loads; it is awaited below.
  statsTable?.catch(() => undefined);
  queriesTable?.catch(() => undefined);
  placementsTable?.catch(() => undefined);
  dailyTable?.catch(() => undefined);

  try {
    return await fetchWithReports(client, options, named, { stats: statsTable, queries: queriesTable, placements: placementsTable, daily: dailyTable }, progress);
  } catch (error) {
    // No point polling for statistics of an import that has failed.
    stopReports.abort(error);
    throw error;
  }
}

async function fetchWithReports(
  client: DirectClient,
  options: FetchAccountOptions,
  named: number[] | undefined,
  reports: Record<'stats' | 'queries' | 'placements' | 'daily', Promise<ReportTable | null> | null>,
  progress: ProgressTracker,
): Promise<CampaignData> {
  const period = options.statsPeriod;
  progress.update('campaigns', { status: 'running' });
  const campaigns = await fetchCampaigns(client, named, options.includeArchived ?? false);
  const campaignIds = campaigns.map((c) => c.Id);
  const campaignChunks = chunk(campaignIds, CAMPAIGN_IDS_PER_REQUEST);
  progress.update('campaigns', { status: 'done', done: campaigns.length, total: campaigns.length, items: campaigns.length });

  /** A structure stage: progress counts the campaigns whose objects have arrived. */
  const perCampaigns = async <T>(stage: 'groups' | 'ads' | 'keywords', service: string, params: (ids: number[]) => Record<string, unknown>): Promise<T[]> => {
    progress.update(stage, { status: 'running', total: campaignIds.length });
    const items = await getChunked<T>(client, service, campaignChunks, params, (ids, page) => progress.advance(stage, ids.length, page.length));
    progress.update(stage, { status: 'done' });
    return items;
  };
  // The shared account's balance: a v4 call beside the structure; its failure costs only the balance alert.
  const sharedAccount = campaigns.some((campaign) => campaign.Funds?.Mode === 'SHARED_ACCOUNT_FUNDS') ? sharedAccountBalance(client, options.clientLogin, options.warnings) : Promise.resolve(null);
  sharedAccount.catch(() => undefined);
  const [groups, ads, keywords] = await Promise.all([
    perCampaigns<ApiAdGroup>('groups', 'adgroups', (ids) => ({ SelectionCriteria: { CampaignIds: ids }, FieldNames: ADGROUP_FIELDS })),
    perCampaigns<ApiAd>('ads', 'ads', (ids) => ({
      SelectionCriteria: { CampaignIds: ids },
      FieldNames: AD_FIELDS,
      TextAdFieldNames: TEXT_AD_FIELDS,
      TextImageAdFieldNames: TEXT_IMAGE_AD_FIELDS,
    })),
    perCampaigns<ApiKeyword>('keywords', 'keywords', (ids) => ({ SelectionCriteria: { CampaignIds: ids }, FieldNames: KEYWORD_FIELDS })),
  ]);
  const liveAds = options.includeArchived ? ads : ads.filter((ad) => ad.State !== 'ARCHIVED');

  const lookups = adLookupIds(liveAds);
  progress.update('extensions', { status: 'running', total: lookups.sitelinkChunks.length + lookups.calloutChunks.length + lookups.imageChunks.length });
  const onLookup = (_ids: unknown[], page: unknown[]) => progress.advance('extensions', 1, page.length);
  const [sitelinks, callouts, images, negativeSets, bidModifiers] = await Promise.all([
    fetchSitelinks(client, lookups.sitelinkChunks, onLookup),
    fetchCallouts(client, lookups.calloutChunks, onLookup),
    fetchImages(client, lookups.imageChunks, onLookup),
    fetchNegativeSets(client, groups),
    fetchBidModifiers(client, campaignChunks),
  ]);
  progress.update('extensions', { status: 'done' });

  const data: CampaignData = {
    platform: 'yandex_direct',
    campaigns: assemble(campaigns, groups, liveAds, keywords, { sitelinks, callouts, images }, bidModifiers, await sharedAccount),
    searchQueries: [],
    ...(negativeSets.length > 0 ? { negativeSets } : {}),
    currency: campaigns.find((c) => c.Currency)?.Currency,
  };

  if (period) {
    const [stats, queries, placements, daily] = await Promise.all([reports.stats, reports.queries, reports.placements, reports.daily]);
    if (stats) applyStats(data, stats);
    if (queries) data.searchQueries = searchQueriesFrom(queries);
    if (placements) applySites(data, placements);
    if (daily) applyDailyStats(data, daily);
    if (stats || queries || placements) data.period = { ...period };
  }
  return data;
}

async function fetchCampaigns(client: DirectClient, named: number[] | undefined, includeArchived: boolean): Promise<ApiCampaign[]> {
  if (named && named.length > 0) {
    return getChunked<ApiCampaign>(client, 'campaigns', chunk(named, IDS_PER_REQUEST), (ids) => ({ SelectionCriteria: { Ids: ids }, FieldNames: CAMPAIGN_FIELDS, ...CAMPAIGN_STRATEGY_FIELDS }));
  }
  const all = await client.get<ApiCampaign>('campaigns', { SelectionCriteria: {}, FieldNames: CAMPAIGN_FIELDS, ...CAMPAIGN_STRATEGY_FIELDS });
  return includeArchived ? all : all.filter((campaign) => campaign.State !== 'ARCHIVED');
}

/** The ids the ads refer to, cut into the requests that look them up. */
function adLookupIds(ads: ApiAd[]) {
  return {
    sitelinkChunks: chunk(unique(ads.map((ad) => ad.TextAd?.SitelinkSetId).filter(isId)), IDS_PER_REQUEST),
    calloutChunks: chunk(unique(ads.flatMap(calloutIdsOf)), IDS_PER_REQUEST),
    imageChunks: chunk(unique(ads.map(imageHashOf).filter(nonEmpty)), AD_IMAGE_HASHES_PER_REQUEST),
  };
}

type OnChunk = (ids: unknown[], page: unknown[]) => void;

async function fetchSitelinks(client: DirectClient, chunks: number[][], onChunk?: OnChunk): Promise<Map<number, Sitelink[]>> {
  const sets = await getChunked<ApiSitelinksSet>(
    client,
    'sitelinks',
    chunks,
    (chunkIds) => ({
      SelectionCriteria: { Ids: chunkIds },
      FieldNames: ['Id', 'Sitelinks'],
    }),
    onChunk,
  );
  return new Map(
    sets.map((set) => [
      set.Id,
      (set.Sitelinks ?? []).map((link) => ({
        title: link.Title ?? '',
        ...(link.Description ? { description: link.Description } : {}),
        ...(link.Href ? { url: link.Href } : {}),
      })),
    ]),
  );
}

async function fetchCallouts(client: DirectClient, chunks: number[][], onChunk?: OnChunk): Promise<Map<number, string>> {
  const extensions = await getChunked<ApiAdExtension>(
    client,
    'adextensions',
    chunks,
    (chunkIds) => ({
      SelectionCriteria: { Ids: chunkIds },
      FieldNames: ['Id', 'Type'],
      CalloutFieldNames: ['CalloutText'],
    }),
    onChunk,
  );
  return new Map(extensions.filter((e) => e.Callout?.CalloutText).map((e) => [e.Id, e.Callout!.CalloutText!]));
}

/**
 * The shared negative sets the groups use, asked by their ids (an account has at most 30, so one
 * request; chunked like every id list all the same).
 */
async function fetchNegativeSets(client: DirectClient, groups: ApiAdGroup[]): Promise<NegativeKeywordSet[]> {
  const ids = unique(groups.flatMap((group) => idItems(group.NegativeKeywordSharedSetIds)));
  if (ids.length === 0) return [];
  const sets = await getChunked<ApiNegativeKeywordSharedSet>(client, 'negativekeywordsharedsets', chunk(ids, IDS_PER_REQUEST), (batch) => ({
    SelectionCriteria: { Ids: batch },
    FieldNames: NEGATIVE_SET_FIELDS,
  }));
  return sets.map((set) => ({ externalId: String(set.Id), name: set.Name ?? '', negativeKeywords: stringItems(set.NegativeKeywords) }));
}

/**
 * The bid adjustments of the campaigns and their groups (bidmodifiers.get by `CampaignIds`, at most 10
 * a request like the other per-campaign services), by campaign id and by group id. A refused request
 * (an account whose campaign types have no adjustments, an old API answer) costs only the adjustments.
 */
async function fetchBidModifiers(client: DirectClient, campaignChunks: number[][]): Promise<{ byCampaign: Map<number, BidAdjustment[]>; byGroup: Map<number, BidAdjustment[]> }> {
  const byCampaign = new Map<number, BidAdjustment[]>();
  const byGroup = new Map<number, BidAdjustment[]>();
  let modifiers: ApiBidModifier[] = [];
  try {
    modifiers = await getChunked<ApiBidModifier>(client, 'bidmodifiers', campaignChunks, (ids) => ({ SelectionCriteria: { CampaignIds: ids, Levels: ['CAMPAIGN', 'AD_GROUP'] }, ...BID_MODIFIER_FIELDS }));
  } catch (error) {
    if (!(error instanceof DirectApiError) || error.category !== 'request') throw error;
  }
  for (const modifier of modifiers) {
    const adjustment = bidAdjustmentOf(modifier);
    if (!adjustment) continue;
    const [map, id] = modifier.Level === 'AD_GROUP' ? [byGroup, modifier.AdGroupId] : [byCampaign, modifier.CampaignId];
    if (!isId(id)) continue;
    const list = map.get(id);
    if (list) list.push(adjustment);
    else map.set(id, [adjustment]);
  }
  return { byCampaign, byGroup };
}

const ageNames: Record<string, string> = { AGE_0_17: 'до 18', AGE_18_24: '18–24', AGE_25_34: '25–34', AGE_35_44: '35–44', AGE_45: 'от 45', AGE_45_54: '45–54', AGE_55: 'от 55' };
const genderNames: Record<string, string> = { GENDER_MALE: 'мужчины', GENDER_FEMALE: 'женщины' };

/** `MOBILE_ADJUSTMENT` + `MobileAdjustment {BidModifier}` → `{type: 'mobile', percent}`; a switched-off one (`Enabled: NO`) is none. */
function bidAdjustmentOf(modifier: ApiBidModifier): BidAdjustment | undefined {
  const type = (modifier.Type ?? '').replace(/_ADJUSTMENT$/, '');
  if (!type) return undefined;
  const values = modifier[structureName(`${type}_ADJUSTMENT`)] as ApiAdjustmentValues | null | undefined;
  const percent = values?.BidModifier;
  if (!values || typeof percent !== 'number' || !Number.isFinite(percent) || values.Enabled === 'NO') return undefined;
  const demographics = [values.Gender ? genderNames[values.Gender] : undefined, values.Age ? ageNames[values.Age] : undefined].filter(nonEmpty).join(' ');
  const condition = demographics || (isId(values.RetargetingConditionId) ? `условие ${values.RetargetingConditionId}` : isId(values.RegionId) ? `регион ${values.RegionId}` : '');
  return {
    type: type.toLowerCase(),
    percent,
    ...(condition ? { condition } : {}),
    ...(isId(values.RegionId) ? { regionId: values.RegionId } : {}),
  };
}

/**
 * What `Ad.image` holds for each image hash of the ads: the image's name (from `adimages.get`), else the hash.
 *
 * Why the name: `Ad.image` is what the export writes back into «Изображение», and the file importer keeps
 * that cell verbatim from Direct's own export, where we take it to be the image's file name (e.g.
 * `shuby_1080x607.jpg`; no official page we found spells the cell's format out). `adimages` `Name` is the
 * name the image was uploaded under, so an account read through the API exports the same cell as one read
 * from a file. The hash stands in when Yandex gives no name (or refuses the lookup): it is Direct's own
 * identifier of the image, so the ad still keeps a reference to it instead of losing it.
 */
async function fetchImages(client: DirectClient, chunks: string[][], onChunk?: OnChunk): Promise<Map<string, string>> {
  const images = new Map(chunks.flat().map((hash) => [hash, hash]));
  if (images.size === 0) return images;
  try {
    const found = await getChunked<ApiAdImage, string>(
      client,
      'adimages',
      chunks,
      (batch) => ({
        SelectionCriteria: { AdImageHashes: batch },
        FieldNames: AD_IMAGE_FIELDS,
      }),
      onChunk,
    );
    for (const image of found) {
      if (images.has(image.AdImageHash) && nonEmpty(image.Name)) images.set(image.AdImageHash, image.Name.trim());
    }
  } catch (error) {
    // A refused lookup (the request itself, not the token, points or Yandex's health) costs only the
    // names: the hashes are kept. Anything else fails the import like any other structure request.
    if (!(error instanceof DirectApiError) || error.category !== 'request') throw error;
  }
  return images;
}

function imageHashOf(ad: ApiAd): string | undefined {
  return ad.TextAd?.AdImageHash ?? ad.TextImageAd?.AdImageHash ?? undefined;
}

function calloutIdsOf(ad: ApiAd): number[] {
  const text = ad.TextAd;
  if (!text) return [];
  const fromObjects = (text.AdExtensions ?? []).filter((e) => !e.Type || e.Type === 'CALLOUT').map((e) => e.AdExtensionId);
  return [...fromObjects, ...(text.AdExtensionIds ?? [])].filter(isId);
}

async function getChunked<T, Id = number>(
  client: DirectClient,
  service: string,
  chunks: Id[][],
  params: (ids: Id[]) => Record<string, unknown>,
  onChunk?: (ids: Id[], items: T[]) => void,
): Promise<T[]> {
  const pages = await Promise.all(
    chunks.map(async (ids) => {
      const items = await client.get<T>(service, params(ids));
      onChunk?.(ids, items);
      return items;
    }),
  );
  return pages.flat();
}

function assemble(
  campaigns: ApiCampaign[],
  groups: ApiAdGroup[],
  ads: ApiAd[],
  keywords: ApiKeyword[],
  lookups: AdLookups,
  bidModifiers: { byCampaign: Map<number, BidAdjustment[]>; byGroup: Map<number, BidAdjustment[]> },
  sharedAccount: { accountId: string; balance: number } | null = null,
): Campaign[] {
  const adsByGroup = groupBy(ads, (ad) => ad.AdGroupId);
  const keywordsByGroup = groupBy(keywords, (keyword) => keyword.AdGroupId);
  const groupsByCampaign = groupBy(groups, (group) => group.CampaignId);

  return campaigns.map((campaign) => {
    const dailyBudget = money(campaign.DailyBudget?.Amount);
    const strategy = strategyOf(campaign);
    const schedule = scheduleOf(campaign);
    const adjustments = bidModifiers.byCampaign.get(campaign.Id);
    const funds = fundsOf(campaign, sharedAccount);
    return {
      externalId: String(campaign.Id),
      name: campaign.Name,
      ...(campaign.Type ? { type: campaignTypeLabel(campaign.Type) } : {}),
      ...placementOfStrategy(campaign),
      ...(strategy ? { strategy } : {}),
      ...(campaign.Currency ? { currency: campaign.Currency } : {}),
      ...(dailyBudget !== undefined ? { dailyBudget } : {}),
      ...(dailyBudget !== undefined && campaign.DailyBudget?.Mode ? { dailyBudgetMode: campaign.DailyBudget.Mode.toLowerCase() } : {}),
      ...(funds ? { funds } : {}),
      ...(schedule ? { schedule } : {}),
      ...(nonEmpty(campaign.StartDate) ? { startDate: campaign.StartDate } : {}),
      ...(nonEmpty(campaign.EndDate) ? { endDate: campaign.EndDate } : {}),
      ...(campaign.State ? { state: campaign.State.toLowerCase() } : {}),
      ...(adjustments ? { bidAdjustments: adjustments } : {}),
      ...(campaign.Status ? { status: campaign.Status.toLowerCase() } : {}),
      negativeKeywords: stringItems(campaign.NegativeKeywords),
      // Asked for every campaign: `null` in the answer means an empty list, which is worth knowing too.
      ...('ExcludedSites' in campaign ? { excludedSites: stringItems(campaign.ExcludedSites) } : {}),
      groups: (groupsByCampaign.get(campaign.Id) ?? []).map((group): AdGroup => {
        const setIds = idItems(group.NegativeKeywordSharedSetIds);
        const groupAdjustments = bidModifiers.byGroup.get(group.Id);
        return {
          externalId: String(group.Id),
          name: group.Name,
          keywords: (keywordsByGroup.get(group.Id) ?? []).map(toKeyword),
          ads: (adsByGroup.get(group.Id) ?? []).map((ad) => toAd(ad, lookups)),
          negativeKeywords: stringItems(group.NegativeKeywords),
          ...(group.RegionIds && group.RegionIds.length > 0 ? { region: group.RegionIds.join(', '), regionIds: group.RegionIds } : {}),
          ...(setIds.length > 0 ? { negativeSetIds: setIds.map(String) } : {}),
          ...(group.ServingStatus ? { servingStatus: group.ServingStatus.toLowerCase() } : {}),
          ...(groupAdjustments ? { bidAdjustments: groupAdjustments } : {}),
        };
      }),
    };
  });
}

/** The campaign's money: its own balance (micro-units), or the shared account's as read by `sharedAccountBalance`. */
function fundsOf(campaign: ApiCampaign, sharedAccount: { accountId: string; balance: number } | null): CampaignFunds | undefined {
  const mode = campaign.Funds?.Mode;
  if (mode === 'CAMPAIGN_FUNDS') {
    const balance = money(campaign.Funds?.CampaignFunds?.Balance);
    return { mode: 'campaign', ...(balance !== undefined ? { balance } : {}) };
  }
  if (mode === 'SHARED_ACCOUNT_FUNDS') return { mode: 'shared_account', ...(sharedAccount ? { balance: sharedAccount.balance, accountId: sharedAccount.accountId } : {}) };
  return undefined;
}

/**
 * The shared account's balance (v4 Live `AccountManagement`, Action «Get»: `Accounts[].AccountID`, `Amount`
 * in the account's currency, not micro-units). An agency names its client in `SelectionCriteria.Logins`;
 * an advertiser sends no criteria and gets its own account(s). A failure is a warning, not a failed read.
 */
async function sharedAccountBalance(client: DirectClient, clientLogin: string | undefined, warnings: string[] | undefined): Promise<{ accountId: string; balance: number } | null> {
  try {
    const data = await client.live4<{ Accounts?: { AccountID?: number; Amount?: number | string; Login?: string }[] }>('AccountManagement', {
      Action: 'Get',
      ...(clientLogin ? { SelectionCriteria: { Logins: [clientLogin] } } : {}),
    });
    const accounts = data?.Accounts ?? [];
    const account = accounts.find((item) => clientLogin && item.Login?.toLowerCase() === clientLogin.toLowerCase()) ?? accounts[0];
    const amount = Number(account?.Amount);
    if (!account || !Number.isFinite(amount)) return null;
    return { accountId: String(account.AccountID ?? ''), balance: round2(amount) };
  } catch (error) {
    // Even an authorisation refusal: v4 may refuse a token v5 accepts, and the account itself was read.
    if (!warnings || !(error instanceof DirectApiError)) throw error;
    warnings.push(directApiMessages.sharedAccountSkipped.replace('{reason}', error.message));
    return null;
  }
}

function toKeyword(keyword: ApiKeyword): Keyword {
  const split = splitKeyword(keyword.Keyword);
  const bid = money(keyword.Bid);
  const networkBid = money(keyword.ContextBid);
  const status = statusOf(keyword.State, keyword.Status);
  const categories = split.isAutotargeting ? autotargetingCategoriesOf(keyword) : undefined;
  return {
    externalId: String(keyword.Id),
    phrase: split.phrase,
    negativeWords: split.negativeWords,
    matchType: split.matchType,
    ...(bid ? { bid } : {}),
    ...(networkBid ? { networkBid } : {}),
    ...(status ? { status } : {}),
    ...(split.isAutotargeting ? { isAutotargeting: true } : {}),
    ...(keyword.ServingStatus ? { servingStatus: keyword.ServingStatus.toLowerCase() } : {}),
    ...(nonEmpty(keyword.Status) ? { moderation: { status: keyword.Status.toLowerCase() } } : {}),
    ...(categories ? { autotargetingCategories: categories } : {}),
  };
}

/** The categories switched on (`Value: YES`), lower case; none when the answer has no list. */
function autotargetingCategoriesOf(keyword: ApiKeyword): string[] | undefined {
  const value = keyword.AutotargetingCategories;
  const items = Array.isArray(value) ? value : value?.Items;
  if (!items?.length) return undefined;
  return items.filter((item) => item.Value === 'YES' && nonEmpty(item.Category)).map((item) => item.Category!.toLowerCase());
}

/** What the ads refer to by id or hash, read by separate requests. */
interface AdLookups {
  sitelinks: Map<number, Sitelink[]>;
  callouts: Map<number, string>;
  /** Image hash → what `Ad.image` holds (see fetchImages). */
  images: Map<string, string>;
}

function toAd(ad: ApiAd, { sitelinks, callouts, images }: AdLookups): Ad {
  const text = ad.TextAd;
  const status = statusOf(ad.State, ad.Status);
  const hash = imageHashOf(ad);
  const image = hash ? images.get(hash) : undefined;
  const moderation = moderationOf(ad);
  const base = { externalId: String(ad.Id), ...(status ? { status } : {}), ...(moderation ? { moderation } : {}), ...(image ? { image } : {}) };
  if (text) {
    const sitelinksModeration = moderationOf(text.SitelinksModeration);
    const imageModeration = moderationOf(text.AdImageModeration);
    const displayUrlModeration = moderationOf(text.DisplayUrlPathModeration);
    return {
      ...base,
      ...(sitelinksModeration ? { sitelinksModeration } : {}),
      ...(imageModeration ? { imageModeration } : {}),
      ...(displayUrlModeration ? { displayUrlModeration } : {}),
      kind: 'text',
      headlines: [text.Title, text.Title2].filter(nonEmpty),
      texts: [text.Text].filter(nonEmpty),
      ...(text.DisplayUrlPath ? { displayUrl: text.DisplayUrlPath } : {}),
      ...(text.Href ? { finalUrl: text.Href } : {}),
      sitelinks: isId(text.SitelinkSetId) ? (sitelinks.get(text.SitelinkSetId) ?? []) : [],
      callouts: calloutIdsOf(ad).map((id) => callouts.get(id)).filter(nonEmpty),
      isMobile: text.Mobile === 'YES',
    };
  }
  const kind: AdKind = ad.Type === 'IMAGE_AD' ? 'image' : 'other';
  const href = ad.TextImageAd?.Href;
  return { ...base, kind, headlines: [], texts: [], ...(href ? { finalUrl: href } : {}), sitelinks: [], callouts: [] };
}

/** `Status` with Yandex's `StatusClarification`, lower case; none when the answer has no status. */
function moderationOf(source: ApiExtensionModeration | null | undefined): Moderation | undefined {
  if (!source || !nonEmpty(source.Status)) return undefined;
  return { status: source.Status.toLowerCase(), ...(nonEmpty(source.StatusClarification) ? { clarification: source.StatusClarification.trim() } : {}) };
}

/* ---------- statistics ---------- */

function reportName(kind: string, definition: Omit<ReportDefinition, 'ReportName'>): string {
  // Yandex caches a report by name: the same name with other parameters is refused, so the name carries a hash of them.
  const hash = createHash('sha256').update(JSON.stringify(definition)).digest('hex').slice(0, 12);
  return `reklama-lab ${kind} ${hash}`;
}

function periodCriteria(period: StatsPeriod, campaignIds: number[] | undefined): ReportDefinition['SelectionCriteria'] {
  return {
    DateFrom: period.from,
    DateTo: period.to,
    ...(campaignIds && campaignIds.length > 0 ? { Filter: [{ Field: 'CampaignId', Operator: 'IN', Values: campaignIds.map(String) }] } : {}),
  };
}

export function statsReport(period: StatsPeriod, campaignIds?: number[]): ReportDefinition {
  const definition = {
    SelectionCriteria: periodCriteria(period, campaignIds),
    FieldNames: STATS_REPORT_FIELDS,
    ReportType: 'CUSTOM_REPORT',
    DateRangeType: 'CUSTOM_DATE',
    Format: 'TSV' as const,
    IncludeVAT: 'YES' as const,
  };
  return { ...definition, ReportName: reportName('stats', definition) };
}

export function searchQueryReport(period: StatsPeriod, campaignIds?: number[]): ReportDefinition {
  const definition = {
    SelectionCriteria: periodCriteria(period, campaignIds),
    FieldNames: SEARCH_QUERY_REPORT_FIELDS,
    ReportType: 'SEARCH_QUERY_PERFORMANCE_REPORT',
    DateRangeType: 'CUSTOM_DATE',
    Format: 'TSV' as const,
    IncludeVAT: 'YES' as const,
  };
  return { ...definition, ReportName: reportName('search-queries', definition) };
}

/**
 * Network sites and apps: Reports has no report type of its own for them (the placements report of Google
 * Ads is `PLACEMENT_PERFORMANCE_REPORT`; Direct's types are account, campaign, group, ad, criteria, custom,
 * search query and reach). `CUSTOM_REPORT` groups by the fields asked for, so `CampaignId` + `Placement`
 * gives one row per campaign and site; the `AdNetworkType` filter keeps the network rows (search partners'
 * rows name a site too, but are not what «Запрещённые площадки» is for).
 */
export function placementReport(period: StatsPeriod, campaignIds?: number[]): ReportDefinition {
  const criteria = periodCriteria(period, campaignIds);
  const definition = {
    SelectionCriteria: { ...criteria, Filter: [...(criteria.Filter ?? []), { Field: 'AdNetworkType', Operator: 'EQUALS', Values: ['AD_NETWORK'] }] },
    FieldNames: PLACEMENT_REPORT_FIELDS,
    ReportType: 'CUSTOM_REPORT',
    DateRangeType: 'CUSTOM_DATE',
    Format: 'TSV' as const,
    IncludeVAT: 'YES' as const,
  };
  return { ...definition, ReportName: reportName('placements', definition) };
}

/** Day-by-day campaign totals: `Date` × `CampaignId` rows (small: campaigns × days of the period). */
export function dailyReport(period: StatsPeriod, campaignIds?: number[]): ReportDefinition {
  const definition = {
    SelectionCriteria: periodCriteria(period, campaignIds),
    FieldNames: DAILY_REPORT_FIELDS,
    ReportType: 'CAMPAIGN_PERFORMANCE_REPORT',
    DateRangeType: 'CUSTOM_DATE',
    Format: 'TSV' as const,
    IncludeVAT: 'YES' as const,
  };
  return { ...definition, ReportName: reportName('daily', definition) };
}

/** A report whose failure becomes a warning when the caller collects warnings (never for auth errors: those are fatal anyway). */
async function optionalReport(report: Promise<ReportTable>, template: string, warnings: string[] | undefined): Promise<ReportTable | null> {
  try {
    return await report;
  } catch (error) {
    if (!warnings || !(error instanceof DirectApiError) || error.category === 'auth') throw error;
    warnings.push(template.replace('{reason}', error.message));
    return null;
  }
}

function statsOf(row: Record<string, string>): Stats {
  return {
    impressions: reportNumber(row.Impressions),
    clicks: reportNumber(row.Clicks),
    cost: reportNumber(row.Cost),
    conversions: reportNumber(row.Conversions),
  };
}

function addStats(target: Stats | undefined, add: Stats): Stats {
  if (!target) return { ...add };
  return {
    impressions: target.impressions + add.impressions,
    clicks: target.clicks + add.clicks,
    cost: round2(target.cost + add.cost),
    conversions: target.conversions + add.conversions,
  };
}

/** Marks a report's stage done (with its rows) when it arrives, or skipped when it could not be read. */
function trackReport(report: Promise<ReportTable | null>, progress: ProgressTracker, stage: 'statistics' | 'search_queries'): Promise<ReportTable | null> {
  return report.then(
    (table) => {
      progress.update(stage, table ? { status: 'done', done: 1, items: table.rows.length } : { status: 'skipped' });
      return table;
    },
    (error: unknown) => {
      progress.update(stage, { status: 'skipped' });
      throw error;
    },
  );
}

/** Sums the CUSTOM_REPORT rows (one per campaign × group × ad × criterion) onto campaigns, ads and keywords. */
function applyStats(data: CampaignData, table: ReportTable): void {
  const byCampaign = new Map<string, Stats>();
  const byAd = new Map<string, Stats>();
  const byCriterion = new Map<string, Stats>();
  // AdNetworkType SEARCH / AD_NETWORK: the same sums split by placement.
  const campaignSplit = new Map<string, PlacementStats>();
  const criterionSplit = new Map<string, PlacementStats>();
  const addSplit = (map: Map<string, PlacementStats>, id: string, placement: 'search' | 'networks', stats: Stats) => {
    const split = map.get(id) ?? {};
    split[placement] = addStats(split[placement], stats);
    map.set(id, split);
  };
  for (const row of table.rows) {
    const stats = statsOf(row);
    const campaignId = row.CampaignId ?? '';
    const adId = row.AdId ?? '';
    const criterionId = row.CriterionId ?? row.CriteriaId ?? '';
    const placement = row.AdNetworkType === 'SEARCH' ? 'search' : row.AdNetworkType === 'AD_NETWORK' ? 'networks' : undefined;
    byCampaign.set(campaignId, addStats(byCampaign.get(campaignId), stats));
    if (placement) addSplit(campaignSplit, campaignId, placement, stats);
    if (isReportId(adId)) byAd.set(adId, addStats(byAd.get(adId), stats));
    if (isReportId(criterionId)) {
      byCriterion.set(criterionId, addStats(byCriterion.get(criterionId), stats));
      if (placement) addSplit(criterionSplit, criterionId, placement, stats);
    }
  }
  for (const campaign of data.campaigns) {
    const campaignStats = byCampaign.get(campaign.externalId ?? '');
    if (campaignStats) campaign.stats = campaignStats;
    const split = campaignSplit.get(campaign.externalId ?? '');
    if (split) campaign.placementStats = split;
    for (const group of campaign.groups) {
      for (const ad of group.ads) {
        const adStats = byAd.get(ad.externalId ?? '');
        if (adStats) ad.stats = adStats;
      }
      for (const keyword of group.keywords) {
        const keywordStats = byCriterion.get(keyword.externalId ?? '');
        if (keywordStats) keyword.stats = keywordStats;
        const keywordSplit = criterionSplit.get(keyword.externalId ?? '');
        if (keywordSplit) keyword.placementStats = keywordSplit;
      }
    }
  }
}

/** The placements report's rows onto their campaigns' `sites`, dearest first (a site named twice is summed). */
function applySites(data: CampaignData, table: ReportTable): void {
  const byCampaign = new Map<string, Map<string, Stats>>();
  for (const row of table.rows) {
    const site = row.Placement?.trim();
    if (!present(site) || (row.AdNetworkType && row.AdNetworkType !== 'AD_NETWORK')) continue;
    const sites = byCampaign.get(row.CampaignId ?? '') ?? new Map<string, Stats>();
    sites.set(site, addStats(sites.get(site), statsOf(row)));
    byCampaign.set(row.CampaignId ?? '', sites);
  }
  for (const campaign of data.campaigns) {
    const sites = byCampaign.get(campaign.externalId ?? '');
    if (sites) campaign.sites = [...sites].map(([site, stats]) => ({ site, stats })).sort((a, b) => b.stats.cost - a.stats.cost);
  }
}

/** The daily report's rows onto their campaigns, in date order. */
function applyDailyStats(data: CampaignData, table: ReportTable): void {
  const byCampaign = new Map<string, Map<string, Stats>>();
  for (const row of table.rows) {
    const date = row.Date?.trim();
    const campaignId = row.CampaignId ?? '';
    if (!date || !isReportId(campaignId)) continue;
    const days = byCampaign.get(campaignId) ?? new Map<string, Stats>();
    days.set(date, addStats(days.get(date), statsOf(row)));
    byCampaign.set(campaignId, days);
  }
  for (const campaign of data.campaigns) {
    const days = byCampaign.get(campaign.externalId ?? '');
    if (!days) continue;
    const dailyStats: DailyStats[] = [...days].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([date, stats]) => ({ date, stats }));
    campaign.dailyStats = dailyStats;
  }
}

function searchQueriesFrom(table: ReportTable): SearchQuery[] {
  return table.rows
    .filter((row) => (row.Query ?? '').trim() !== '')
    .map((row) => {
      const keyword = firstValue(row, ['Criterion', 'Criteria', 'MatchedKeyword', 'Keyword']);
      return {
        query: row.Query!.trim(),
        ...(present(row.CampaignName) ? { campaignName: row.CampaignName } : {}),
        ...(present(row.AdGroupName) ? { groupName: row.AdGroupName } : {}),
        ...(keyword ? { keyword } : {}),
        stats: statsOf(row),
      };
    });
}

/* ---------- small helpers ---------- */

/** Money in get answers is in millionths of the currency unit (long). */
function money(micros: number | null | undefined): number | undefined {
  if (micros === null || micros === undefined || !Number.isFinite(Number(micros))) return undefined;
  return round2(Number(micros) / 1_000_000);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** `ArrayOfString` is `{Items: [...]}` in the official JSON; a bare array or null is tolerated. */
function stringItems(value: ArrayOfString): string[] {
  const items = Array.isArray(value) ? value : (value?.Items ?? []);
  return items.map((item) => item.trim().replace(/^-/, '')).filter((item) => item !== '');
}

/** Search `SERVING_OFF` = networks only, network `SERVING_OFF` = search only, both strategies on = both. */
export function placementOfStrategy(campaign: ApiCampaign): { placement?: Placement } {
  const strategy = (campaign.TextCampaign ?? campaign.UnifiedCampaign)?.BiddingStrategy;
  const search = strategy?.Search?.BiddingStrategyType;
  const network = strategy?.Network?.BiddingStrategyType;
  if (!search || !network) return {};
  if (search === 'SERVING_OFF' && network === 'SERVING_OFF') return {};
  if (search === 'SERVING_OFF') return { placement: 'networks' };
  if (network === 'SERVING_OFF') return { placement: 'search' };
  return { placement: 'both' };
}

/**
 * Strategies that leave the bids to the keywords (annex «Типы стратегий»): `HIGHEST_POSITION` on search,
 * `MAXIMUM_COVERAGE` in networks. `NETWORK_DEFAULT` shows in networks with the search strategy's bidding.
 * Every other type is automatic: Direct sets the bids itself.
 */
const MANUAL_STRATEGIES = new Set(['HIGHEST_POSITION', 'MAXIMUM_COVERAGE']);
const PAY_FOR_CONVERSION_STRATEGIES = new Set(['PAY_FOR_CONVERSION', 'PAY_FOR_CONVERSION_CRR', 'PAY_FOR_CONVERSION_MULTIPLE_GOALS']);

/** The strategy of each placement with its parameters (the structure named after the type: `WB_MAXIMUM_CLICKS` → `WbMaximumClicks`). */
export function strategyOf(campaign: ApiCampaign): CampaignStrategy | undefined {
  const strategy = (campaign.TextCampaign ?? campaign.UnifiedCampaign)?.BiddingStrategy;
  const search = placementStrategy(strategy?.Search);
  let networks = placementStrategy(strategy?.Network);
  if (networks && strategy?.Network?.BiddingStrategyType === 'NETWORK_DEFAULT' && search) {
    // Networks on the search strategy: bid and pay as on search.
    networks = { ...networks, bidding: search.bidding === 'off' ? 'manual' : search.bidding, ...(search.payForConversion ? { payForConversion: true } : {}) };
  }
  if (!search && !networks) return undefined;
  return { ...(search ? { search } : {}), ...(networks ? { networks } : {}) };
}

function placementStrategy(api: ApiPlacementStrategy | null | undefined): BiddingStrategy | undefined {
  const type = api?.BiddingStrategyType;
  if (!type) return undefined;
  const bidding = type === 'SERVING_OFF' ? 'off' : MANUAL_STRATEGIES.has(type) || type === 'NETWORK_DEFAULT' ? 'manual' : 'automatic';
  const params = (api[structureName(type)] ?? {}) as ApiStrategyParams;
  const weeklyBudget = money(params.WeeklySpendLimit);
  const targetCpa = money(params.AverageCpa ?? params.Cpa);
  const averageCpc = money(params.AverageCpc);
  const bidCeiling = money(params.BidCeiling);
  return {
    type,
    bidding,
    ...(PAY_FOR_CONVERSION_STRATEGIES.has(type) ? { payForConversion: true } : {}),
    ...(weeklyBudget !== undefined ? { weeklyBudget } : {}),
    ...(targetCpa !== undefined ? { targetCpa } : {}),
    ...(averageCpc !== undefined ? { averageCpc } : {}),
    ...(bidCeiling !== undefined ? { bidCeiling } : {}),
    ...(isId(params.GoalId) ? { goalId: String(params.GoalId) } : {}),
  };
}

/** `WB_MAXIMUM_CLICKS` → `WbMaximumClicks`, `AVERAGE_CPA` → `AverageCpa`: the structure that carries a type's parameters. */
function structureName(type: string): string {
  return type
    .toLowerCase()
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/**
 * `TimeTargeting.Schedule.Items`: one string a weekday, `"1,100,…"` (the day, 1 = Monday, then 24 hourly
 * coefficients in percent). A day the answer leaves out shows as usual (100 every hour).
 */
function scheduleOf(campaign: ApiCampaign): WeekSchedule | undefined {
  const items = stringItems(campaign.TimeTargeting?.Schedule);
  if (items.length === 0) return undefined;
  const days = Array.from({ length: 7 }, () => Array<number>(24).fill(100));
  for (const item of items) {
    const [day, ...hours] = item.split(',').map((value) => Number(value.trim()));
    if (!day || day < 1 || day > 7 || hours.length !== 24 || hours.some((hour) => !Number.isFinite(hour))) continue;
    days[day - 1] = hours;
  }
  return { days, ...(nonEmpty(campaign.TimeZone) ? { timeZone: campaign.TimeZone } : {}) };
}

/** TEXT_CAMPAIGN → `text`, UNIFIED_CAMPAIGN → `unified`: the model keeps the platform's type in lower case. */
export function campaignTypeLabel(type: string): string {
  return type.replace(/_CAMPAIGN$/, '').toLowerCase();
}

/** Serving state when the object is not on (suspended, off, archived), otherwise its moderation status; lower case. */
function statusOf(state: string | undefined, status: string | undefined): string | undefined {
  const chosen = state && state !== 'ON' ? state : (status ?? state);
  return chosen ? chosen.toLowerCase() : undefined;
}

/** `ArrayOfLong` (`{Items: [...]}`, or a bare array) as ids. */
function idItems(value: { Items?: number[] | null } | number[] | null | undefined): number[] {
  const items = Array.isArray(value) ? value : (value?.Items ?? []);
  return items.filter(isId);
}

function chunk<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

const unique = <T>(items: T[]) => [...new Set(items)];
const isId = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;
const nonEmpty = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';
const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '' && value.trim() !== '--';
const isReportId = (value: string) => present(value) && value !== '0';

function firstValue(row: Record<string, string>, columns: string[]): string | undefined {
  for (const column of columns) if (present(row[column])) return row[column]!.trim();
  return undefined;
}

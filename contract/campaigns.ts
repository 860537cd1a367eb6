/**
 * The campaign model every importer produces and every analysis engine reads. Plain data (JSON-safe),
 * shared by the server engines and the PWA screens.
 *
 * Keyword and negative-keyword texts keep each platform's own operator notation:
 * - Yandex Direct: `"фраза"`, `[порядок слов]`, `!форма`, `+предлог`, `(а|б)`; minus-words of a phrase are
 *   kept apart in `Keyword.negativeWords` (without the leading `-`).
 * - Google Ads: the keyword text is bare and `matchType` says broad/phrase/exact; negative keywords are
 *   written in Google's notation: `word` broad, `"word"` phrase, `[word]` exact.
 */

export type AdPlatform = 'yandex_direct' | 'google_ads' | 'vk_ads';

export const adPlatformLabels: Record<AdPlatform, string> = {
  yandex_direct: 'Яндекс Директ',
  google_ads: 'Google Ads',
  vk_ads: 'VK Реклама',
};

export type MatchType = 'broad' | 'phrase' | 'exact';

export interface StatsPeriod {
  /** ISO dates, inclusive. */
  from: string;
  to: string;
}

/** Statistics of one object over a period; money in the account currency (roubles unless said). */
export interface Stats {
  impressions: number;
  clicks: number;
  cost: number;
  conversions: number;
  /** Revenue when the report has it. */
  revenue?: number;
}

/**
 * Where ads are shown: on search results, in the ad networks (Yandex РСЯ, Google Display Network), or both.
 * Search and network traffic live on different scales (CTR, CPC, CPA), so the engines judge them apart.
 */
export type Placement = 'search' | 'networks' | 'both';

/** Statistics split by placement when a report gives one row per placement («Тип площадки», AdNetworkType, Network). */
export type PlacementStats = Partial<Record<'search' | 'networks', Stats>>;

/** A campaign's statistics of one day (ISO date). */
export interface DailyStats {
  date: string;
  stats: Stats;
}

/** One network site or app of a campaign with its statistics over the period. */
export interface SiteStats {
  site: string;
  stats: Stats;
}

export interface Keyword {
  externalId?: string;
  /** The phrase as written in the platform, operators included, minus-words excluded. */
  phrase: string;
  /** Minus-words attached to this phrase (Yandex `фраза -слово`), without the `-`. */
  negativeWords: string[];
  matchType: MatchType;
  bid?: number;
  networkBid?: number;
  status?: string;
  /** Yandex autotargeting row (`---autotargeting`): not a keyword the user wrote. */
  isAutotargeting?: boolean;
  /** Direct API `Keywords.ServingStatus`, lower case: `eligible`, or `rarely_served` («мало показов»). */
  servingStatus?: string;
  /** Direct API `Keywords.Status` (moderation), lower case: `accepted`, `draft`, `rejected`, `unknown`. */
  moderation?: Moderation;
  /**
   * The autotargeting categories switched on, for an autotargeting row read through the Direct API
   * (`AutotargetingCategories`, lower case: `exact`, `narrow`, `alternative`, `accessory`, `broader`).
   */
  autotargetingCategories?: string[];
  /** All placements together (the sum of `placementStats` when that is present). */
  stats?: Stats;
  /** The same statistics split by placement, when the report had a placement column. */
  placementStats?: PlacementStats;
}

export interface Sitelink {
  title: string;
  description?: string;
  url?: string;
}

export type AdKind = 'text' | 'image' | 'responsive_search' | 'combinatorial' | 'other';

export interface Ad {
  externalId?: string;
  kind: AdKind;
  /** Yandex: [Заголовок 1, Заголовок 2] (or 1…7 for combinatorial ads); Google RSA: Headline 1…15. */
  headlines: string[];
  /** Yandex: [Текст] (or 1…3); Google RSA: Description 1…4. */
  texts: string[];
  /** Yandex «Отображаемая ссылка». */
  displayUrl?: string;
  /** Google Path 1 / Path 2. */
  paths?: string[];
  finalUrl?: string;
  sitelinks: Sitelink[];
  callouts: string[];
  isMobile?: boolean;
  /**
   * Yandex «Изображение» of an image or text-and-image ad: the image's file name or hash as the export
   * gives it. Kept so an export of changes can write the ad back whole (an upload row without it loses the image).
   * An API import stores the same name (adimages `Name`), or the `AdImageHash` when Yandex gives no name.
   */
  image?: string;
  status?: string;
  /**
   * Moderation as the Direct API gives it (`Ads.Status`, lower case: `draft`, `moderation`, `preaccepted`,
   * `accepted`, `rejected`) with Yandex's reason (`StatusClarification`, Russian), apart from `status`,
   * which says first whether the ad is on at all.
   */
  moderation?: Moderation;
  /** Moderation of the ad's sitelinks set (Direct `TextAd.SitelinksModeration`), same statuses. */
  sitelinksModeration?: Moderation;
  /** Moderation of the ad's image (Direct `TextAd.AdImageModeration`), same statuses. */
  imageModeration?: Moderation;
  /** Moderation of the display link (Direct `TextAd.DisplayUrlPathModeration`), same statuses. */
  displayUrlModeration?: Moderation;
  stats?: Stats;
}

export interface Moderation {
  status: string;
  /** Yandex's own words on why (e.g. the rejection reason). */
  clarification?: string;
}

export interface AdGroup {
  externalId?: string;
  name: string;
  keywords: Keyword[];
  ads: Ad[];
  /** Group-level negative keywords/phrases (platform notation, no leading `-`). */
  negativeKeywords: string[];
  region?: string;
  /** Direct API `RegionIds` (negative ids exclude a region), when the import has them. */
  regionIds?: number[];
  /** Ids of the shared negative sets the group uses (`CampaignData.negativeSets`; Direct allows three). */
  negativeSetIds?: string[];
  /** Status as the platform writes it (e.g. Google `Enabled`, `Paused`). */
  status?: string;
  /** Direct API `AdGroups.ServingStatus`, lower case: `eligible`, or `rarely_served` («мало показов»). */
  servingStatus?: string;
  /** The group's own bid adjustments (Direct `bidmodifiers`, level `AD_GROUP`). */
  bidAdjustments?: BidAdjustment[];
  /** Statistics a report gave for the group as a whole (not per keyword or ad). */
  stats?: Stats;
}

/**
 * The bidding strategy of one placement (Direct `BiddingStrategy.Search` / `.Network`). Money in roubles
 * (the API's micros divided), present only where the strategy has that parameter.
 */
export interface BiddingStrategy {
  /** The platform's own name, e.g. Direct `HIGHEST_POSITION`, `WB_MAXIMUM_CLICKS`, `PAY_FOR_CONVERSION`. */
  type: string;
  /**
   * `manual`: keyword bids set the price; `automatic`: the platform sets the bids itself, keyword bids do
   * nothing (at most a ceiling); `off`: no shows on this placement (`SERVING_OFF`).
   */
  bidding: 'manual' | 'automatic' | 'off';
  /** Charged per conversion, not per click (Direct `PAY_FOR_CONVERSION`, `PAY_FOR_CONVERSION_CRR`). */
  payForConversion?: boolean;
  weeklyBudget?: number;
  /** Target (or paid) cost per conversion. */
  targetCpa?: number;
  /** Average click price the strategy holds (Direct `AVERAGE_CPC`). */
  averageCpc?: number;
  /** The highest bid the strategy may set. */
  bidCeiling?: number;
  /** The Metrica goal the strategy optimises for. */
  goalId?: string;
}

export interface CampaignStrategy {
  search?: BiddingStrategy;
  networks?: BiddingStrategy;
}

/**
 * When a campaign shows in a week: seven weekdays, Monday first, each 24 hourly bid coefficients in
 * percent (0 = off, 100 = as usual), in the campaign's time zone. Direct `TimeTargeting.Schedule`.
 */
export interface WeekSchedule {
  days: number[][];
  timeZone?: string;
}

/**
 * One bid adjustment (Direct `bidmodifiers.get`): the percent applied to the bid (or, in conversion
 * strategies, to the target price) when the condition holds. 100 = unchanged, 0 = no shows (−100 %),
 * 150 = +50 %.
 */
export interface BidAdjustment {
  /** Direct's type, lower case without `_adjustment`: `mobile`, `tablet`, `desktop`, `desktop_only`, `demographics`, `retargeting`, `regional`, `video`, … */
  type: string;
  percent: number;
  /** What the adjustment is for, in Russian («женщины 18–24», «регион 213»); none for devices. */
  condition?: string;
  /** Regional adjustments: the Direct region id. */
  regionId?: number;
}

/** A shared list of negative keywords groups refer to (Direct `negativekeywordsharedsets`). */
export interface NegativeKeywordSet {
  externalId: string;
  name: string;
  /** Platform notation, no leading `-`. */
  negativeKeywords: string[];
}

/**
 * Where a Direct campaign's money comes from and how much is left (campaigns.get `Funds`, and for a shared
 * account the v4 Live `AccountManagement` «Get»), as read with the account; the balance alert uses it.
 */
export interface CampaignFunds {
  /** `CAMPAIGN_FUNDS`: the campaign has its own balance; `SHARED_ACCOUNT_FUNDS`: it spends the advertiser's shared account (общий счёт). */
  mode: 'campaign' | 'shared_account';
  /**
   * Money left in the account currency: the campaign's own `CampaignFunds.Balance`, or the shared account's
   * `Amount`. Missing when it could not be read (the shared account needs a second call that may fail).
   */
  balance?: number;
  /** The shared account's `AccountID`: campaigns of one account spend one balance. */
  accountId?: string;
}

export interface Campaign {
  externalId?: string;
  name: string;
  /** search, network, … as the platform names it (free text, lower case). */
  type?: string;
  currency?: string;
  /** Daily budget in the account currency (roubles unless said). */
  dailyBudget?: number;
  /** How the daily budget is spent: Direct `STANDARD` or `DISTRIBUTED`, lower case. */
  dailyBudgetMode?: string;
  /** The campaign's money as read with the account (Direct API only). */
  funds?: CampaignFunds;
  /** Bidding strategy per placement, when the import reads it (the Direct API does; files do not). */
  strategy?: CampaignStrategy;
  schedule?: WeekSchedule;
  /** ISO dates, inclusive. */
  startDate?: string;
  endDate?: string;
  /** Direct `State`, lower case: `on`, `off`, `suspended`, `ended`, `converted`, `archived`. */
  state?: string;
  /** Campaign-level bid adjustments (Direct `bidmodifiers`, level `CAMPAIGN`), when the import reads them. */
  bidAdjustments?: BidAdjustment[];
  /** The campaign's statistics day by day over the period (Direct report with `Date`), when the import reads them. */
  dailyStats?: DailyStats[];
  /** Campaign-level negative keywords (platform notation, no leading `-`). */
  negativeKeywords: string[];
  groups: AdGroup[];
  stats?: Stats;
  /** Status as the platform writes it (Direct: the moderation `Status`, lower case). */
  status?: string;
  /**
   * Where the platform's own settings say the campaign shows: Google Editor «Networks», the Direct API
   * strategy (search or network strategy `SERVING_OFF`). Missing when the import does not say; the
   * analysis then decides from the type, the statistics and the name (server/engines/placement.ts).
   */
  placement?: Placement;
  /** Campaign statistics split by placement, when the report had a placement column. */
  placementStats?: PlacementStats;
  /** Network sites and apps the campaign was shown on, from a placements report («Площадка», «Placement»). */
  sites?: SiteStats[];
  /** Sites and apps the campaign already excludes (Direct `ExcludedSites`, at most 1 000), when the import reads them. */
  excludedSites?: string[];
  /**
   * The platform whose notation this campaign's keywords use, when it differs from `CampaignData.platform`
   * (files of both platforms uploaded into one project). Set by the importers on every campaign.
   */
  platform?: AdPlatform;
}

/** One row of a search-query report: what people actually typed. */
export interface SearchQuery {
  query: string;
  campaignName?: string;
  groupName?: string;
  /** The keyword that matched the query, as written in the report. */
  keyword?: string;
  stats: Stats;
}

export interface CampaignData {
  platform: AdPlatform;
  campaigns: Campaign[];
  searchQueries: SearchQuery[];
  /** Shared negative keyword sets the groups refer to by `AdGroup.negativeSetIds`. */
  negativeSets?: NegativeKeywordSet[];
  /** Period of the statistics, when any were imported. */
  period?: StatsPeriod;
  currency?: string;
}

/** A problem found in an imported file, pointing at the place a person can open and fix. */
export interface ImportProblem {
  file: string;
  /** 1-based row number as a spreadsheet shows it. */
  row?: number;
  column?: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface ImportCounts {
  campaigns: number;
  groups: number;
  ads: number;
  keywords: number;
  searchQueries: number;
}

export function countCampaignData(data: Pick<CampaignData, 'campaigns' | 'searchQueries'>): ImportCounts {
  let groups = 0;
  let ads = 0;
  let keywords = 0;
  for (const campaign of data.campaigns) {
    groups += campaign.groups.length;
    for (const group of campaign.groups) {
      ads += group.ads.length;
      keywords += group.keywords.length;
    }
  }
  return { campaigns: data.campaigns.length, groups, ads, keywords, searchQueries: data.searchQueries.length };
}

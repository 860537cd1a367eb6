/**
 * What the analysis engines (scoring and semantics) return and what the results screens render:
 * findings, scores, suggestions, and the thresholds that produced them. Plain JSON-safe data.
 *
 * Money is in the account currency (roubles unless the data says otherwise). A finding that can be
 * priced carries both the money of the imported period and `moneyPerMonth` (the period scaled to 30 days).
 */
import * as v from 'valibot';
import type { AdPlatform, StatsPeriod } from './campaigns.js';

// ---------------------------------------------------------------- settings

/** Every threshold of the engines, overridable per project; each finding names the one that fired. */
export interface AnalysisSettings {
  /** Target cost per conversion set in the project; `null` = the account's CPA on the keyword's placement is the reference. */
  targetCpa: number | null;
  /** A query needs at least this many clicks before it is suggested as a negative (below: "collect data"). */
  minClicksForNegative: number;
  /** A keyword needs at least this many clicks before an action is suggested (below: "collect data"). */
  minClicksForKeywordAction: number;
  /** Impressions needed before a CTR is judged. */
  minImpressionsForCtr: number;
  /** Search CTR below this share (0.02 = 2 %) on commercial queries is low. */
  lowSearchCtr: number;
  /** Network CTR at or above this share is suspicious (accidental clicks). */
  suspiciousNetworkCtr: number;
  /** CTR below this share of the account's median search CTR is low. */
  ctrBelowMedianRatio: number;
  /** A CPC at or above this multiple of the account's median CPC is expensive. */
  expensiveCpcMedianRatio: number;
  /** Stop a keyword with 0 conversions when its cost reaches this multiple of the CPA. */
  stopCostCpaRatio: number;
  /** Lower the bid when the keyword's CPA reaches this multiple of the target. */
  lowerBidCpaRatio: number;
  /** Raise or lower a bid only when the keyword's CPA differs from the reference CPA by at least this share (0.2 = 20 %). */
  bidChangeMinDifference: number;
  /** The same ad text in at least this many groups is flagged. */
  sameAdTextGroups: number;
  /** A campaign with one group holding at least this many keywords is "one group for everything". */
  singleGroupMinKeywords: number;
  /** Group relevance (share of keyword lemmas found in the ads) below this is flagged. */
  minGroupRelevance: number;
  /** Competitor brands to add as negatives when they show up in queries. */
  competitors: string[];
  /** Place names (lower case) of the project's own region: never suggested as foreign geography. */
  homeRegionWords: string[];
  /** Days in a "month" for money figures. */
  daysPerMonth: number;
  /** An ad on moderation without a single impression over a statistics period of at least this many days is stuck. */
  moderationStuckDays: number;
  /** A suspended keyword with at least this many conversions in the period (at a CPA not above the reference) was worth keeping. */
  suspendedKeywordMinConversions: number;
  // ---- campaign settings (read through the Direct API; server/engines/scoring/checks/settings-*.ts)
  /** Conversions of a campaign in the period from which manual bids or «Максимум кликов» leave a conversion strategy unused. */
  conversionStrategyMinConversions: number;
  /** A conversion strategy's real CPA at or above this multiple of its target CPA: the strategy does not hold its target. */
  strategyCpaOverTargetRatio: number;
  /** A conversion strategy's weekly budget below this many target CPAs starves it (too few conversions a week to learn). */
  weeklyBudgetMinTargetCpas: number;
  /** A day's spend at or above this share of the daily budget counts as a day the budget ran out. */
  dailyBudgetReachedShare: number;
  /** Days the budget ran out, as a share of the days with spend, from which the daily budget is flagged. */
  dailyBudgetLimitedDaysShare: number;
  /** A campaign on search and in networks is flagged when its network CPA is at least this multiple of its search CPA (or the networks spent that many search CPAs without a conversion). */
  mixedPlacementCpaRatio: number;
  /** Share of the account's conversions on the weekdays a campaign's schedule leaves off from which they are flagged. */
  scheduleOffConversionShare: number;
  /** Bid adjustments above +this percent are extreme. */
  bidAdjustmentMaxIncrease: number;
  /** Bid adjustments of −this percent or lower (short of −100 %) are extreme. */
  bidAdjustmentMaxDecrease: number;
  /** Clicks a conversion strategy needs in the period before «no conversions» is a verdict. */
  conversionStrategyMinClicks: number;
}

export const defaultAnalysisSettings: AnalysisSettings = {
  targetCpa: null,
  minClicksForNegative: 5,
  minClicksForKeywordAction: 30,
  minImpressionsForCtr: 100,
  lowSearchCtr: 0.02,
  suspiciousNetworkCtr: 0.02,
  ctrBelowMedianRatio: 0.5,
  expensiveCpcMedianRatio: 2,
  stopCostCpaRatio: 2,
  lowerBidCpaRatio: 1.5,
  bidChangeMinDifference: 0.2,
  sameAdTextGroups: 3,
  singleGroupMinKeywords: 20,
  minGroupRelevance: 0.5,
  competitors: [],
  homeRegionWords: [],
  daysPerMonth: 30,
  moderationStuckDays: 3,
  suspendedKeywordMinConversions: 2,
  conversionStrategyMinConversions: 10,
  strategyCpaOverTargetRatio: 1.3,
  weeklyBudgetMinTargetCpas: 10,
  dailyBudgetReachedShare: 0.95,
  dailyBudgetLimitedDaysShare: 0.3,
  mixedPlacementCpaRatio: 1.5,
  scheduleOffConversionShare: 0.1,
  bidAdjustmentMaxIncrease: 500,
  bidAdjustmentMaxDecrease: 90,
  conversionStrategyMinClicks: 100,
};

/** Project overrides on top of the defaults (missing keys keep the default). */
export function resolveAnalysisSettings(overrides: Partial<AnalysisSettings> | null | undefined): AnalysisSettings {
  return { ...defaultAnalysisSettings, ...(overrides ?? {}) };
}

// ---------------------------------------------------------------- where a finding points

export type EntityLevel = 'account' | 'campaign' | 'group' | 'ad' | 'keyword' | 'query';

/**
 * A place in the imported `CampaignData`: indexes into `campaigns[ci].groups[gi].keywords[ki]` /
 * `.ads[ai]`, plus names and platform ids for display and export. `key` is stable within one analysis
 * (`c0`, `c0g1`, `c0g1k5`, `c0g1a2`).
 */
export interface EntityRef {
  level: EntityLevel;
  key: string;
  campaignIndex?: number;
  groupIndex?: number;
  keywordIndex?: number;
  adIndex?: number;
  campaignName?: string;
  groupName?: string;
  /** Keyword phrase, ad headline or query text, for display. */
  label?: string;
  externalId?: string;
}

// ---------------------------------------------------------------- findings

export type Severity = 'high' | 'medium' | 'low';

export const severityLabels: Record<Severity, string> = {
  high: 'Деньги уходят сейчас',
  medium: 'Упущенные возможности',
  low: 'Порядок в аккаунте',
};

export type CheckFamily = 'keywords' | 'ads' | 'campaign' | 'statistics';

declare const shareBrand: unique symbol;
/**
 * A fraction of a whole, 0–1 (0.03 = 3 %), as the settings hold CTR and relevance thresholds. Made only
 * by `share()`: a figure already in percent points (3 for 3 %) cannot pass for one and be ×100 again.
 */
export type Share = number & { readonly [shareBrand]: 'share' };
/** A fraction (0.0312) as evidence, to 4 decimals (3,12 %). */
export const share = (fraction: number) => (Math.round(fraction * 10000) / 10000) as Share;

/**
 * What an evidence number is, one meaning each (the screen formats each one way, contract/evidence-format.ts):
 * - `share`: a fraction 0–1 (CTR, relevance), shown as percent («3 %»);
 * - `rub`: money in roubles of the account (never kopecks), the period's unless the label says «в месяц»;
 * - `chars`, `clicks`, `impressions`, `conversions`, `count`: whole numbers of those;
 * - `ratio`: a multiple («× 2»).
 */
export type EvidenceUnit = 'share' | 'rub' | 'chars' | 'clicks' | 'impressions' | 'conversions' | 'count' | 'ratio';

interface EvidenceFields<Value> {
  /** Russian label, e.g. «Длина заголовка 1», «CTR», «Расход без конверсий». */
  label: string;
  /** A string is shown as it is («3–15»). */
  value: Value | string;
  /** The threshold that fired, in the same unit, with the settings key it comes from. */
  threshold?: Value | string;
  setting?: keyof AnalysisSettings;
}

/** One number a finding rests on: the measured value and the threshold it was compared with. A share must be a `Share`. */
export type Evidence = (EvidenceFields<Share> & { unit: 'share' }) | (EvidenceFields<number> & { unit?: Exclude<EvidenceUnit, 'share'> });

/**
 * Evidence of results stored before `share` existed: CTR and relevance in percent points (3 = 3 %) under
 * `unit: 'percent'`. Never made any more; the formatter still reads it so older analyses render.
 */
export type StoredEvidence = Evidence | (EvidenceFields<number> & { unit: 'percent' });

/**
 * One entity of an aggregated finding: a check that fires on many keywords (or ads) of one group or
 * campaign is reported once there, and every entity it fired on is an item, worst (most money) first.
 * Items are stored as rows of their own (never inside the finding's document) and read page by page.
 */
export interface FindingItem {
  target: EntityRef;
  evidence: Evidence[];
  money?: number;
  moneyPerMonth?: number;
  suggestionIds?: string[];
}

export interface Finding {
  /** Unique within the analysis. */
  id: string;
  checkId: string;
  family: CheckFamily;
  severity: Severity;
  /** Points this finding takes from its entity's 0–100 score. */
  weight: number;
  title: string;
  explanation: string;
  fix: string;
  target: EntityRef;
  evidence: Evidence[];
  /** Period of the statistics behind the finding (statistics checks only). */
  period?: StatsPeriod;
  /** Money the finding is about over the imported period. */
  money?: number;
  /** The same money per month (period scaled to `daysPerMonth`). */
  moneyPerMonth?: number;
  /**
   * Suggestions that fix it (ids in `suggestions`). A check aggregated over many entities leaves it out
   * (each item carries its own); «Нет минус-слов на кампанию» keeps the campaign negatives to add here.
   */
  suggestionIds?: string[];
  /**
   * Aggregated finding (target is the group or campaign): how many entities it covers («N фраз»).
   * Absent = the finding is about its target alone. `money`/`moneyPerMonth` are the sum over the items.
   */
  count?: number;
  /** Every entity of an aggregated finding, worst first (the screen shows the first few, the rest a click away). */
  items?: FindingItem[];
  /**
   * A ready file the fix asks for, offered for download beside it (the network sites to paste into Direct's
   * «Запрещённые площадки»): CSV text made by the server's one CSV writer, so formulas are neutralised.
   */
  file?: FindingFile;
  /**
   * The network sites to exclude (`stats.network_sites`), dearest first, within the room the campaign's list
   * had: what a change set merges into the campaign's `ExcludedSites`. Absent on results stored before it.
   */
  sites?: string[];
}

export interface FindingFile {
  /** File name, ASCII. */
  name: string;
  /** The button's Russian text. */
  label: string;
  /** The whole file, UTF-8 with a BOM, CRLF lines. */
  csv: string;
}

/** A check of the registry as the results screen can describe it. */
export interface CheckDescription {
  id: string;
  family: CheckFamily;
  severity: Severity;
  weight: number;
  title: string;
  description: string;
  /** Needs statistics / conversions to run. */
  needs: 'pattern' | 'statistics' | 'conversions';
}

// ---------------------------------------------------------------- keyword actions

export type KeywordAction = 'stop' | 'lower_bid' | 'raise_bid' | 'hold' | 'keep' | 'collect_data';


export interface KeywordVerdict {
  target: EntityRef;
  action: KeywordAction;
  clicks: number;
  cost: number;
  conversions: number;
  cpa: number | null;
  /** The CPA the keyword was compared with and where it came from. */
  referenceCpa: number | null;
  /**
   * target = the project's target CPA; placement = the account's CPA on the keyword's placement (search or
   * networks); account = the whole account's. A campaign's own CPA is never the reference
   * ('campaign' only in results stored before it was dropped).
   */
  referenceCpaSource: 'target' | 'placement' | 'account' | 'campaign' | null;
  reason: string;
}

// ---------------------------------------------------------------- scores

export interface EntityScore {
  target: EntityRef;
  /** 0–100; 100 = nothing found. The account's is at most 100 − the share of its spend lost (`MoneyStory`). */
  score: number;
  findings: number;
  /** Money per month of the findings on this entity and below it. */
  moneyPerMonth: number;
}

export interface CheckSummary {
  checkId: string;
  title: string;
  severity: Severity;
  /** Findings of the check (an aggregated finding counts once). */
  count: number;
  /**
   * Entities the check fired on: an aggregated finding counts its `count`, any other finding 1.
   * Absent on results stored before findings were aggregated (then it equals `count`).
   */
  entities?: number;
  moneyPerMonth: number;
  /**
   * The check's findings with the most money first, at most a few; an aggregated example keeps only its
   * first (worst) items (its `count` says how many there are; the full list comes from the findings' items).
   */
  examples: Finding[];
}

export interface AnalysisNotice {
  /** `NO_IDS`: Direct campaigns or groups imported without their ids (an export of changes would create them anew); shown with the export. */
  code: 'NO_STATISTICS' | 'NO_CONVERSIONS' | 'NO_PERIOD' | 'NO_IDS' | 'NO_SEARCH_QUERIES' | 'NO_KEYWORDS';
  message: string;
}

export interface ScoringResult {
  platform: AdPlatform;
  settings: AnalysisSettings;
  period: StatsPeriod | null;
  /** Days in the period and the factor that turns its money into money per month. */
  periodDays: number;
  monthFactor: number;
  notices: AnalysisNotice[];
  account: EntityScore;
  campaigns: EntityScore[];
  groups: EntityScore[];
  ads: EntityScore[];
  keywords: EntityScore[];
  findings: Finding[];
  /** Findings per severity (`count`), the entities they cover (`entities`, absent on older results) and their money. */
  bySeverity: Record<Severity, { count: number; entities?: number; moneyPerMonth: number }>;
  byCheck: CheckSummary[];
  keywordVerdicts: KeywordVerdict[];
  /** Cost of keywords without conversions (with ≥ 1 click) over the period and per month. */
  wastedSpend: { period: number; perMonth: number };
  /** Ad fixes the screen can accept (fixed lengths, UTM tags). */
  suggestions: AdFieldFixSuggestion[];
  checks: CheckDescription[];
  counts: { campaigns: number; groups: number; ads: number; keywords: number; negativeKeywords: number; searchQueries: number };
}

// ---------------------------------------------------------------- suggestions

export type NegativeCategory = 'free' | 'informational' | 'jobs' | 'used' | 'foreign_geo' | 'competitors' | 'ambiguous' | 'query';

export const negativeCategoryLabels: Record<NegativeCategory, string> = {
  free: 'Бесплатное и скачивание',
  informational: 'Информационные и «своими руками»',
  jobs: 'Работа и вакансии',
  used: 'Б/у и объявления',
  foreign_geo: 'Другая география',
  competitors: 'Конкуренты',
  ambiguous: 'Проверить вручную',
  query: 'Нецелевые запросы',
};

export type SuggestionStatus = 'ready' | 'check_by_hand';

export interface NegativeKeywordSuggestion {
  id: string;
  kind: 'negative_keyword';
  level: 'campaign' | 'group';
  target: EntityRef;
  /** The negative in platform notation, without the leading `-`. */
  text: string;
  category: NegativeCategory;
  /** `check_by_hand` is never added automatically (ambiguous intents). */
  status: SuggestionStatus;
  source: 'queries' | 'curated';
  reason: string;
  /** Queries it would block, with their statistics. */
  queries: { query: string; clicks: number; cost: number; conversions: number }[];
  clicks: number;
  cost: number;
  costPerMonth: number;
  evidence: Evidence[];
}

/** A negative the engine would have suggested but dropped because it blocks a converting query or the account's own keyword. */
export interface DroppedNegative {
  text: string;
  level: 'campaign' | 'group';
  target: EntityRef;
  category: NegativeCategory;
  reason: string;
  blockedQueries: string[];
  blockedKeywords: string[];
  /** Ids of the narrower negatives proposed instead, so its queries are still covered; absent when none is safe. */
  alternativeIds?: string[];
}

/** A query an existing negative (the keyword's, the group's or the campaign's) already blocks: nothing new is proposed for it. */
export interface CoveredQuery {
  query: string;
  clicks: number;
  cost: number;
  /** The existing negative as written in the account. */
  negative: string;
  level: 'keyword' | 'group' | 'campaign';
  target: EntityRef;
}

export interface CrossMinusSuggestion {
  id: string;
  kind: 'cross_minus';
  /** `keyword`: minus-words on a keyword (like Keywordsresearch.deduplicate); `group`: a minus-phrase on a group. */
  level: 'keyword' | 'group';
  target: EntityRef;
  /** The keyword as it is now, minus-words included (`шуба`). */
  before: string;
  /** The keyword (or group negatives) after the fix (`шуба -норковая`). */
  after: string;
  /** Negative words/phrases added (without `-`). */
  add: string[];
  /** The more specific keywords it lets through. */
  because: EntityRef[];
  /** Keywords removed because they duplicate the target (their minus-words are merged into it). */
  remove: EntityRef[];
  reason: string;
}

export type AdField = 'headline' | 'text' | 'displayUrl' | 'path' | 'finalUrl' | 'sitelinkTitle' | 'sitelinkDescription' | 'callout';

export interface AdFieldFixSuggestion {
  id: string;
  kind: 'ad_field';
  target: EntityRef;
  field: AdField;
  /** Position within the field's list (headline 0 = Заголовок 1 / Headline 1). */
  index: number;
  before: string;
  /** Proposed value; the user may edit it before accepting. '' when `manual` is set. */
  after: string;
  /**
   * Set when no cut reads as copy (or it would keep less than half of the text): the field is to be
   * rewritten by hand. No automatic value: an accepted manual fix reaches the export only with the
   * value the user typed (`decisions.values`).
   */
  manual?: { limit: number; length: number };
  reason: string;
}

export type Suggestion = NegativeKeywordSuggestion | CrossMinusSuggestion | AdFieldFixSuggestion;

// ---------------------------------------------------------------- semantics

export type QueryIntent = 'commercial' | 'informational' | 'navigational' | 'unknown';

export interface KeywordCluster {
  id: string;
  /** The shared lemmas that define the cluster (the topic without intent markers). */
  lemmas: string[];
  intent: QueryIntent;
  keywords: EntityRef[];
  /** Groups the cluster spans: more than one means the same intent is split across groups. */
  groupKeys: string[];
}

export interface DuplicateSet {
  /** Normalised form shared by the keywords (match type + sorted lemmas). */
  key: string;
  keywords: EntityRef[];
  sameGroup: boolean;
}

export interface GroupIntersection {
  /** The broader keyword (its lemmas are all in `narrower`). */
  broader: EntityRef;
  narrower: EntityRef;
  /** Words of the narrower keyword missing from the broader one. */
  extraWords: string[];
  suggestionId?: string;
}

export interface GroupRelevance {
  target: EntityRef;
  /** Share (0–1) of the group's keyword lemmas found in its ads' headlines and texts. */
  relevance: number;
  keywordLemmas: number;
  missingLemmas: string[];
  ads: { target: EntityRef; relevance: number }[];
}

/**
 * What the non-target search queries cost: every query row of the report without conversions that at
 * least one automatic negative (campaign category word or group phrase, status `ready`; never the
 * "check by hand" ones) would block, each row counted once however many negatives block it.
 *
 * A query's cost is part of the cost of the keyword it was shown for, so this is another view of the
 * account's spend, not money on top of `ScoringResult.wastedSpend`: the two are never added together.
 * A schema, not only a type: results stored before it existed lack it, and the client reads it with
 * `v.safeParse` so such results still render.
 */
/** Money rounded to kopecks, as the figures of the results are (the engine's and the screen's sums agree). */
export const roundMoney = (value: number) => Math.round(value * 100) / 100;

export const NonTargetQueriesSchema = v.object({
  /** Distinct query rows (a row is one query of one campaign/group in the report). */
  queries: v.number(),
  clicks: v.number(),
  /** Their cost over the report's period and per month (period scaled to `daysPerMonth`). */
  cost: v.number(),
  costPerMonth: v.number(),
  period: v.nullable(v.object({ from: v.string(), to: v.string() })),
  periodDays: v.number(),
  /** Period money × this = money per month. */
  monthFactor: v.number(),
  /**
   * The same rows split by the exact set of suggestions that block them (every row in one entry), so
   * the cost covered by any chosen suggestions is a sum over entries without counting a row twice.
   */
  blockedBy: v.array(v.object({ suggestionIds: v.array(v.string()), queries: v.number(), clicks: v.number(), cost: v.number() })),
});
export type NonTargetQueries = v.InferOutput<typeof NonTargetQueriesSchema>;

// ---------------------------------------------------------------- one money story

/** Why money is lost or could be saved, each a separate slice of the account's spend (never the same rouble twice). */
export type MoneyCause = 'wasted_keywords' | 'non_target_queries' | 'overpaid_clicks' | 'broken_pages' | 'network_placements';

export const moneyCauseLabels: Record<MoneyCause, string> = {
  wasted_keywords: 'Фразы без конверсий',
  non_target_queries: 'Нецелевые запросы',
  overpaid_clicks: 'Конверсии дороже ориентира',
  broken_pages: 'Неработающие страницы',
  network_placements: 'Площадки в сетях без конверсий',
};

/** The saving cause named for what the conversions were dearer than. */
const savingLabels: Record<MoneyStory['saving']['reference'], string> = {
  target: 'Конверсии дороже целевой цены',
  account: 'Конверсии дороже средней цены в аккаунте',
};

/** A cause's name on a screen: «Фразы без конверсий», «Конверсии дороже целевой цены». */
export const moneyCauseLabel = (cause: MoneyCause, story: MoneyStory) => (moneyCauseKinds[cause] === 'saving' ? savingLabels[story.saving.reference] : moneyCauseLabels[cause]);

/**
 * Two kinds of money, never added together: `lost` is spend that brought nothing (no conversion), the
 * headline «Теряете ≈ X ₽ в месяц»; `saving` is the part of spend that did bring conversions but dearer
 * than the target CPA (cost − conversions × target): money that could be saved, not money lost.
 */
export type MoneyKind = 'lost' | 'saving';

export const moneyCauseKinds: Record<MoneyCause, MoneyKind> = {
  wasted_keywords: 'lost',
  non_target_queries: 'lost',
  overpaid_clicks: 'saving',
  broken_pages: 'lost',
  network_placements: 'lost',
};

/** Period and per-month money of one kind. */
export interface MoneyAmount {
  perMonth: number;
  period: number;
}

/**
 * The one figure «Теряете ≈ X ₽ в месяц», the money that could be saved beside it, and what each is made
 * of. Every screen (results, project card, history, the action plan, the AI plan) shows these figures,
 * never a sum of its own.
 *
 * No double counting: a query's cost is inside its keyword's cost (queries of keywords already counted as
 * wasted are not counted again); a keyword to stop is not also an overpaying bid; a keyword's excess over
 * the target is capped by what its non-target queries leave of its cost.
 */
export interface MoneyStory {
  /** Money lost per month: the sum of the `lost` causes (the period's money scaled to `daysPerMonth`). */
  perMonth: number;
  /** The same over the imported period. */
  period: number;
  /**
   * Money that could be saved: the sum of the `saving` causes; `reference`: what the conversions were dearer
   * than (`target`: the project's target CPA; `account`: the account's CPA on the keyword's placement).
   */
  saving: MoneyAmount & { reference: 'target' | 'account' };
  /** The account's spend per month (every keyword, or campaign totals), for the share of it lost; null without statistics. */
  spendPerMonth: number | null;
  causes: {
    cause: MoneyCause;
    perMonth: number;
    period: number;
    /** Entities the cause is made of (keywords, queries, pages…). */
    count: number;
    /** Which list shows them: the findings or suggestions endpoint with these filters. */
    list: { kind: 'findings' | 'suggestions'; checks?: string[]; suggestionKind?: Suggestion['kind']; category?: NegativeCategory };
  }[];
}

/**
 * A money story as stored: results stored before the split have no `saving` and no `spendPerMonth`, and
 * their `perMonth` included the conversions dearer than the target.
 */
export type StoredMoneyStory = Omit<MoneyStory, 'saving' | 'spendPerMonth'> & Partial<Pick<MoneyStory, 'saving' | 'spendPerMonth'>>;

/**
 * The money story in today's meaning, whenever it was stored: an older one's headline loses the `saving`
 * causes it had added in. `targetCpa`: the analysis's setting (what older conversions were compared with).
 */
export function readMoneyStory(story: StoredMoneyStory, targetCpa: number | null): MoneyStory {
  if (story.saving) return { ...story, saving: story.saving, spendPerMonth: story.spendPerMonth ?? null };
  const sum = (kind: MoneyKind, key: keyof MoneyAmount) => roundMoney(story.causes.reduce((total, cause) => total + (moneyCauseKinds[cause.cause] === kind ? cause[key] : 0), 0));
  return {
    ...story,
    perMonth: sum('lost', 'perMonth'),
    period: sum('lost', 'period'),
    saving: { perMonth: sum('saving', 'perMonth'), period: sum('saving', 'period'), reference: targetCpa !== null ? 'target' : 'account' },
    spendPerMonth: story.spendPerMonth ?? null,
  };
}

export interface SemanticResult {
  platform: AdPlatform;
  settings: AnalysisSettings;
  notices: AnalysisNotice[];
  clusters: KeywordCluster[];
  duplicates: DuplicateSet[];
  intersections: GroupIntersection[];
  crossMinus: CrossMinusSuggestion[];
  negatives: NegativeKeywordSuggestion[];
  droppedNegatives: DroppedNegative[];
  /** Queries of the report the existing negatives already block, with the negative; absent on results stored before it existed. */
  coveredQueries?: CoveredQuery[];
  /** Cost of the queries the automatic negatives would block; absent on results stored before it existed. */
  nonTargetQueries?: NonTargetQueries;
  /** Zero-conversion queries below `minClicksForNegative`: collect data before cutting. */
  collectData: { query: string; clicks: number; cost: number; target: EntityRef }[];
  relevance: GroupRelevance[];
  counts: { keywords: number; lemmas: number; clusters: number; duplicates: number; intersections: number; negatives: number };
}

/** Progress callback payload of the engines. */
export interface AnalysisProgress {
  stage: 'prepare' | 'lemmatize' | 'semantic' | 'scoring' | 'rollup';
  done: number;
  total: number;
}

/**
 * The one place that calls the scoring and semantic engines (`scoring/`, `semantic/`): if their API
 * moves, only this file changes. It is also the module the analysis worker runs in a worker thread
 * (`runAuditInThread`), so the engines never run on the API's event loop.
 *
 * Everything the rest of the analysis domain knows about the engines' output goes through here:
 * the progress percentage of a stage, the summary stored beside the result, the list of suggestions.
 */
import v8 from 'node:v8';
import type { MessagePort } from 'node:worker_threads';
import type { AnalysisSettings, AnalysisProgress, Suggestion } from '../../contract/analysis-results.js';
import type { ResultsSummary } from '../../contract/analysis-pages.js';
import type { AnalysisSummary, AuditResult } from '../../contract/analysis.js';
import type { AdPlatform, CampaignData, Campaign, Keyword, SearchQuery, StatsPeriod } from '../../contract/campaigns.js';
import type { ProjectSettings } from '../../contract/projects.js';
import { collectGarbageIfLarge, garbageCeiling } from '../lib/collect-garbage.js';
import { PortStreamSender } from '../lib/port-stream.js';
import { buildResultsSummary, defaultStorageLimits, resultRowBatches, type ResultRowBatch, type StorageLimits } from './result-rows.js';
import { runCampaignAnalysis } from '../engines/scoring/run-analysis.js';
import { readStoredDocuments, type StoredDocuments } from './stored-documents.js';
import { saveResultRows, type ResultSavingTarget } from './result-saving.js';

/** The one money figure of a result and its causes (computed by the engines' run; see money-story.ts). */
export { moneyStory, type MoneyStoryInput } from '../engines/scoring/money-story.js';

export interface AuditInput {
  /** Only the analysed campaigns, in the project's order, with the project's search queries. */
  data: CampaignData;
  /** The project's thresholds (snake_case, as the project form stores them). */
  settings: ProjectSettings;
  targetCpa: number | null;
  /** The project's region (free text), if set. */
  region?: string | null;
}

export type AuditProgressFn = (progress: AnalysisProgress) => void;

/** Project setting → engine setting: the one table both names meet in. */
const settingNames = {
  min_clicks_for_negative: 'minClicksForNegative',
  min_clicks_for_keyword_action: 'minClicksForKeywordAction',
  stop_cost_cpa_multiple: 'stopCostCpaRatio',
  lower_bid_cpa_multiple: 'lowerBidCpaRatio',
  bid_change_min_difference: 'bidChangeMinDifference',
  low_search_ctr: 'lowSearchCtr',
  suspicious_network_ctr: 'suspiciousNetworkCtr',
  min_impressions_for_ctr: 'minImpressionsForCtr',
  ctr_below_median_ratio: 'ctrBelowMedianRatio',
  expensive_cpc_median_multiple: 'expensiveCpcMedianRatio',
  same_ad_text_groups: 'sameAdTextGroups',
  single_group_min_keywords: 'singleGroupMinKeywords',
  min_group_relevance: 'minGroupRelevance',
  moderation_stuck_days: 'moderationStuckDays',
  suspended_keyword_min_conversions: 'suspendedKeywordMinConversions',
  conversion_strategy_min_conversions: 'conversionStrategyMinConversions',
  strategy_cpa_over_target_multiple: 'strategyCpaOverTargetRatio',
  weekly_budget_min_target_cpas: 'weeklyBudgetMinTargetCpas',
  daily_budget_reached_share: 'dailyBudgetReachedShare',
  daily_budget_limited_days_share: 'dailyBudgetLimitedDaysShare',
  mixed_placement_cpa_multiple: 'mixedPlacementCpaRatio',
  schedule_off_conversion_share: 'scheduleOffConversionShare',
  bid_adjustment_max_increase: 'bidAdjustmentMaxIncrease',
  bid_adjustment_max_decrease: 'bidAdjustmentMaxDecrease',
  conversion_strategy_min_clicks: 'conversionStrategyMinClicks',
  competitors: 'competitors',
} as const satisfies Record<keyof ProjectSettings, keyof AnalysisSettings>;

/** Words of the project's region («Москва и область» → москва, область; «СПб и ЛО», «МО» keep their short names): the geography dictionary reads them (semantic/geo), and the places they name are never "foreign geography". */
export function regionWords(region: string | null | undefined): string[] {
  if (!region) return [];
  return [...new Set(region.toLowerCase().replace(/ё/g, 'е').split(/[^a-zа-я0-9]+/).filter((word) => word.length >= 2))];
}

/**
 * The project's settings in the engine's terms; keys the project does not set keep the engine
 * defaults. The project's region tells the engine which places are home.
 */
export function engineSettings(settings: ProjectSettings, targetCpa: number | null, region: string | null = null): Partial<AnalysisSettings> {
  const mapped: Record<string, unknown> = { targetCpa };
  for (const [projectKey, engineKey] of Object.entries(settingNames)) {
    const value = settings[projectKey as keyof ProjectSettings];
    if (value !== undefined) mapped[engineKey] = value;
  }
  const home = regionWords(region);
  if (home.length > 0) mapped.homeRegionWords = home;
  return mapped as Partial<AnalysisSettings>;
}

export async function runAudit(input: AuditInput, onProgress?: AuditProgressFn): Promise<AuditResult> {
  const { scoring, semantic, money } = await runCampaignAnalysis(input.data, {
    settings: engineSettings(input.settings, input.targetCpa, input.region),
    // Every campaign of `data` is analysed; passing the indexes makes the engine keep only the
    // search queries of these campaigns (the project's report covers all of them).
    campaignIndexes: input.data.campaigns.map((_, index) => index),
    onProgress,
  });
  return { scoring, semantic, money };
}

// ------------------------------------------------------------------------------------ progress

/** Share of the whole run each engine stage covers, [from, to] in percent; saving takes the rest. */
const stageSpans: Record<AnalysisProgress['stage'], [number, number]> = {
  prepare: [0, 2],
  lemmatize: [2, 45],
  semantic: [45, 70],
  scoring: [70, 93],
  rollup: [93, 96],
};

/** Overall percentage (0–96; the last points are saving the result) of an engine progress report. */
export function progressPercent(progress: AnalysisProgress): number {
  const [from, to] = stageSpans[progress.stage] ?? [0, 0];
  const share = progress.total > 0 ? Math.min(1, Math.max(0, progress.done / progress.total)) : 0;
  return Math.floor(from + (to - from) * share);
}

// ------------------------------------------------------------------------------------ output

/** Every suggestion of a result the user can accept or reject (and the export can apply). */
export function suggestionsOf(result: AuditResult): Suggestion[] {
  return [...result.scoring.suggestions, ...result.semantic.crossMinus, ...result.semantic.negatives];
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export function summarizeAudit(result: AuditResult): AnalysisSummary {
  const { scoring, semantic } = result;
  const severity = (key: 'high' | 'medium' | 'low') => ({
    count: scoring.bySeverity[key].count,
    entities: scoring.bySeverity[key].entities ?? scoring.bySeverity[key].count,
    money_per_month: round2(scoring.bySeverity[key].moneyPerMonth),
  });
  const notices = new Map<string, string>();
  for (const notice of [...scoring.notices, ...semantic.notices]) notices.set(notice.code, notice.message);
  return {
    account_score: Math.round(scoring.account.score),
    campaigns: scoring.campaigns.map((campaign) => ({
      key: campaign.target.key,
      name: campaign.target.campaignName ?? campaign.target.label ?? '',
      score: Math.round(campaign.score),
      findings: campaign.findings,
      money_per_month: round2(campaign.moneyPerMonth),
    })),
    by_severity: { high: severity('high'), medium: severity('medium'), low: severity('low') },
    by_check: scoring.byCheck.map((check) => ({
      check_id: check.checkId,
      title: check.title,
      severity: check.severity,
      findings: check.count,
      entities: check.entities ?? check.count,
      money_per_month: round2(check.moneyPerMonth),
    })),
    findings_count: scoring.findings.length,
    suggestions_count: suggestionsOf(result).length,
    wasted_spend: { period: scoring.wastedSpend.period, per_month: scoring.wastedSpend.perMonth },
    ...(result.money ? { money: result.money } : {}),
    period: scoring.period,
    counts: {
      campaigns: scoring.counts.campaigns,
      groups: scoring.counts.groups,
      ads: scoring.counts.ads,
      keywords: scoring.counts.keywords,
      search_queries: scoring.counts.searchQueries,
    },
    notices: [...notices].map(([code, message]) => ({ code, message })),
  };
}

// ------------------------------------------------------------------------------------ worker thread

/** A JSON document as text, or as its UTF-8 bytes (transferable to a thread without a copy). */
export type JsonText = string | Uint8Array;

const utf8 = new TextDecoder();
const parseJson = <T>(text: JsonText): T => JSON.parse(typeof text === 'string' ? text : utf8.decode(text)) as T;

/**
 * What the worker sends to the thread: the database's JSON texts, as UTF-8 bytes moved into the thread
 * (strings also work: tests and callers in the same thread), parsed in the thread, not on the event loop.
 */
export interface RawAuditInput {
  /** The analysis the rows are written for: each COPY line starts with it (without one, the batches are `arrays`). */
  analysisId?: string;
  platform: AdPlatform;
  currency?: string;
  period: StatsPeriod | null;
  /** JSON texts of the analysed `Campaign` documents, in order (UTF-8 bytes from the worker, moved into the thread). */
  campaigns: JsonText[];
  /** JSON texts of `SearchQuery[]` arrays (one per stored report). */
  searchQueries: JsonText[];
  /** Where the thread reads the campaigns and the reports itself (then `campaigns` and `searchQueries` are empty). */
  stored?: StoredDocuments;
  /**
   * Where the thread saves the result's rows itself (result-saving.ts; needs `analysisId`, the same). Without
   * it the rows go out over the port as batches (the benches and tests that read them).
   */
  saving?: ResultSavingTarget;
  settings: ProjectSettings;
  targetCpa: number | null;
  region?: string | null;
}

export interface AuditOutput {
  /** The short form for lists (`analysis.summary`). */
  summary: AnalysisSummary;
  /** The summary document of the results (`analysis.report`, < 100 KB). */
  report: ResultsSummary;
  /** Rows of the result (saved by the thread, or sent as batches). */
  rows: number;
  /** False when the thread saved the rows and found the run no longer owning the analysis: nothing was stored. */
  saved?: boolean;
  /** The thread's V8 heap: the most used at a progress report or a batch, and its size at the end (bytes; for logs and the bench). */
  engineMemory?: { peakHeapUsed: number; heapTotal: number };
}

/** The engine thread's progress, posted as it goes (not acknowledged). */
export interface AuditProgressMessage {
  type: 'progress';
  progress: AnalysisProgress;
}
/** One batch of the result's rows, acknowledged once written (server/lib/port-stream.ts). */
export interface AuditRowsMessage {
  type: 'batch';
  batch: ResultRowBatch;
}
/** The thread starts saving the rows itself (the analysis's stage turns to «saving»). */
export interface AuditSavingMessage {
  type: 'saving';
}
/** Messages of the engine thread to the worker: progress, then the saving's start, or the result's rows batch by batch. */
export type AuditThreadMessage = AuditProgressMessage | AuditSavingMessage | AuditRowsMessage;

type RawAccount = Pick<RawAuditInput, 'platform' | 'currency' | 'period' | 'campaigns' | 'searchQueries'>;

/** The parsed campaigns and queries with the account's platform, and its period and currency when known. */
function withAccountFacts(raw: RawAccount, campaigns: Campaign[], searchQueries: SearchQuery[]): CampaignData {
  return {
    platform: raw.platform,
    campaigns,
    searchQueries,
    ...(raw.period ? { period: raw.period } : {}),
    ...(raw.currency ? { currency: raw.currency } : {}),
  };
}

export function campaignDataOf(raw: RawAccount): CampaignData {
  const campaigns = raw.campaigns.map((text) => parseJson<Campaign>(text));
  const searchQueries = raw.searchQueries.flatMap((text) => parseJson<SearchQuery[]>(text));
  return withAccountFacts(raw, campaigns, searchQueries);
}

/**
 * `campaignDataOf` for the thread, which owns its input: each JSON text is dropped as soon as it is
 * parsed, so the texts and the parsed account are never both whole in memory (on a 1 000 000-keyword
 * account the texts are 380 MB of UTF-8, twice that as strings).
 */
export function takeCampaignData(raw: RawAccount): CampaignData {
  const parse = <T>(texts: JsonText[]): T[] => {
    const parsed: T[] = [];
    for (let i = 0; i < texts.length; i++) {
      parsed.push(parseJson<T>(texts[i]!));
      texts[i] = '';
    }
    texts.length = 0;
    return parsed;
  };
  const campaigns = parse<Campaign>(raw.campaigns);
  const searchQueries = parse<SearchQuery[]>(raw.searchQueries).flat();
  shareRepeatedValues(campaigns, searchQueries);
  return withAccountFacts(raw, campaigns, searchQueries);
}

/**
 * JSON.parse makes a new string or array for every value, so the report's campaign and group names
 * (repeated on each of its rows), the keywords' match types and their empty minus-word lists exist once
 * per row: a million times on a big account. The engines never change the account, so equal values
 * share one copy.
 */
function shareRepeatedValues(campaigns: Campaign[], searchQueries: SearchQuery[]): void {
  const names = new Map<string, string>();
  const shared = (text: string | undefined) => {
    if (text === undefined) return undefined;
    const known = names.get(text);
    if (known !== undefined) return known;
    names.set(text, text);
    return text;
  };
  const noWords: string[] = [];
  for (const campaign of campaigns) {
    for (const group of campaign.groups) {
      for (const keyword of group.keywords) {
        keyword.matchType = shared(keyword.matchType) as Keyword['matchType'];
        if (keyword.negativeWords.length === 0) keyword.negativeWords = noWords;
      }
    }
  }
  for (const query of searchQueries) {
    if (query.campaignName !== undefined) query.campaignName = shared(query.campaignName);
    if (query.groupName !== undefined) query.groupName = shared(query.groupName);
  }
}

/**
 * The engine thread's heap while the result is encoded (`garbageCeiling`): at most two thirds of its limit
 * (2 GB of 3), collected no more often than every 512 MB of garbage.
 */
const ENCODING_HEAP_SHARE = 2 / 3;
const ENCODING_HEAP_SLACK_BYTES = 512 * 1024 * 1024;

/** Row batches the thread may have posted over the port and not yet seen acknowledged (when it does not save them itself). */
const BATCHES_IN_FLIGHT = 4;

/** The input with its documents in hand: read from the database (in the calling thread) when it names them by id. */
export async function withStoredDocuments(raw: RawAuditInput): Promise<RawAuditInput> {
  if (!raw.stored) return raw;
  const { stored, ...rest } = raw;
  return { ...rest, ...(await readStoredDocuments(stored)) };
}

/**
 * Thread entry: runs the audit, posts engine progress on `port`, then saves the result's rows itself
 * (`raw.saving`, result-saving.ts: the worker's event loop never holds them) or, without a saving target,
 * sends them over the port in batches (a PortStreamSender, at most BATCHES_IN_FLIGHT unacknowledged). A
 * failed write rejects. Answers with the summaries.
 */
export async function runAuditInThread(raw: RawAuditInput, port: MessagePort, limits: StorageLimits = defaultStorageLimits): Promise<AuditOutput> {
  const messages = new PortStreamSender<AuditRowsMessage, AuditProgressMessage | AuditSavingMessage>(port, { inFlight: BATCHES_IN_FLIGHT });
  let peakHeapUsed = 0;
  const sampleHeap = () => (peakHeapUsed = Math.max(peakHeapUsed, process.memoryUsage().heapUsed));
  try {
    raw = await withStoredDocuments(raw);
    const result = await runAudit({ data: takeCampaignData(raw), settings: raw.settings, targetCpa: raw.targetCpa, region: raw.region }, (progress) => {
      sampleHeap();
      messages.notify({ type: 'progress', progress });
    });
    sampleHeap();
    // The account and everything the engines derived from it (at 1 000 000 keywords ~0.9 GB of the
    // 2.4 GB the thread holds at the engines' end) died with the run: collected before the encoding's
    // allocations pile on top of it, which was the thread's (and the server's) peak.
    // Only for a heap past 1 GB (accounts of several hundred thousand keywords): below that the memory is
    // not the problem, and the pause was not free (the engine thread's CPU at 100 000 keywords was
    // 0.7-0.8 s higher with it in the end-to-end bench).
    collectGarbageIfLarge(1024 * 1024 * 1024);
    const summary = summarizeAudit(result);
    const report = buildResultsSummary(result);
    const batches = resultRowBatches(result, limits, { release: true, compactRefs: true, encoding: raw.analysisId ? { kind: 'copy', analysisId: raw.analysisId } : { kind: 'arrays' } });
    // Encoding leaves every row's JSON behind as garbage while the result it comes from shrinks: the heap
    // is kept under two thirds of the thread's limit rather than left to grow towards it (a bound; since
    // batches are bytes, not strings, V8's own collections normally stay under it).
    const heapCeiling = garbageCeiling(v8.getHeapStatistics().heap_size_limit * ENCODING_HEAP_SHARE, ENCODING_HEAP_SLACK_BYTES);
    const afterBatch = () => {
      sampleHeap();
      heapCeiling();
    };
    let stored: { rows: number; saved?: boolean };
    if (raw.saving) {
      messages.notify({ type: 'saving' });
      const { rows, committed } = await saveResultRows(raw.saving, batches, { afterBatch });
      stored = { rows, saved: committed };
    } else {
      stored = { rows: await sendBatches(messages, batches, afterBatch) };
    }
    return { summary, report, ...stored, engineMemory: { peakHeapUsed: sampleHeap(), heapTotal: process.memoryUsage().heapTotal } };
  } finally {
    port.close();
  }
}

/** Posts every batch over the port (a copy batch's buffer moves rather than being copied) and answers the rows' count. */
async function sendBatches(messages: PortStreamSender<AuditRowsMessage, unknown>, batches: Generator<ResultRowBatch, number>, afterBatch: () => void): Promise<number> {
  let next = batches.next();
  while (!next.done) {
    // The next batch is encoded while the receiver handles this one; `send` waits while BATCHES_IN_FLIGHT are unacknowledged.
    await messages.send({ type: 'batch', batch: next.value }, next.value.kind === 'copy' ? [next.value.bytes.buffer as ArrayBuffer] : []);
    afterBatch();
    next = batches.next();
  }
  await messages.drain();
  return next.value;
}

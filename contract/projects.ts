/**
 * Projects: an advertiser's site and its imported campaigns. Route contracts of /api/v1/projects and
 * the creation form rules, shared by the API and the PWA (same Russian messages on both sides).
 */
import * as v from 'valibot';
import type { Campaign } from './campaigns.js';
import { text } from './text.js';
import { defaultAnalysisSettings } from './analysis-results.js';
import { documentOf, pageOf, UuidSchema } from './common.js';
import { projectMessages as m, projectSettingsMessages as sm } from './messages.js';

export const AD_PLATFORMS = ['yandex_direct', 'google_ads', 'vk_ads'] as const;
export const AdPlatformSchema = v.picklist(AD_PLATFORMS, m.platformRequired);

/**
 * Required fields of a create form: a missing key gets the field's own "fill me in" message (valibot
 * would otherwise answer with a generic "Invalid key").
 */
const requiredString = <S extends v.GenericSchema<string, unknown>>(schema: S, message: string) => v.pipe(v.optional(text(message), ''), schema);

/**
 * A site address as people type it (`Example.ru/`, `https://shop.example.ru/catalog?x=1#top`) turned
 * into one canonical form: http(s) scheme (https when none is typed), lower-case host without a
 * trailing dot, no credentials, no fragment, no trailing slash. `null` when it is not a web address.
 */
export function normalizeSiteUrl(input: string): string | null {
  const text = input.trim();
  if (!text || /\s/.test(text)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  const host = url.hostname.replace(/\.$/, '').toLowerCase();
  // A public site has a dotted name with a real top-level label; localhost is allowed for trials.
  if (host !== 'localhost' && !/^[^.]+(\.[^.]+)*\.(xn--[a-z0-9-]+|[a-zа-яё]{2,})$/i.test(host) && !/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return null;
  const port = url.port ? `:${url.port}` : '';
  const pathname = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${host}${port}${pathname}${url.search}`;
}

// One message per field: the later rules only speak once the field is filled in.
const ProjectNameSchema = v.pipe(
  text(m.nameRequired),
  v.trim(),
  v.nonEmpty(m.nameRequired),
  v.check((value) => value.length === 0 || value.length >= 2, m.nameMin),
  v.maxLength(200, m.nameMax),
);
const SiteUrlSchema = v.pipe(
  text(m.siteUrlRequired),
  v.trim(),
  v.nonEmpty(m.siteUrlRequired),
  v.check((value) => value.length === 0 || (value.length <= 2048 && normalizeSiteUrl(value) !== null), m.siteUrlInvalid),
  v.transform((value) => normalizeSiteUrl(value) as string),
);
const RegionSchema = v.pipe(text(), v.trim(), v.maxLength(200, m.regionMax));
const TargetCpaSchema = v.pipe(v.number(m.targetCpaInvalid), v.finite(m.targetCpaInvalid), v.gtValue(0, m.targetCpaInvalid), v.maxValue(100_000_000, m.targetCpaInvalid));

/** A whole number of clicks, impressions or groups, at least `min`. */
const countSetting = (min = 0) =>
  v.pipe(v.number(sm.numberInvalid), v.integer(sm.integer), v.minValue(min, min === 0 ? sm.numberInvalid : sm.min.replace('{min}', String(min))));
/** A share from 0 to 1 (a percent on screen). */
const shareSetting = v.pipe(v.number(sm.numberInvalid), v.minValue(0, sm.numberInvalid), v.maxValue(1, sm.shareMax));
/** A factor above zero (× target CPA, × median). */
const multipleSetting = v.pipe(v.number(sm.numberInvalid), v.gtValue(0, sm.positive));

/**
 * Thresholds of the analysis evidence rules (issue 5), adjustable per project: every threshold the
 * engines compare with (each flag shows the one that fired). Stored as given; the analysis reads them
 * merged over `defaultProjectSettings`, which are the engines' own defaults.
 */
export const ProjectSettingsSchema = v.object({
  /** Fewer clicks than this on a query: "collect data", never a negative keyword. */
  min_clicks_for_negative: v.optional(countSetting()),
  /** Fewer clicks than this on a keyword: "collect data", no bid action. */
  min_clicks_for_keyword_action: v.optional(countSetting()),
  /** Stop a keyword with 0 conversions once its cost reaches this many target CPAs. */
  stop_cost_cpa_multiple: v.optional(multipleSetting),
  /** Lower the bid when CPA reaches this many target CPAs. */
  lower_bid_cpa_multiple: v.optional(multipleSetting),
  /** Raise or lower a bid only when CPA differs from the reference CPA by at least this share (0–1). */
  bid_change_min_difference: v.optional(shareSetting),
  /** Search CTR (fraction) under which a commercial query is low. */
  low_search_ctr: v.optional(shareSetting),
  /** Network CTR (fraction) from which clicks look accidental. */
  suspicious_network_ctr: v.optional(shareSetting),
  /** Impressions a keyword or campaign needs before its CTR is judged. */
  min_impressions_for_ctr: v.optional(countSetting()),
  /** A search CTR below this share of the account's median CTR is low too. */
  ctr_below_median_ratio: v.optional(shareSetting),
  /** A click at or above this multiple of the account's median CPC is expensive. */
  expensive_cpc_median_multiple: v.optional(multipleSetting),
  /** The same ad text in at least this many groups is flagged. */
  same_ad_text_groups: v.optional(countSetting(2)),
  /** One group holding at least this many keywords is "one group for everything". */
  single_group_min_keywords: v.optional(countSetting(1)),
  /** Share of a group's keyword words its ads must contain (0–1). */
  min_group_relevance: v.optional(shareSetting),
  /** An ad on moderation without an impression over a statistics period of this many days is stuck. */
  moderation_stuck_days: v.optional(countSetting(1)),
  /** A stopped keyword with this many conversions at a CPA within the reference was worth keeping. */
  suspended_keyword_min_conversions: v.optional(countSetting(1)),
  /** Conversions in the period from which manual bids or «Максимум кликов» leave a conversion strategy unused. */
  conversion_strategy_min_conversions: v.optional(countSetting(1)),
  /** A conversion strategy's real CPA at or above this multiple of its target: it does not hold the target. */
  strategy_cpa_over_target_multiple: v.optional(multipleSetting),
  /** A conversion strategy's weekly budget below this many target CPAs starves it. */
  weekly_budget_min_target_cpas: v.optional(multipleSetting),
  /** A day's spend at or above this share of the daily budget: the budget ran out that day (0–1). */
  daily_budget_reached_share: v.optional(shareSetting),
  /** Share of the days with spend on which the budget ran out, from which it is flagged (0–1). */
  daily_budget_limited_days_share: v.optional(shareSetting),
  /** Network CPA at or above this multiple of the same campaign's search CPA: split the campaign. */
  mixed_placement_cpa_multiple: v.optional(multipleSetting),
  /** Share of the account's conversions on weekdays a schedule leaves off, from which it is flagged (0–1). */
  schedule_off_conversion_share: v.optional(shareSetting),
  /** Bid adjustments above +this percent are extreme. */
  bid_adjustment_max_increase: v.optional(countSetting(1)),
  /** Bid adjustments of −this percent or lower (short of −100 %) are extreme. */
  bid_adjustment_max_decrease: v.optional(v.pipe(countSetting(1), v.maxValue(99, sm.numberInvalid))),
  /** Clicks a conversion strategy needs in the period before «no conversions» is a verdict. */
  conversion_strategy_min_clicks: v.optional(countSetting(1)),
  /** Competitor brands: a query with one is a campaign-level negative (category «конкуренты»). */
  competitors: v.optional(
    v.pipe(
      v.array(v.pipe(text(sm.competitorsInvalid), v.trim(), v.minLength(1, sm.competitorsInvalid), v.maxLength(100, sm.competitorTooLong)), sm.competitorsInvalid),
      v.maxLength(200, sm.tooManyCompetitors),
    ),
  ),
});
export type ProjectSettings = v.InferOutput<typeof ProjectSettingsSchema>;

export const defaultProjectSettings: Required<ProjectSettings> = {
  min_clicks_for_negative: defaultAnalysisSettings.minClicksForNegative,
  min_clicks_for_keyword_action: defaultAnalysisSettings.minClicksForKeywordAction,
  stop_cost_cpa_multiple: defaultAnalysisSettings.stopCostCpaRatio,
  lower_bid_cpa_multiple: defaultAnalysisSettings.lowerBidCpaRatio,
  bid_change_min_difference: defaultAnalysisSettings.bidChangeMinDifference,
  low_search_ctr: defaultAnalysisSettings.lowSearchCtr,
  suspicious_network_ctr: defaultAnalysisSettings.suspiciousNetworkCtr,
  min_impressions_for_ctr: defaultAnalysisSettings.minImpressionsForCtr,
  ctr_below_median_ratio: defaultAnalysisSettings.ctrBelowMedianRatio,
  expensive_cpc_median_multiple: defaultAnalysisSettings.expensiveCpcMedianRatio,
  same_ad_text_groups: defaultAnalysisSettings.sameAdTextGroups,
  single_group_min_keywords: defaultAnalysisSettings.singleGroupMinKeywords,
  min_group_relevance: defaultAnalysisSettings.minGroupRelevance,
  moderation_stuck_days: defaultAnalysisSettings.moderationStuckDays,
  suspended_keyword_min_conversions: defaultAnalysisSettings.suspendedKeywordMinConversions,
  conversion_strategy_min_conversions: defaultAnalysisSettings.conversionStrategyMinConversions,
  strategy_cpa_over_target_multiple: defaultAnalysisSettings.strategyCpaOverTargetRatio,
  weekly_budget_min_target_cpas: defaultAnalysisSettings.weeklyBudgetMinTargetCpas,
  daily_budget_reached_share: defaultAnalysisSettings.dailyBudgetReachedShare,
  daily_budget_limited_days_share: defaultAnalysisSettings.dailyBudgetLimitedDaysShare,
  mixed_placement_cpa_multiple: defaultAnalysisSettings.mixedPlacementCpaRatio,
  schedule_off_conversion_share: defaultAnalysisSettings.scheduleOffConversionShare,
  bid_adjustment_max_increase: defaultAnalysisSettings.bidAdjustmentMaxIncrease,
  bid_adjustment_max_decrease: defaultAnalysisSettings.bidAdjustmentMaxDecrease,
  conversion_strategy_min_clicks: defaultAnalysisSettings.conversionStrategyMinClicks,
  competitors: defaultAnalysisSettings.competitors,
};

/** Step 1 of the creation form: what the user types (target CPA as text in the input). */
export const ProjectStep1Schema = v.object({
  name: requiredString(ProjectNameSchema, m.nameRequired),
  site_url: requiredString(SiteUrlSchema, m.siteUrlRequired),
  platform: requiredString(AdPlatformSchema, m.platformRequired),
  region: v.optional(RegionSchema),
  target_cpa: v.optional(
    v.pipe(
      v.union([text(), v.number(), v.null()], m.targetCpaInvalid),
      v.transform((value) => (value === null || value === '' ? undefined : typeof value === 'number' ? value : Number(value.replace(',', '.').replace(/\s/g, '')))),
      v.union([v.undefined(), TargetCpaSchema], m.targetCpaInvalid),
    ),
  ),
});
export type ProjectStep1Input = v.InferInput<typeof ProjectStep1Schema>;
export type ProjectStep1 = v.InferOutput<typeof ProjectStep1Schema>;

/**
 * The project settings form's own fields: step 1 without the platform (the imported campaigns and the
 * Direct connection belong to it, so it is chosen once). A cleared region or target CPA is `undefined`.
 */
export const ProjectEditSchema = v.omit(ProjectStep1Schema, ['platform']);
export type ProjectEdit = v.InferOutput<typeof ProjectEditSchema>;

export const CreateProjectSchema = v.object({
  name: requiredString(ProjectNameSchema, m.nameRequired),
  site_url: requiredString(SiteUrlSchema, m.siteUrlRequired),
  platform: requiredString(AdPlatformSchema, m.platformRequired),
  region: v.optional(v.nullable(RegionSchema)),
  target_cpa: v.optional(v.nullable(TargetCpaSchema)),
  settings: v.optional(ProjectSettingsSchema),
  /** A preview from POST /projects/import-preview…: its campaigns become the project's first import. */
  draft_id: v.optional(UuidSchema),
});
export type CreateProjectRequest = v.InferInput<typeof CreateProjectSchema>;

export const UpdateProjectSchema = v.object({
  name: v.optional(ProjectNameSchema),
  site_url: v.optional(SiteUrlSchema),
  platform: v.optional(AdPlatformSchema),
  region: v.optional(v.nullable(RegionSchema)),
  target_cpa: v.optional(v.nullable(TargetCpaSchema)),
  settings: v.optional(ProjectSettingsSchema),
});
export type UpdateProjectRequest = v.InferInput<typeof UpdateProjectSchema>;

export const PROJECT_SORTS = ['name', 'created', 'updated'] as const;
export const ProjectListQuerySchema = v.object({
  search: v.optional(v.pipe(text(), v.trim(), v.maxLength(200))),
  sort: v.optional(v.picklist(PROJECT_SORTS, m.sortInvalid), 'updated'),
  order: v.optional(v.picklist(['asc', 'desc'], m.sortInvalid)),
  page: v.optional(v.pipe(v.unknown(), v.transform(Number), v.number(), v.integer(), v.minValue(1)), 1),
  page_size: v.optional(v.pipe(v.unknown(), v.transform(Number), v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 50),
});
export type ProjectListQuery = v.InferInput<typeof ProjectListQuerySchema>;

const CountsSchema = v.object({ campaigns: v.number(), groups: v.number(), ads: v.number(), keywords: v.number() });
export type ProjectCounts = v.InferOutput<typeof CountsSchema>;

export const StatsSummarySchema = v.object({
  impressions: v.number(),
  clicks: v.number(),
  cost: v.number(),
  conversions: v.number(),
  revenue: v.optional(v.number()),
});
export type StatsSummary = v.InferOutput<typeof StatsSummarySchema>;

const PersonSchema = v.object({ id: v.string(), full_name: v.string() });

export const LastAnalysisSchema = v.object({
  id: v.string(),
  score: v.nullable(v.number()),
  created_at: v.string(),
  /** The analysis' one money figure «Теряете ≈ X ₽ в месяц» (its summary's money story); absent on older analyses. */
  money_per_month: v.optional(v.nullable(v.number())),
});
export type LastAnalysis = v.InferOutput<typeof LastAnalysisSchema>;

export const ProjectSummarySchema = v.object({
  id: v.string(),
  name: v.string(),
  site_url: v.string(),
  platform: AdPlatformSchema,
  region: v.nullable(v.string()),
  target_cpa: v.nullable(v.number()),
  author: v.nullable(PersonSchema),
  created_at: v.string(),
  updated_at: v.string(),
  counts: CountsSchema,
  last_analysis: v.nullable(LastAnalysisSchema),
});
export type ProjectSummary = v.InferOutput<typeof ProjectSummarySchema>;

export const ProjectListSchema = pageOf(ProjectSummarySchema);
export type ProjectList = v.InferOutput<typeof ProjectListSchema>;

export const ImportProblemSchema = v.object({
  file: v.string(),
  row: v.optional(v.number()),
  column: v.optional(v.string()),
  message: v.string(),
  severity: v.picklist(['error', 'warning']),
});

export const GroupSummarySchema = v.object({
  name: v.string(),
  external_id: v.nullable(v.string()),
  ads: v.number(),
  keywords: v.number(),
  negative_keywords: v.number(),
});
export type GroupSummary = v.InferOutput<typeof GroupSummarySchema>;

export const CampaignSummarySchema = v.object({
  id: v.string(),
  external_id: v.nullable(v.string()),
  name: v.string(),
  type: v.nullable(v.string()),
  /** Where the campaign shows as its type or name says (search, networks or both); absent when neither says. */
  placement: v.optional(v.nullable(v.picklist(['search', 'networks', 'both']))),
  groups_count: v.number(),
  ads_count: v.number(),
  keywords_count: v.number(),
  negative_keywords: v.number(),
  stats: v.nullable(StatsSummarySchema),
  groups: v.array(GroupSummarySchema),
});
export type CampaignSummary = v.InferOutput<typeof CampaignSummarySchema>;

export const IMPORT_SOURCES = ['files', 'direct_api'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];
export const IMPORT_MODES = ['create', 'replace', 'append'] as const;

export const ImportRecordSchema = v.object({
  id: v.string(),
  source: v.picklist(IMPORT_SOURCES),
  mode: v.picklist(IMPORT_MODES),
  status: v.picklist(['completed', 'failed']),
  file_names: v.array(v.string()),
  counts: v.object({ campaigns: v.number(), groups: v.number(), ads: v.number(), keywords: v.number(), searchQueries: v.number() }),
  problems: v.array(ImportProblemSchema),
  created_by: v.nullable(PersonSchema),
  created_at: v.string(),
});
export type ImportRecord = v.InferOutput<typeof ImportRecordSchema>;

export const ProjectConnectionSchema = v.object({
  platform: AdPlatformSchema,
  client_login: v.nullable(v.string()),
  sandbox: v.boolean(),
  created_at: v.string(),
});

export const ProjectDetailSchema = v.object({
  ...ProjectSummarySchema.entries,
  settings: ProjectSettingsSchema,
  stats: v.nullable(StatsSummarySchema),
  period: v.nullable(v.object({ from: v.string(), to: v.string() })),
  search_queries: v.number(),
  campaigns: v.array(CampaignSummarySchema),
  imports: v.array(ImportRecordSchema),
  connection: v.nullable(ProjectConnectionSchema),
});
export type ProjectDetail = v.InferOutput<typeof ProjectDetailSchema>;

export const CampaignTreeSchema = v.object({ campaigns: v.array(CampaignSummarySchema) });
export type CampaignTree = v.InferOutput<typeof CampaignTreeSchema>;

export const CampaignParamsSchema = v.object({ id: UuidSchema, campaignId: UuidSchema });
/** The whole campaign with its row id. */
export const CampaignDataResponseSchema = v.object({
  id: v.string(),
  campaign: documentOf<Campaign>('The campaign as the importers wrote it (contract/campaigns.ts `Campaign`): groups, keywords, ads, negatives, statistics'),
});

/** What an importer recognised in one file (format, platform, encoding…), shown in the preview. */
export const DetectedFileSchema = v.record(v.string(), v.unknown());

/** A calendar date `YYYY-MM-DD` that exists (no 2026-02-30). */
const IsoDateSchema = v.pipe(
  text(m.statsPeriodDateInvalid),
  v.trim(),
  v.check((value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), m.statsPeriodDateInvalid),
);

/**
 * PUT /projects/import-drafts/:draftId/period: the statistics period a person enters on the preview when the
 * files do not say it (inclusive dates); saved with the import, it turns the period's money into money per month.
 */
export const StatsPeriodInputSchema = v.pipe(
  v.object({ from: IsoDateSchema, to: IsoDateSchema }),
  v.forward(
    v.check((period) => period.from <= period.to, m.statsPeriodOrder),
    ['to'],
  ),
);
export type StatsPeriodInput = v.InferInput<typeof StatsPeriodInputSchema>;
export const DraftParamsSchema = v.object({ draftId: UuidSchema });
export const DraftPeriodResponseSchema = v.object({ period: v.object({ from: v.string(), to: v.string() }) });

export const ImportPreviewSchema = v.object({
  draft_id: v.string(),
  source: v.picklist(IMPORT_SOURCES),
  platform: AdPlatformSchema,
  file_names: v.array(v.string()),
  counts: v.object({ campaigns: v.number(), groups: v.number(), ads: v.number(), keywords: v.number(), searchQueries: v.number() }),
  problems: v.array(ImportProblemSchema),
  detected: v.array(DetectedFileSchema),
  campaigns: v.array(v.object({ name: v.string(), groups: v.number(), ads: v.number(), keywords: v.number() })),
  /** The statistics period read from the files (a date column or a report's header line) or set by the API import; null when unknown. */
  period: v.optional(v.nullable(v.object({ from: v.string(), to: v.string() }))),
  /** Rows of statistics and search-query reports read from the files (not given for the Direct API). */
  statistics_rows: v.optional(v.number()),
  /** Direct API points spent on the import, when it came from the API. */
  units: v.optional(v.unknown()),
  expires_at: v.string(),
});
export type ImportPreview = v.InferOutput<typeof ImportPreviewSchema>;

export const DirectApiPreviewSchema = v.object({
  token: v.pipe(text(m.directTokenRequired), v.trim(), v.nonEmpty(m.directTokenRequired), v.maxLength(500, m.directTokenRequired)),
  client_login: v.optional(v.pipe(text(), v.trim(), v.maxLength(100, m.clientLoginInvalid), v.regex(/^[A-Za-z0-9._-]*$/, m.clientLoginInvalid))),
  sandbox: v.optional(v.boolean()),
});
export type DirectApiPreviewRequest = v.InferInput<typeof DirectApiPreviewSchema>;

/** Reading an account connected by OAuth (/direct/connections): an agency names its client's login. */
export const ConnectionPreviewSchema = v.object({
  client_login: DirectApiPreviewSchema.entries.client_login,
});

export const ApplyImportSchema = v.object({
  draft_id: UuidSchema,
  mode: v.optional(v.picklist(['replace', 'append'], m.importModeInvalid), 'replace'),
});
export type ApplyImportRequest = v.InferInput<typeof ApplyImportSchema>;

/**
 * A Yandex Direct API import runs as a job (a large account takes minutes): the start answers 202 with
 * the job, `GET /api/v1/projects/import-jobs/{id}` its state; once completed it carries the preview
 * the old synchronous endpoint returned, saved the same way (`draft_id`).
 *
 * Stages in the order they finish. Groups, ads and keywords are read side by side (the API takes 5
 * requests at a time), and the two reports are ordered first and build on Yandex's side meanwhile, so
 * several stages can be running at once: `stages` lists each, and `stage` names the first unfinished one.
 */
export const DIRECT_IMPORT_STAGES = ['campaigns', 'groups', 'ads', 'keywords', 'extensions', 'statistics', 'search_queries'] as const;
export type DirectImportStage = (typeof DIRECT_IMPORT_STAGES)[number];
export const IMPORT_JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ImportJobStatus = (typeof IMPORT_JOB_STATUSES)[number];

export const DirectImportStageProgressSchema = v.object({
  stage: v.picklist(DIRECT_IMPORT_STAGES),
  status: v.picklist(['pending', 'running', 'done', 'skipped']),
  /**
   * Work done out of `total`: campaigns read (campaigns; total unknown until the list ends), campaigns
   * covered (groups, ads, keywords), lookups answered (extensions: sitelinks, callouts, images), the
   * report ready (statistics, search queries: 0 or 1 of 1).
   */
  done: v.number(),
  total: v.nullable(v.number()),
  /** Objects read so far: groups, ads, keywords, sitelink sets + callouts + images, report rows. */
  items: v.number(),
});
export type DirectImportStageProgress = v.InferOutput<typeof DirectImportStageProgressSchema>;

export const DirectImportUnitsSchema = v.object({
  /** API points spent by this import so far. */
  spent: v.number(),
  /** Points left on the account after the latest request, and its daily limit (null before any answer said). */
  available: v.nullable(v.number()),
  daily: v.nullable(v.number()),
});

export const ImportJobProgressSchema = v.object({
  /** The first unfinished stage; `queued` before a worker took the job, `saving` once every stage is over. */
  stage: v.picklist(['queued', ...DIRECT_IMPORT_STAGES, 'saving', 'done']),
  done: v.number(),
  total: v.nullable(v.number()),
  stages: v.array(DirectImportStageProgressSchema),
  units: DirectImportUnitsSchema,
});
export type ImportJobProgress = v.InferOutput<typeof ImportJobProgressSchema>;

export const ImportJobSchema = v.object({
  id: v.string(),
  source: v.picklist(['direct_api']),
  /** The project whose saved connection is read again; null for a new project's import. */
  project_id: v.nullable(v.string()),
  status: v.picklist(IMPORT_JOB_STATUSES),
  progress: ImportJobProgressSchema,
  /** When completed: the preview to save (`draft_id`), exactly what the synchronous import answered. */
  preview: v.optional(ImportPreviewSchema),
  /** When failed: a Russian sentence for the user (the Direct API's documented errors keep their wording). */
  error: v.optional(v.string()),
  error_code: v.optional(v.string()),
  created_at: v.string(),
  started_at: v.nullable(v.string()),
  finished_at: v.nullable(v.string()),
});
export type ImportJob = v.InferOutput<typeof ImportJobSchema>;

export const isImportJobFinished = (status: ImportJobStatus) => status === 'completed' || status === 'failed';

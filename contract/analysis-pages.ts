/**
 * The paged results API (issue 9): an analysis's results are stored as rows (findings, their items,
 * suggestions, decisions, scores, semantic sections) beside a small summary document, and read page by
 * page. Plan shared by the server and the results screens: /work/wt/RESULTS-API.md.
 *
 *   GET  /analyses/:id/results                      → { analysis, summary, findings (first page by money), decisions }
 *   GET  /analyses/:id/findings?…                   → FindingsPage
 *   GET  /analyses/:id/findings/:findingId/items    → FindingItemsPage
 *   GET  /analyses/:id/suggestions?…                → SuggestionsPage
 *   PUT  /analyses/:id/decisions                    → the whole choice by ids (API clients; analysis.ts)
 *   PATCH /analyses/:id/decisions                   → { accepted, rejected }: 1–500 changes by id (the screen's clicks)
 *   POST /analyses/:id/decisions/bulk               → { updated, accepted, rejected }
 *   GET  /analyses/:id/semantic/:section?page…      → SemanticPage
 *   GET  /analyses/:id/scores?level&sort&page…      → ScoresPage
 *
 * Query lists (`check`, `severity`, `category`…) may repeat (`check=a&check=b`) or be comma separated.
 * Documents in answers are the engine types of analysis-results.ts: each page's item is `documentOf` its
 * interface (checked as an object, typed exactly). The calls themselves are in contract/routes/analyses.ts.
 */
import * as v from 'valibot';
import { text } from './text.js';
import type { AdPlatform, StatsPeriod } from './campaigns.js';
import type {
  AnalysisNotice,
  AnalysisSettings,
  CheckDescription,
  CheckFamily,
  DroppedNegative,
  DuplicateSet,
  EntityScore,
  Finding,
  FindingItem,
  GroupIntersection,
  GroupRelevance,
  KeywordCluster,
  KeywordVerdict,
  StoredMoneyStory,
  NegativeCategory,
  NonTargetQueries,
  SemanticResult,
  Severity,
  Suggestion,
  SuggestionStatus,
} from './analysis-results.js';
import { AnalysisSchema } from './analysis.js';
import { documentOf, pageOf, UuidSchema } from './common.js';
import { analysisMessages as am, analysisPageMessages as m } from './messages.js';

/** Largest `page_size` of every paged results endpoint. */
export const RESULTS_PAGE_SIZE_MAX = 500;
/** Findings of the first page in `GET /results`, and the default page size. */
export const RESULTS_PAGE_SIZE_DEFAULT = 50;
/**
 * A filtered list counts its matches up to this many (`total_capped: true` past it): counting every
 * one of 750 000 suggestions costs more than the page itself, and «более 10 000» tells the user as much.
 */
export const RESULTS_TOTAL_CAP = 10_000;
/** Items (examples) a finding carries in a findings page; the rest are at `/findings/:id/items`. */
export const FINDING_EXAMPLE_ITEMS = 5;

export const severities = ['high', 'medium', 'low'] as const satisfies readonly Severity[];
export const suggestionKinds = ['negative_keyword', 'cross_minus', 'ad_field'] as const satisfies readonly Suggestion['kind'][];
export const negativeCategories = ['free', 'informational', 'jobs', 'used', 'foreign_geo', 'competitors', 'ambiguous', 'query'] as const satisfies readonly NegativeCategory[];
export const suggestionStatuses = ['ready', 'check_by_hand'] as const satisfies readonly SuggestionStatus[];
export const decisionFilters = ['accepted', 'rejected', 'undecided'] as const;
export type DecisionFilter = (typeof decisionFilters)[number];
export const findingSorts = ['money', 'severity'] as const;
export const scoreLevels = ['campaign', 'group', 'ad', 'keyword'] as const;
export type ScoreLevel = (typeof scoreLevels)[number];
export const scoreSorts = ['score', 'money'] as const;
export const semanticSections = ['clusters', 'duplicates', 'intersections', 'relevance', 'collect_data', 'dropped_negatives', 'keyword_verdicts'] as const;
export type SemanticSection = (typeof semanticSections)[number];

// ------------------------------------------------------------------------------------ query pieces

const integerParam = (min: number, max: number, message: string) =>
  v.pipe(v.unknown(), v.transform(Number), v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));

const pageFields = {
  page: v.optional(integerParam(1, 1_000_000, m.pageInvalid), 1),
  page_size: v.optional(integerParam(1, RESULTS_PAGE_SIZE_MAX, m.pageSizeInvalid), RESULTS_PAGE_SIZE_DEFAULT),
};
export const ResultsPageQuerySchema = v.object(pageFields);

/** One value or several (repeated or comma separated) → a list without empties (max 100 values). */
const listOf = <const T extends readonly string[] | null>(allowed: T, message: string) =>
  v.pipe(
    v.union([text(message), v.array(text(message), message)], message),
    v.transform((value) => (Array.isArray(value) ? value : [value]).flatMap((part) => part.split(',')).map((part) => part.trim()).filter(Boolean)),
    v.maxLength(100, message),
    v.check((values) => allowed === null || values.every((value) => (allowed as readonly string[]).includes(value)), message),
  );
const keyList = (message: string) => v.optional(v.pipe(listOf(null, message), v.check((keys) => keys.every((key) => /^c\d+(g\d+)?$/.test(key)), message)));
const textFilter = v.optional(v.pipe(text(m.textInvalid), v.trim(), v.maxLength(200, m.textInvalid)));

const findingFilterFields = {
  severity: v.optional(listOf(severities, m.severityInvalid)),
  /** Check ids (`check=no_negatives&check=low_ctr`). */
  check: v.optional(listOf(null, m.checkInvalid)),
  /** Campaign keys (`c0`): findings on the campaign and everything inside it. */
  campaign: keyList(m.campaignKeyInvalid),
  /** Group keys (`c0g1`): findings on the group and everything inside it. */
  group: keyList(m.groupKeyInvalid),
  /** Words in the title, the target's names and labels (case-insensitive substring). */
  text: textFilter,
};

export const FindingsQuerySchema = v.object({
  ...pageFields,
  ...findingFilterFields,
  /** `money` (money per month, highest first; default) or `severity` (high first, then money). */
  sort: v.optional(v.picklist(findingSorts, m.sortInvalid), 'money'),
});
export type FindingsQuery = v.InferInput<typeof FindingsQuerySchema>;
export type FindingsFilter = v.InferOutput<typeof FindingsQuerySchema>;

const suggestionFilterFields = {
  kind: v.optional(listOf(suggestionKinds, m.kindInvalid)),
  /** Negative-keyword categories (`jobs`, `free`…); other kinds have none. */
  category: v.optional(listOf(negativeCategories, m.categoryInvalid)),
  status: v.optional(listOf(suggestionStatuses, m.suggestionStatusInvalid)),
  campaign: keyList(m.campaignKeyInvalid),
  group: keyList(m.groupKeyInvalid),
  decision: v.optional(listOf(decisionFilters, m.decisionFilterInvalid)),
  /** Words in the negative / keyword / ad text, the reason and the target's names. */
  text: textFilter,
};

/** Filters of the suggestions list, also the `filter` of a bulk decision. */
export const SuggestionsFilterSchema = v.object(suggestionFilterFields, m.filterInvalid);
export type SuggestionsFilterInput = v.InferInput<typeof SuggestionsFilterSchema>;
export type SuggestionsFilter = v.InferOutput<typeof SuggestionsFilterSchema>;

/** Sorted by money (the cost per month the suggestion saves; ad fixes last), highest first. */
export const SuggestionsQuerySchema = v.object({ ...pageFields, ...suggestionFilterFields });
export type SuggestionsQuery = v.InferInput<typeof SuggestionsQuerySchema>;

export const ScoresQuerySchema = v.object({
  ...pageFields,
  level: v.optional(v.picklist(scoreLevels, m.levelInvalid), 'campaign'),
  /** `score`: worst (lowest) first; `money`: money per month of its findings, highest first. */
  sort: v.optional(v.picklist(scoreSorts, m.sortInvalid), 'score'),
  campaign: keyList(m.campaignKeyInvalid),
  group: keyList(m.groupKeyInvalid),
});
export type ScoresQuery = v.InferInput<typeof ScoresQuerySchema>;

export const FindingParamsSchema = v.object({ id: UuidSchema, findingId: v.pipe(text(), v.minLength(1), v.maxLength(300)) });
export const SemanticParamsSchema = v.object({ id: UuidSchema, section: v.picklist(semanticSections, m.sectionInvalid) });

// ------------------------------------------------------------------------------------ bulk decisions

export const BulkDecisionSchema = v.object(
  {
    /** The same filters as `GET /suggestions` (an empty filter = every suggestion of the analysis). */
    filter: SuggestionsFilterSchema,
    /** `undecided` removes the decision. */
    decision: v.picklist(decisionFilters, m.decisionInvalid),
  },
  m.bulkRequired,
);
export type BulkDecisionRequest = v.InferInput<typeof BulkDecisionSchema>;

/** `updated`: suggestions the filter matched; `accepted`/`rejected`: the analysis's totals afterwards. */
export const BulkDecisionResponseSchema = v.object({ updated: v.number(), accepted: v.number(), rejected: v.number() });
export type BulkDecisionResponse = v.InferOutput<typeof BulkDecisionResponseSchema>;

// ------------------------------------------------------------------------------------ decision changes

/** Most changes in one `PATCH /decisions` (a click sends one; a screen may batch a few). */
export const DECISION_CHANGES_MAX = 500;

const DecisionChangeSchema = v.object(
  {
    id: v.pipe(text(am.suggestionIdInvalid), v.minLength(1, am.suggestionIdInvalid), v.maxLength(200, am.suggestionIdInvalid)),
    /** `undecided` removes the decision. */
    decision: v.picklist(decisionFilters, m.decisionInvalid),
    /** The edited `after` of an accepted ad fix; ignored (and cleared) for anything else. */
    value: v.optional(v.pipe(text(am.valueInvalid), v.maxLength(1000, am.valueInvalid))),
  },
  m.changeInvalid,
);
export type DecisionChange = v.InferInput<typeof DecisionChangeSchema>;

/** PATCH /analyses/:id/decisions: these suggestions' decisions change, the rest stay as they are. */
export const DecisionChangesSchema = v.object(
  { changes: v.pipe(v.array(DecisionChangeSchema, m.changesRequired), v.minLength(1, m.changesRequired), v.maxLength(DECISION_CHANGES_MAX, m.changesRequired)) },
  m.changesRequired,
);
export type DecisionChangesRequest = v.InferInput<typeof DecisionChangesSchema>;

/** The analysis's decision totals after the change (the bulk answer's counts). */
export const DecisionChangesResponseSchema = v.object({ accepted: v.number(), rejected: v.number() });
export type DecisionChangesResponse = v.InferOutput<typeof DecisionChangesResponseSchema>;

// ------------------------------------------------------------------------------------ answers

export interface Page<T> {
  items: T[];
  /** Matches of the whole list; with `total_capped`, at least this many (`RESULTS_TOTAL_CAP`). */
  total: number;
  total_capped?: boolean;
  page: number;
  page_size: number;
}

/** A page whose `total` stops at `RESULTS_TOTAL_CAP` (`total_capped: true`: there are more). */
const cappedPageOf = <T extends v.GenericSchema>(item: T) => v.object({ ...pageOf(item).entries, total_capped: v.boolean() });

/** A suggestion with the user's decision on it (`value`: the edited `after` of an accepted ad fix). */
export type SuggestionWithDecision = Suggestion & { decision: 'accepted' | 'rejected' | null; value?: string };

/** The item type of each semantic section. */
export interface SemanticSectionItems {
  clusters: KeywordCluster;
  duplicates: DuplicateSet;
  intersections: GroupIntersection;
  relevance: GroupRelevance;
  collect_data: SemanticResult['collectData'][number];
  dropped_negatives: DroppedNegative;
  keyword_verdicts: KeywordVerdict;
}

/** A finding of a page: `items` holds at most `FINDING_EXAMPLE_ITEMS` examples (worst first); `count` is all of them. */
export const FindingsPageSchema = cappedPageOf(documentOf<Finding>('A finding (Finding): check, severity, entity, money, at most 5 example items'));
export const FindingItemsPageSchema = pageOf(documentOf<FindingItem>('An entity of an aggregated finding (FindingItem)'));
export const SuggestionsPageSchema = cappedPageOf(documentOf<SuggestionWithDecision>('A suggestion (negative keyword, cross-minus, ad fix) with the decision on it'));
/** A page of one section; `SemanticPage<S>` names the item type of section S. */
export const SemanticPageSchema = pageOf(documentOf<SemanticSectionItems[SemanticSection]>("An item of the section (its type is the section's: cluster, duplicate set, intersection…)"));
export const ScoresPageSchema = cappedPageOf(documentOf<EntityScore>('The score of a campaign, group, ad or keyword (EntityScore)'));

export type FindingsPage = v.InferOutput<typeof FindingsPageSchema>;
export type FindingItemsPage = v.InferOutput<typeof FindingItemsPageSchema>;
export type SuggestionsPage = v.InferOutput<typeof SuggestionsPageSchema>;
export type ScoresPage = v.InferOutput<typeof ScoresPageSchema>;
export type SemanticPage<S extends SemanticSection = SemanticSection> = Page<SemanticSectionItems[S]>;

/** One check as the summary counts it: its findings, the entities they cover (Σ count) and their money. */
export interface CheckCount {
  checkId: string;
  title: string;
  family: CheckFamily;
  severity: Severity;
  findings: number;
  /** Entities the findings cover (an aggregated finding «N фраз» counts N). */
  entities: number;
  moneyPerMonth: number;
}

/** Suggestions of one kind (and category for negatives) and the money they save per month. */
export interface SuggestionCount {
  kind: Suggestion['kind'];
  category: NegativeCategory | null;
  status: SuggestionStatus | null;
  count: number;
  costPerMonth: number;
}

/**
 * The stored summary of a completed analysis: every figure of the results header, under 100 KB at any
 * account size (lists are capped: `scores.campaigns` at 100, `top` at 10 each; the rest are counts). Where
 * long names would still take it over 80 KB of JSON, the last top items and then campaigns give way.
 */
export interface ResultsSummary {
  platform: AdPlatform;
  settings: AnalysisSettings;
  period: StatsPeriod | null;
  periodDays: number;
  monthFactor: number;
  notices: AnalysisNotice[];
  counts: { campaigns: number; groups: number; ads: number; keywords: number; negativeKeywords: number; searchQueries: number };
  scores: {
    account: EntityScore;
    /** The worst campaigns (lowest score first), at most 100; `campaignsTotal` says how many there are. */
    campaigns: EntityScore[];
    campaignsTotal: number;
  };
  /** The one money figure and its causes; null on analyses stored before it existed (older: read with `readMoneyStory`). */
  money: StoredMoneyStory | null;
  /** Cost of keywords without conversions (kept for the older screens; part of `money`). */
  wastedSpend: { period: number; perMonth: number };
  bySeverity: Record<Severity, { findings: number; entities: number; moneyPerMonth: number }>;
  byCheck: CheckCount[];
  checks: CheckDescription[];
  findingsTotal: number;
  suggestions: { total: number; byKind: SuggestionCount[] };
  semantic: {
    notices: AnalysisNotice[];
    counts: SemanticResult['counts'] & { collectData: number; droppedNegatives: number; relevance: number; keywordVerdicts: number };
  };
  /** The non-target queries figure without its per-suggestion breakdown (that stays in rows). */
  nonTargetQueries: Omit<NonTargetQueries, 'blockedBy'> | null;
  /** The few biggest items for the header: findings without their items, suggestions by money. */
  top: { findings: Finding[]; suggestions: Suggestion[] };
}

/** Decisions as counts, plus what the accepted negatives block of the non-target queries. */
export interface DecisionCounts {
  accepted: number;
  rejected: number;
  /** Non-target query rows the accepted negatives would block (each row once); null without a search-query report. */
  blockedQueries: { queries: number; clicks: number; cost: number; costPerMonth: number } | null;
}

export const DecisionCountsSchema = v.object({
  accepted: v.number(),
  rejected: v.number(),
  blockedQueries: v.nullable(v.object({ queries: v.number(), clicks: v.number(), cost: v.number(), costPerMonth: v.number() })),
});

/** GET /analyses/:id/results (409 until completed). */
export const PagedResultsSchema = v.object({
  analysis: AnalysisSchema,
  summary: documentOf<ResultsSummary>('The stored summary (ResultsSummary): every figure of the results header, under 100 KB'),
  findings: FindingsPageSchema,
  decisions: DecisionCountsSchema,
});
export type PagedResults = v.InferOutput<typeof PagedResultsSchema>;

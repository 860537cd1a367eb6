import * as v from 'valibot';
import { text } from './text.js';
import type { ScoringResult, SemanticResult, Severity, StoredMoneyStory } from './analysis-results.js';
import type { StatsPeriod } from './campaigns.js';
import { documentOf, ErrorBodySchema, ExpectedCostSchema, UuidSchema } from './common.js';
import { analysisMessages as m } from './messages.js';
import { ProjectSettingsSchema } from './projects.js';
import type { AnalysisKind } from './tokens.js';

// /api/v1/projects/:id/analyses and /api/v1/analyses/:id…: start, progress (SSE), history, results,
// decisions on suggestions, export of the accepted changes, cancel.

/**
 * What an audit runs and is charged for: scoring always needs the semantic pass (duplicates,
 * intersections, relevance), so the price is `POST /tokens/calculate-cost` with these kinds.
 */
export const auditAnalysisKinds: AnalysisKind[] = ['scoring', 'semantic'];

/** The values a label table names, in its order: each value is written once, with its Russian label. */
const valuesOf = <K extends string>(labels: Record<K, string>) => Object.keys(labels) as K[];

export const analysisStatusLabels = {
  queued: 'В очереди',
  running: 'Выполняется',
  completed: 'Завершён',
  failed: 'Ошибка',
  cancelled: 'Отменён',
};

/**
 * Reason codes of a failed (or interrupted) run, stored on the analysis and shown in the admin area, with
 * what each means. RESULT_TOO_LARGE and ENGINE_FAILED are deterministic: the job is not retried.
 */
export const analysisErrorCodeLabels = {
  RESULT_TOO_LARGE: 'Результат слишком большой для сохранения',
  ENGINE_FAILED: 'Ошибка в движке анализа',
  OUT_OF_MEMORY: 'Превышен предел памяти потока анализа',
  TIMED_OUT: 'Превышено время выполнения',
  CAMPAIGNS_GONE: 'Кампании удалены новым импортом',
  INTERRUPTED: 'Прерван перезапуском сервера',
  DB_ERROR: 'Ошибка базы данных',
  CANCELLED: 'Отменён',
};

/** Stages as stored in `analysis.stage`, in the order a run passes them. */
export const analysisStageLabels = {
  queued: 'Ожидание в очереди',
  prepare: 'Подготовка данных',
  lemmatize: 'Лемматизация ключевых фраз и запросов',
  semantic: 'Семантический анализ',
  scoring: 'Проверки и оценка кампаний',
  rollup: 'Сводка результатов',
  saving: 'Сохранение результатов',
  done: 'Готово',
};

export type AnalysisStatus = keyof typeof analysisStatusLabels;
export type AnalysisErrorCode = keyof typeof analysisErrorCodeLabels;
export type AnalysisStage = keyof typeof analysisStageLabels;
export const analysisStatuses = valuesOf(analysisStatusLabels);
export const analysisErrorCodes = valuesOf(analysisErrorCodeLabels);
/** The run is over: no more progress, the SSE stream sends `done` and closes. */
export const finishedStatuses: readonly AnalysisStatus[] = ['completed', 'failed', 'cancelled'];

/** Where the run is inside its stage: `done` of `total` items (keywords, checks…). */
export interface AnalysisProgressDetail {
  stage: string;
  done: number;
  total: number;
}

export interface AnalysisOptions {
  /** The analysed campaigns (ids of the project's campaigns), in the project's order. */
  campaign_ids: string[];
  /** Thresholds used: the project's settings with the start request's overrides on top. */
  settings: v.InferOutput<typeof ProjectSettingsSchema>;
  /** The project's target CPA at start time. */
  target_cpa: number | null;
  /** The project's region at start time (its places are never "foreign geography"); absent on older analyses. */
  region?: string | null;
}

export interface AnalysisDecisions {
  /** Suggestion ids (from `result.scoring.suggestions`, `result.semantic.crossMinus`, `result.semantic.negatives`). */
  accepted: string[];
  rejected: string[];
  /** Edited values of accepted ad-field suggestions, by suggestion id (default: the suggestion's `after`). */
  values?: Record<string, string>;
}

/**
 * The short form of the results, stored beside them for lists, the gauge and the charts. A type, not an
 * interface, so an `Analysis` is a valid input of `AnalysisSchema` (whose `summary` is a record).
 */
export type AnalysisSummary = {
  account_score: number;
  campaigns: { key: string; name: string; score: number; findings: number; money_per_month: number }[];
  /** Findings per severity, the entities they cover and their money (`entities` absent on older summaries). */
  by_severity: Record<Severity, { count: number; entities?: number; money_per_month: number }>;
  /**
   * Per check that fired: its findings (an aggregated finding once) and the entities they cover
   * (keywords, ads, groups…), so noise is visible; money first. Absent on older summaries.
   */
  by_check?: { check_id: string; title: string; severity: Severity; findings: number; entities: number; money_per_month: number }[];
  findings_count: number;
  suggestions_count: number;
  /**
   * Money of every keyword with clicks and no conversions over the imported period and per month (kept
   * for older screens; not the headline: that is `money`, which counts only what the checks call lost).
   */
  wasted_spend: { period: number; per_month: number };
  /**
   * The one figure «Теряете ≈ X ₽ в месяц» and its causes, the same object as `AuditResult.money`
   * (camelCase inside, as the shared `MoneyStory`). Absent on summaries stored before it existed; read
   * it with `readMoneyStory` (stored before the lost/saving split, its `perMonth` had both).
   */
  money?: StoredMoneyStory;
  period: StatsPeriod | null;
  counts: { campaigns: number; groups: number; ads: number; keywords: number; search_queries: number };
  /** What the engines could not do (no statistics, no conversions…), in Russian. */
  notices: { code: string; message: string }[];
};

/** The full engine output stored for an analysis (`GET /analyses/:id/results` → `result`). */
export interface AuditResult {
  scoring: ScoringResult;
  semantic: SemanticResult;
  /** The money story of the two (see `MoneyStory`); absent on results stored before it existed, older without the split. */
  money?: StoredMoneyStory;
}

const PersonSchema = v.object({ id: v.string(), full_name: v.string() });

export const AnalysisSchema = v.object({
  id: v.string(),
  project_id: v.string(),
  kind: v.literal('audit'),
  status: v.picklist(analysisStatuses),
  /** One of the stages of `analysisStageLabels` (null before a worker picks it up). */
  stage: v.nullable(v.string()),
  /** 0–100. */
  progress: v.number(),
  progress_detail: v.nullable(v.object({ stage: v.string(), done: v.number(), total: v.number() })),
  options: v.object({
    campaign_ids: v.array(v.string()),
    settings: documentOf<AnalysisOptions['settings']>("The thresholds used: the project's settings with the start request's overrides"),
    target_cpa: v.nullable(v.number()),
    region: v.optional(v.nullable(v.string())),
  }),
  cost: v.number(),
  /** Account score 0–100 once completed. */
  score: v.nullable(v.number()),
  summary: v.nullable(documentOf<AnalysisSummary>('The short form of the results (AnalysisSummary): account score, campaigns, counts by severity, money')),
  /** Russian message for a failed or interrupted run. */
  error: v.nullable(v.string()),
  /** Why a run failed, for the admin area and support (absent on older answers). */
  error_code: v.optional(v.nullable(v.picklist(analysisErrorCodes))),
  author: v.nullable(PersonSchema),
  created_at: v.string(),
  started_at: v.nullable(v.string()),
  finished_at: v.nullable(v.string()),
});
export type Analysis = v.InferOutput<typeof AnalysisSchema>;

export const AnalysisResponseSchema = v.object({ analysis: AnalysisSchema });
export type AnalysisResponse = { analysis: Analysis };

const IdempotencyKeySchema = v.pipe(text(m.idempotencyKeyRequired), v.trim(), v.minLength(1, m.idempotencyKeyRequired), v.maxLength(200, m.idempotencyKeyRequired));

/** POST /projects/:id/analyses → 201 (new) or 200 (the same key again: the first analysis, no second charge). */
export const StartAnalysisSchema = v.object(
  {
    campaign_ids: v.pipe(v.array(UuidSchema, m.campaignsRequired), v.minLength(1, m.campaignsRequired), v.maxLength(1000, m.campaignsTooMany)),
    /** Threshold overrides for this run on top of the project's settings. */
    settings: v.optional(ProjectSettingsSchema),
    /** Made once per click on the client (e.g. crypto.randomUUID()), reused on retries. */
    idempotency_key: IdempotencyKeySchema,
    expected_cost: v.optional(ExpectedCostSchema),
  },
  m.campaignsRequired,
);
export type StartAnalysisRequest = v.InferInput<typeof StartAnalysisSchema>;

/** The 402 answer of a start with a short balance: the error body plus what it costs and what there is. */
export const InsufficientTokensBodySchema = v.object({
  ...ErrorBodySchema.entries,
  code: v.literal('INSUFFICIENT_TOKENS'),
  /** Tokens the analysis costs. */
  required: v.number(),
  /** Tokens on the caller's balance. */
  balance: v.number(),
});
export type InsufficientTokensBody = v.InferOutput<typeof InsufficientTokensBodySchema>;

const queryInteger = (min: number, max: number, message: string) =>
  v.pipe(v.unknown(), v.transform(Number), v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));

export const AnalysisHistoryQuerySchema = v.object({
  page: v.optional(queryInteger(1, 1_000_000, m.pageInvalid), 1),
  page_size: v.optional(queryInteger(1, 100, m.pageSizeInvalid), 20),
  status: v.optional(v.picklist(analysisStatuses, m.statusInvalid)),
  /** Only the analyses this user started («Мои анализы»). */
  author_id: v.optional(UuidSchema),
});
export type AnalysisHistoryQuery = v.InferInput<typeof AnalysisHistoryQuerySchema>;

export const AnalysisHistoryItemSchema = v.object({
  id: v.string(),
  created_at: v.string(),
  author: v.nullable(PersonSchema),
  status: v.picklist(analysisStatuses),
  score: v.nullable(v.number()),
  cost: v.number(),
  campaigns_count: v.number(),
  finished_at: v.nullable(v.string()),
  /** The one money figure «Теряете ≈ X ₽ в месяц» (the summary's money story); absent on older analyses. */
  money_per_month: v.optional(v.nullable(v.number())),
});
export type AnalysisHistoryItem = v.InferOutput<typeof AnalysisHistoryItemSchema>;

export const AnalysisHistoryPageSchema = v.object({ items: v.array(AnalysisHistoryItemSchema), total: v.number(), page: v.number(), page_size: v.number() });
export type AnalysisHistoryPage = v.InferOutput<typeof AnalysisHistoryPageSchema>;

const SuggestionIdsSchema = v.pipe(v.array(v.pipe(text(m.suggestionIdInvalid), v.minLength(1, m.suggestionIdInvalid), v.maxLength(200, m.suggestionIdInvalid)), m.suggestionIdInvalid), v.maxLength(100_000, m.tooManyDecisions));

/** PUT /analyses/:id/decisions: the whole choice (replaces the previous one). */
export const DecisionsSchema = v.pipe(
  v.object(
    {
      accepted: SuggestionIdsSchema,
      rejected: SuggestionIdsSchema,
      values: v.optional(v.record(text(), v.pipe(text(m.valueInvalid), v.maxLength(1000, m.valueInvalid)), m.valueInvalid)),
    },
    m.decisionsRequired,
  ),
  v.check((body) => {
    const accepted = new Set(body.accepted);
    return !body.rejected.some((id) => accepted.has(id));
  }, m.acceptedAndRejected),
);
export type DecisionsRequest = v.InferInput<typeof DecisionsSchema>;

export const DecisionsResponseSchema = v.object({
  decisions: v.object({ accepted: v.array(v.string()), rejected: v.array(v.string()), values: v.optional(v.record(v.string(), v.string())) }),
});

/** GET /analyses/:id/results. `result` is an `AuditResult` (null unless completed). */
export const AnalysisResultsSchema = v.object({
  analysis: AnalysisSchema,
  result: v.nullable(v.record(v.string(), v.unknown())),
  decisions: DecisionsResponseSchema.entries.decisions,
});
export type AnalysisResults = { analysis: Analysis; result: AuditResult | null; decisions: AnalysisDecisions };

export const exportPlatforms = ['yandex_direct', 'google_ads'] as const;
export const exportFormats = ['csv', 'xlsx'] as const;

/** GET /analyses/:id/export?platform=&format=: the file of the accepted changes. */
export const ExportQuerySchema = v.object({
  /** Defaults to the project's platform. */
  platform: v.optional(v.picklist(exportPlatforms, m.exportPlatformInvalid)),
  format: v.optional(v.picklist(exportFormats, m.exportFormatInvalid), 'csv'),
});
export type ExportQuery = v.InferInput<typeof ExportQuerySchema>;

/**
 * The export's notes for a person (duplicates to delete by hand, ads an Editor file leaves out and why),
 * sent with the file in this header: a JSON list of Russian lines, percent-encoded (a header is ASCII).
 */
export const EXPORT_NOTES_HEADER = 'x-export-notes';
export const encodeExportNotes = (notes: string[]) => encodeURIComponent(JSON.stringify(notes));
/** The notes of an export reply's header; none when it is missing or not what the server writes. */
export function decodeExportNotes(header: string | null): string[] {
  if (!header) return [];
  try {
    const notes: unknown = JSON.parse(decodeURIComponent(header));
    return Array.isArray(notes) ? notes.filter((note): note is string => typeof note === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * GET /analyses/:id/events (text/event-stream, bearer header): `event: progress` with `{analysis}` on
 * connect and on every change, then `event: done` with `{analysis}` (completed, failed or cancelled)
 * and the stream ends. Comment lines (`: ping`) keep the connection alive every 15 s.
 */
export type AnalysisEvent = { event: 'progress' | 'done'; data: AnalysisResponse };

export const AnalysisParamsSchema = v.object({ id: UuidSchema });

/**
 * The page check: do the pages the ads lead to talk about what the keywords and the
 * headlines promise? Shared by the server (routes, engine output) and the PWA screens.
 */
import * as v from 'valibot';
import { text } from './text.js';
import { ExpectedCostSchema } from './common.js';
import type { Severity } from './analysis-results.js';
import { pageCheckMessages as m } from './messages.js';

export type { Severity } from './analysis-results.js';

/** One analysis checks at most this many pages (fetching is the slow, paid part). */
export const MAX_PAGE_CHECK_URLS = 100;

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

export const LandingUrlSchema = v.pipe(text(m.urlInvalid), v.trim(), v.maxLength(2000, m.urlInvalid), v.check(isHttpUrl, m.urlInvalid));

/** POST /projects/:id/page-checks. Without `urls`: every landing page of the project's ads (first 100). */
export const StartPageCheckSchema = v.object({
  urls: v.optional(v.pipe(v.array(LandingUrlSchema, m.urlsRequired), v.minLength(1, m.urlsRequired), v.maxLength(MAX_PAGE_CHECK_URLS, m.urlsTooMany))),
  idempotency_key: v.pipe(text(m.idempotencyKeyInvalid), v.trim(), v.minLength(1, m.idempotencyKeyInvalid), v.maxLength(200, m.idempotencyKeyInvalid)),
  expected_cost: v.optional(ExpectedCostSchema),
});
export type StartPageCheckRequest = v.InferInput<typeof StartPageCheckSchema>;

export const pageCheckStatuses = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type PageCheckStatus = (typeof pageCheckStatuses)[number];

export const pageCheckStatusLabels: Record<PageCheckStatus, string> = {
  queued: 'В очереди',
  running: 'Выполняется',
  completed: 'Готово',
  failed: 'Ошибка',
  cancelled: 'Отменён',
};

export type PageCheckStage = 'queued' | 'fetching' | 'analyzing' | 'done';
export const pageCheckStageLabels: Record<PageCheckStage, string> = {
  queued: 'Ожидает запуска',
  fetching: 'Загружаем страницы',
  analyzing: 'Сравниваем страницы с ключевыми фразами и объявлениями',
  done: 'Готово',
};

/** A landing page of the project's ads, for the "new analysis" screen. */
export const LandingUrlInfoSchema = v.object({
  url: v.string(),
  campaigns: v.number(),
  groups: v.number(),
  keywords: v.number(),
  ads: v.number(),
});
export type LandingUrl = v.InferOutput<typeof LandingUrlInfoSchema>;

export const LandingUrlsResponseSchema = v.object({
  urls: v.array(LandingUrlInfoSchema),
  /** Tokens per checked page (the pricing table). */
  price_per_page: v.number(),
  balance: v.number(),
});
export type LandingUrlsResponse = v.InferOutput<typeof LandingUrlsResponseSchema>;

// ------------------------------------------------------------------------------------ engine output

export const pageIssueCodes = [
  'fetch_failed',
  'http_error',
  'not_html',
  'redirect_other_host',
  'utm_lost',
  'no_utm',
  'noindex',
  'no_title',
  'no_h1',
  'thin_content',
  'keywords_not_in_headings',
  'low_keyword_coverage',
  'ad_promise_missing',
  'slow',
  'too_heavy',
  'canonical_other_host',
] as const;
export type PageIssueCode = (typeof pageIssueCodes)[number];

const SeveritySchema = v.picklist(['high', 'medium', 'low'] satisfies Severity[]);

export const PageIssueSchema = v.object({
  code: v.picklist(pageIssueCodes),
  severity: SeveritySchema,
  /** What is wrong, one line. */
  title: v.string(),
  /** Why it costs money. */
  explanation: v.string(),
  /** What to do. */
  fix: v.string(),
});
export type PageIssue = v.InferOutput<typeof PageIssueSchema>;

/** How well one ad group's keywords are covered by the page it leads to. */
export const GroupCoverageSchema = v.object({
  campaign: v.string(),
  group: v.string(),
  keywords: v.number(),
  /** Distinct significant keyword lemmas of the group. */
  lemmas: v.number(),
  /** Share (0–1) of those lemmas found anywhere on the page (title, headings, description, text). */
  coverage: v.number(),
  /** Share (0–1) found in the title or an h1. */
  headingCoverage: v.number(),
  /** Lemmas not found on the page. */
  missing: v.array(v.string()),
});
export type GroupCoverage = v.InferOutput<typeof GroupCoverageSchema>;

export const CheckedPageSchema = v.object({
  url: v.string(),
  finalUrl: v.nullable(v.string()),
  /** HTTP status of the final answer; null when no answer came. */
  status: v.nullable(v.number()),
  contentType: v.nullable(v.string()),
  /** Milliseconds until the whole page was read (redirects included). */
  timingMs: v.nullable(v.number()),
  redirects: v.array(v.string()),
  /** Why the page could not be read, in Russian. */
  error: v.nullable(v.string()),
  title: v.nullable(v.string()),
  metaDescription: v.nullable(v.string()),
  h1: v.array(v.string()),
  h2: v.array(v.string()),
  wordCount: v.number(),
  noindex: v.boolean(),
  canonical: v.nullable(v.string()),
  /** 0–100; 0 when the page could not be read. */
  score: v.number(),
  /** Average group coverage (0–1). */
  coverage: v.number(),
  headingCoverage: v.number(),
  adPromise: v.object({ words: v.number(), coverage: v.number(), missing: v.array(v.string()) }),
  groups: v.array(GroupCoverageSchema),
  ads: v.number(),
  /** Spend of the ads leading here, when statistics were imported. */
  cost: v.number(),
  clicks: v.number(),
  issues: v.array(PageIssueSchema),
});
export type CheckedPage = v.InferOutput<typeof CheckedPageSchema>;

/**
 * A page with no answer to judge (the domain did not resolve, no connection, no answer in time, an
 * address refused): not checked, so not charged (its tokens go back when the run completes), yet still
 * a finding: the clicks paid for it land nowhere. A page that answered (4xx/5xx included) was checked.
 */
export const wasChecked = (page: { error: string | null }) => page.error === null;

export const PageCheckSummarySchema = v.object({
  pages: v.number(),
  /** Pages that answered 2xx with HTML. */
  reachable: v.number(),
  /** Pages not checked (`wasChecked`); absent in reports written before it was counted. */
  unchecked: v.optional(v.number()),
  /** Average score of the pages checked; null when none was. */
  averageScore: v.nullable(v.number()),
  /** Pages scoring below 50. */
  weakPages: v.number(),
  issuesBySeverity: v.object({ high: v.number(), medium: v.number(), low: v.number() }),
  /** Spend of the ads leading to weak or unreachable pages. */
  costOnWeakPages: v.number(),
  topIssues: v.array(v.object({ code: v.picklist(pageIssueCodes), title: v.string(), pages: v.number() })),
});
export type PageCheckSummary = v.InferOutput<typeof PageCheckSummarySchema>;

export const PageCheckResultSchema = v.object({ pages: v.array(CheckedPageSchema), summary: PageCheckSummarySchema });
export type PageCheckResult = v.InferOutput<typeof PageCheckResultSchema>;

// ------------------------------------------------------------------------------------ API answers

export const PageCheckSchema = v.object({
  id: v.string(),
  project_id: v.string(),
  status: v.picklist(pageCheckStatuses),
  stage: v.picklist(['queued', 'fetching', 'analyzing', 'done'] satisfies PageCheckStage[]),
  progress: v.number(),
  progress_detail: v.nullable(v.object({ done: v.number(), total: v.number() })),
  pages_count: v.number(),
  cost: v.number(),
  score: v.nullable(v.number()),
  summary: v.nullable(PageCheckSummarySchema),
  error: v.nullable(v.string()),
  author: v.nullable(v.object({ id: v.string(), full_name: v.string() })),
  created_at: v.string(),
  started_at: v.nullable(v.string()),
  finished_at: v.nullable(v.string()),
});
export type PageCheck = v.InferOutput<typeof PageCheckSchema>;

/** One run, as the start, the state and the cancel calls answer it. */
export const PageCheckResponseSchema = v.object({ analysis: PageCheckSchema });

export const PageCheckListSchema = v.object({ items: v.array(PageCheckSchema), total: v.number(), page: v.number(), page_size: v.number() });
export type PageCheckList = v.InferOutput<typeof PageCheckListSchema>;

export const PageCheckResultsSchema = v.object({ analysis: PageCheckSchema, result: PageCheckResultSchema });
export type PageCheckResults = v.InferOutput<typeof PageCheckResultsSchema>;

export const isFinished = (status: PageCheckStatus) => status === 'completed' || status === 'failed' || status === 'cancelled';

/**
 * Landing-page relevance analysis: do the pages the ads lead to talk about what the keywords and the
 * headlines promise? Shared by the server (routes, engine output) and the PWA screens.
 */
import * as v from 'valibot';
import { text } from './text.js';
import type { Severity } from './analysis-results.js';
import { relevanceMessages as m } from './messages.js';

export type { Severity } from './analysis-results.js';

/** One analysis checks at most this many pages (fetching is the slow, paid part). */
export const MAX_RELEVANCE_URLS = 100;

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

export const LandingUrlSchema = v.pipe(text(m.urlInvalid), v.trim(), v.maxLength(2000, m.urlInvalid), v.check(isHttpUrl, m.urlInvalid));

/** POST /projects/:id/page-relevance. Without `urls`: every landing page of the project's ads (first 100). */
export const StartRelevanceSchema = v.object({
  urls: v.optional(v.pipe(v.array(LandingUrlSchema, m.urlsRequired), v.minLength(1, m.urlsRequired), v.maxLength(MAX_RELEVANCE_URLS, m.urlsTooMany))),
  idempotency_key: v.pipe(text(m.idempotencyKeyInvalid), v.trim(), v.minLength(1, m.idempotencyKeyInvalid), v.maxLength(200, m.idempotencyKeyInvalid)),
});
export type StartRelevanceRequest = v.InferInput<typeof StartRelevanceSchema>;

export const relevanceStatuses = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type RelevanceStatus = (typeof relevanceStatuses)[number];

export const relevanceStatusLabels: Record<RelevanceStatus, string> = {
  queued: 'В очереди',
  running: 'Выполняется',
  completed: 'Готово',
  failed: 'Ошибка',
  cancelled: 'Отменён',
};

export type RelevanceStage = 'queued' | 'fetching' | 'analyzing' | 'done';
export const relevanceStageLabels: Record<RelevanceStage, string> = {
  queued: 'Ожидает запуска',
  fetching: 'Загружаем страницы',
  analyzing: 'Сравниваем страницы с ключевыми фразами и объявлениями',
  done: 'Готово',
};

/** A landing page of the project's ads, for the "new analysis" screen. */
export interface LandingUrl {
  url: string;
  campaigns: number;
  groups: number;
  keywords: number;
  ads: number;
}

export interface LandingUrlsResponse {
  urls: LandingUrl[];
  /** Tokens per checked page (the pricing table). */
  price_per_page: number;
  balance: number;
}

// ------------------------------------------------------------------------------------ engine output

export type RelevanceIssueCode =
  | 'fetch_failed'
  | 'http_error'
  | 'not_html'
  | 'redirect_other_host'
  | 'utm_lost'
  | 'no_utm'
  | 'noindex'
  | 'no_title'
  | 'no_h1'
  | 'thin_content'
  | 'keywords_not_in_headings'
  | 'low_keyword_coverage'
  | 'ad_promise_missing'
  | 'slow'
  | 'too_heavy'
  | 'canonical_other_host';

export interface RelevanceIssue {
  code: RelevanceIssueCode;
  severity: Severity;
  /** What is wrong, one line. */
  title: string;
  /** Why it costs money. */
  explanation: string;
  /** What to do. */
  fix: string;
}

/** How well one ad group's keywords are covered by the page it leads to. */
export interface GroupCoverage {
  campaign: string;
  group: string;
  keywords: number;
  /** Distinct significant keyword lemmas of the group. */
  lemmas: number;
  /** Share (0–1) of those lemmas found anywhere on the page (title, headings, description, text). */
  coverage: number;
  /** Share (0–1) found in the title or an h1. */
  headingCoverage: number;
  /** Lemmas not found on the page. */
  missing: string[];
}

export interface PageRelevance {
  url: string;
  finalUrl: string | null;
  /** HTTP status of the final answer; null when no answer came. */
  status: number | null;
  contentType: string | null;
  /** Milliseconds until the whole page was read (redirects included). */
  timingMs: number | null;
  redirects: string[];
  /** Why the page could not be read, in Russian. */
  error: string | null;
  title: string | null;
  metaDescription: string | null;
  h1: string[];
  h2: string[];
  wordCount: number;
  noindex: boolean;
  canonical: string | null;
  /** 0–100; 0 when the page could not be read. */
  score: number;
  /** Average group coverage (0–1). */
  coverage: number;
  headingCoverage: number;
  adPromise: { words: number; coverage: number; missing: string[] };
  groups: GroupCoverage[];
  ads: number;
  /** Spend of the ads leading here, when statistics were imported. */
  cost: number;
  clicks: number;
  issues: RelevanceIssue[];
}

export interface RelevanceSummary {
  pages: number;
  /** Pages that answered 2xx with HTML. */
  reachable: number;
  averageScore: number | null;
  /** Pages scoring below 50. */
  weakPages: number;
  issuesBySeverity: Record<Severity, number>;
  /** Spend of the ads leading to weak or unreachable pages. */
  costOnWeakPages: number;
  topIssues: { code: RelevanceIssueCode; title: string; pages: number }[];
}

export interface RelevanceResult {
  pages: PageRelevance[];
  summary: RelevanceSummary;
}

// ------------------------------------------------------------------------------------ API answers

export interface RelevanceAnalysis {
  id: string;
  project_id: string;
  status: RelevanceStatus;
  stage: RelevanceStage;
  progress: number;
  progress_detail: { done: number; total: number } | null;
  pages_count: number;
  cost: number;
  score: number | null;
  summary: RelevanceSummary | null;
  error: string | null;
  author: { id: string; full_name: string } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface RelevanceList {
  items: RelevanceAnalysis[];
  total: number;
  page: number;
  page_size: number;
}

export interface RelevanceResults {
  analysis: RelevanceAnalysis;
  result: RelevanceResult;
}

export const isFinished = (status: RelevanceStatus) => status === 'completed' || status === 'failed' || status === 'cancelled';

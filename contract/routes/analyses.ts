/**
 * /api/v1: audits of a project (start once per idempotency key, history, state, live progress, cancel),
 * their paged results (findings, a finding's items, suggestions with decisions, semantic sections,
 * scores), the decisions on suggestions (PUT the whole choice, PATCH some, POST a filter's worth) and the
 * export of the accepted changes. The read-only admin area serves the same result pages of any
 * organization under /api/v1/admin (`adminAnalysisResultRoutes`, the same handlers).
 */
import * as v from 'valibot';
import {
  BulkDecisionResponseSchema,
  BulkDecisionSchema,
  DecisionChangesResponseSchema,
  DecisionChangesSchema,
  FindingItemsPageSchema,
  FindingParamsSchema,
  FindingsPageSchema,
  FindingsQuerySchema,
  PagedResultsSchema,
  ResultsPageQuerySchema,
  ScoresPageSchema,
  ScoresQuerySchema,
  SemanticPageSchema,
  SemanticParamsSchema,
  SuggestionsPageSchema,
  SuggestionsQuerySchema,
} from '../analysis-pages.js';
import {
  AnalysisHistoryPageSchema,
  AnalysisHistoryQuerySchema,
  AnalysisParamsSchema,
  AnalysisResponseSchema,
  DecisionsResponseSchema,
  DecisionsSchema,
  ExportQuerySchema,
  InsufficientTokensBodySchema,
  StartAnalysisSchema,
} from '../analysis.js';
import { ErrorBodySchema, IdParamsSchema } from '../common.js';
import { defineRoute, progressEventStream } from './route.js';

const tags = ['analysis'];
const errors = { 401: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema };
/** The results of an analysis that is not completed (yet) are a 409. */
const resultErrors = { ...errors, 409: ErrorBodySchema };

/**
 * A 200 that is not JSON (an event stream, a file): documented by its description, sent by the handler
 * itself and read by the client's stream or download mode, so it types nothing.
 */
const notJson = (description: string) => v.pipe(v.unknown(), v.description(description));

/** The result pages, under the user API (`/api/v1`, the caller's organization) or the admin area (any organization). */
function resultRoutesUnder(base: '/api/v1' | '/api/v1/admin', routeTags: string[], who: string) {
  return {
    results: defineRoute({
      method: 'GET',
      path: `${base}/analyses/:id/results`,
      params: AnalysisParamsSchema,
      response: { 200: PagedResultsSchema, ...resultErrors },
      tags: routeTags,
      summary: `Results of a completed analysis${who}: {analysis, summary (< 100 KB), findings (first page by money), decisions (counts)}`,
      auth: true,
      ...(base === '/api/v1/admin' ? { access: 'platform-admin' as const } : {}),
    }),
    findings: defineRoute({
      method: 'GET',
      path: `${base}/analyses/:id/findings`,
      params: AnalysisParamsSchema,
      query: FindingsQuerySchema,
      response: { 200: FindingsPageSchema, ...resultErrors },
      tags: routeTags,
      summary: `Findings${who}, paged (page_size ≤ 500), filtered by severity, check, campaign, group, text; by money or severity`,
      auth: true,
      ...(base === '/api/v1/admin' ? { access: 'platform-admin' as const } : {}),
    }),
    findingItems: defineRoute({
      method: 'GET',
      path: `${base}/analyses/:id/findings/:findingId/items`,
      params: FindingParamsSchema,
      query: ResultsPageQuerySchema,
      response: { 200: FindingItemsPageSchema, ...resultErrors },
      tags: routeTags,
      summary: `Every entity of an aggregated finding${who}, worst first, paged`,
      auth: true,
      ...(base === '/api/v1/admin' ? { access: 'platform-admin' as const } : {}),
    }),
    suggestions: defineRoute({
      method: 'GET',
      path: `${base}/analyses/:id/suggestions`,
      params: AnalysisParamsSchema,
      query: SuggestionsQuerySchema,
      response: { 200: SuggestionsPageSchema, ...resultErrors },
      tags: routeTags,
      summary: `Suggestions with their decisions${who}, by money, filtered by kind, category, status, campaign, group, decision, text`,
      auth: true,
      ...(base === '/api/v1/admin' ? { access: 'platform-admin' as const } : {}),
    }),
    semantic: defineRoute({
      method: 'GET',
      path: `${base}/analyses/:id/semantic/:section`,
      params: SemanticParamsSchema,
      query: ResultsPageQuerySchema,
      response: { 200: SemanticPageSchema, ...resultErrors },
      tags: routeTags,
      summary: `A semantic section${who} (clusters, duplicates, intersections, relevance, collect_data, dropped_negatives, keyword_verdicts), paged`,
      auth: true,
      ...(base === '/api/v1/admin' ? { access: 'platform-admin' as const } : {}),
    }),
    scores: defineRoute({
      method: 'GET',
      path: `${base}/analyses/:id/scores`,
      params: AnalysisParamsSchema,
      query: ScoresQuerySchema,
      response: { 200: ScoresPageSchema, ...resultErrors },
      tags: routeTags,
      summary: `Scores of campaigns, groups, ads or keywords${who}, worst first or by money, paged; an ad or keyword with nothing found on it (score 100, no money) is not listed`,
      auth: true,
      ...(base === '/api/v1/admin' ? { access: 'platform-admin' as const } : {}),
    }),
  };
}

export const analysisRoutes = {
  start: defineRoute({
    method: 'POST',
    path: '/api/v1/projects/:id/analyses',
    params: IdParamsSchema,
    body: StartAnalysisSchema,
    response: { 201: AnalysisResponseSchema, 200: AnalysisResponseSchema, 402: InsufficientTokensBodySchema, 403: ErrorBodySchema, 409: ErrorBodySchema, 503: ErrorBodySchema, ...errors },
    tags,
    summary: 'Start an analysis of chosen campaigns: charges the price of /tokens/calculate-cost (kinds scoring+semantic) once per idempotency_key; 201 new, 200 same key',
    auth: true,
    verifiedEmail: true,
  }),
  history: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/:id/analyses',
    params: IdParamsSchema,
    query: AnalysisHistoryQuerySchema,
    response: { 200: AnalysisHistoryPageSchema, ...errors },
    tags,
    summary: 'Analyses of a project, newest first; filter by status and by author',
    auth: true,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/analyses/:id',
    params: AnalysisParamsSchema,
    response: { 200: AnalysisResponseSchema, ...errors },
    tags,
    summary: 'An analysis: status, stage, progress, score, summary',
    auth: true,
  }),
  events: defineRoute({
    method: 'GET',
    path: '/api/v1/analyses/:id/events',
    params: AnalysisParamsSchema,
    response: {
      200: progressEventStream('{analysis}'),
      ...errors,
    },
    tags,
    summary: 'Server-Sent Events: `progress` {analysis} on connect and on every change, then `done` {analysis} and the stream ends',
    auth: true,
  }),
  cancel: defineRoute({
    method: 'POST',
    path: '/api/v1/analyses/:id/cancel',
    params: AnalysisParamsSchema,
    response: { 200: AnalysisResponseSchema, 403: ErrorBodySchema, 409: ErrorBodySchema, ...errors },
    tags,
    summary: 'Cancel a queued or running analysis; its tokens are refunded',
    auth: true,
  }),
  ...resultRoutesUnder('/api/v1', tags, ''),
  replaceDecisions: defineRoute({
    method: 'PUT',
    path: '/api/v1/analyses/:id/decisions',
    params: AnalysisParamsSchema,
    body: DecisionsSchema,
    response: { 200: DecisionsResponseSchema, ...resultErrors },
    tags,
    summary: 'Accept or reject suggestions (replaces the previous choice)',
    auth: true,
  }),
  changeDecisions: defineRoute({
    method: 'PATCH',
    path: '/api/v1/analyses/:id/decisions',
    params: AnalysisParamsSchema,
    body: DecisionChangesSchema,
    response: { 200: DecisionChangesResponseSchema, ...resultErrors },
    tags,
    summary: 'Change the decisions of 1–500 suggestions (accepted, rejected, undecided; value for an accepted ad fix); the rest stay. Answers the totals',
    auth: true,
  }),
  bulkDecisions: defineRoute({
    method: 'POST',
    path: '/api/v1/analyses/:id/decisions/bulk',
    params: AnalysisParamsSchema,
    body: BulkDecisionSchema,
    response: { 200: BulkDecisionResponseSchema, ...resultErrors },
    tags,
    summary: 'Accept, reject or clear every suggestion a filter selects (one statement, any number, idempotent)',
    auth: true,
  }),
  export: defineRoute({
    method: 'GET',
    path: '/api/v1/analyses/:id/export',
    params: AnalysisParamsSchema,
    query: ExportQuerySchema,
    response: {
      200: notJson(
        'The file (CSV or XLSX; for Direct XLSX one campaign per file, a ZIP of them for several campaigns) as an attachment, its name in content-disposition; x-export-notes: what the file leaves for a person (a percent-encoded JSON list of Russian lines)',
      ),
      ...resultErrors,
    },
    tags,
    summary: 'Download the accepted changes as a bulk-upload file (Yandex Direct CSV/XLSX, Google Ads Editor CSV)',
    auth: true,
  }),
};

/** The same result pages of any organization's analysis, read-only, in the admin area. */
export const adminAnalysisResultRoutes = resultRoutesUnder('/api/v1/admin', ['admin'], ' of any organization');
/** Either table of result pages (the server registers the same handlers for both). */
export type AnalysisResultRoutes = ReturnType<typeof resultRoutesUnder>;

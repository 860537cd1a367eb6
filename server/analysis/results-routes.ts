/**
 * The paged results API (src/contract/analysis-pages.ts): the results summary with the first findings,
 * findings and their items, suggestions with their decisions, semantic sections and scores, page by
 * page from the row tables. One plugin for the user routes (the caller's organization; another
 * organization's analysis is 404) and the admin area (any organization, read-only).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  BulkDecisionResponseSchema,
  BulkDecisionSchema,
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
} from '../../src/contract/analysis-pages.js';
import { AnalysisParamsSchema } from '../../src/contract/analysis.js';
import { ErrorBodySchema } from '../../src/contract/common.js';
import { callerOf } from '../auth/authenticate.js';
import { routeSchema, type Req, type RouteContract } from '../lib/schema.js';
import { bulkDecide, findCompletedAnalysis, findingItemsPage, findingsPage, pagedResults, scoresPage, semanticPage, storedReport, suggestionsPage } from './results-pages.js';

const errors = { 401: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema };

export function resultRouteContracts(tags: string[], who: string) {
  return {
    results: {
      params: AnalysisParamsSchema,
      response: { 200: PagedResultsSchema, ...errors },
      tags,
      summary: `Results of a completed analysis${who}: {analysis, summary (< 100 KB), findings (first page by money), decisions (counts)}`,
      auth: true,
    },
    findings: {
      params: AnalysisParamsSchema,
      querystring: FindingsQuerySchema,
      response: { 200: FindingsPageSchema, ...errors },
      tags,
      summary: `Findings${who}, paged (page_size ≤ 500), filtered by severity, check, campaign, group, text; by money or severity`,
      auth: true,
    },
    findingItems: {
      params: FindingParamsSchema,
      querystring: ResultsPageQuerySchema,
      response: { 200: FindingItemsPageSchema, ...errors },
      tags,
      summary: `Every entity of an aggregated finding${who}, worst first, paged`,
      auth: true,
    },
    suggestions: {
      params: AnalysisParamsSchema,
      querystring: SuggestionsQuerySchema,
      response: { 200: SuggestionsPageSchema, ...errors },
      tags,
      summary: `Suggestions with their decisions${who}, by money, filtered by kind, category, status, campaign, group, decision, text`,
      auth: true,
    },
    semantic: {
      params: SemanticParamsSchema,
      querystring: ResultsPageQuerySchema,
      response: { 200: SemanticPageSchema, ...errors },
      tags,
      summary: `A semantic section${who} (clusters, duplicates, intersections, relevance, collect_data, dropped_negatives, keyword_verdicts), paged`,
      auth: true,
    },
    scores: {
      params: AnalysisParamsSchema,
      querystring: ScoresQuerySchema,
      response: { 200: ScoresPageSchema, ...errors },
      tags,
      summary: `Scores of campaigns, groups, ads or keywords${who}, worst first or by money, paged; an ad or keyword with nothing found on it (score 100, no money) is not listed`,
      auth: true,
    },
  } satisfies Record<string, RouteContract>;
}

const bulk = {
  params: AnalysisParamsSchema,
  body: BulkDecisionSchema,
  response: { 200: BulkDecisionResponseSchema, ...errors },
  tags: ['analysis'],
  summary: 'Accept, reject or clear every suggestion a filter selects (one statement, any number, idempotent)',
  auth: true,
} satisfies RouteContract;

export interface ResultRoutesOptions {
  tags: string[];
  /** The organization an analysis must belong to (`null`: any, the admin area). */
  organizationOf: (request: FastifyRequest) => string | null;
  /** Register POST /decisions/bulk (user routes only). */
  decisions: boolean;
  /** Added to each summary, e.g. « of any organization». */
  who?: string;
}

export const resultRoutes: FastifyPluginAsync<ResultRoutesOptions> = async (app, options) => {
  const c = resultRouteContracts(options.tags, options.who ?? '');
  const analysisOf = async (request: FastifyRequest<{ Params: { id: string } }>) => (await findCompletedAnalysis(app.db, options.organizationOf(request), request.params.id)).id;

  app.get<Req<typeof c.results>>('/analyses/:id/results', { schema: routeSchema(c.results) }, async (request) =>
    pagedResults(app.db, options.organizationOf(request), request.params.id),
  );

  app.get<Req<typeof c.findings>>('/analyses/:id/findings', { schema: routeSchema(c.findings) }, async (request) =>
    findingsPage(app.db, await analysisOf(request), request.query),
  );

  app.get<Req<typeof c.findingItems>>('/analyses/:id/findings/:findingId/items', { schema: routeSchema(c.findingItems) }, async (request) =>
    findingItemsPage(app.db, await analysisOf(request), request.params.findingId, request.query),
  );

  app.get<Req<typeof c.suggestions>>('/analyses/:id/suggestions', { schema: routeSchema(c.suggestions) }, async (request) =>
    suggestionsPage(app.db, await analysisOf(request), request.query),
  );

  app.get<Req<typeof c.semantic>>('/analyses/:id/semantic/:section', { schema: routeSchema(c.semantic) }, async (request) =>
    semanticPage(app.db, await analysisOf(request), request.params.section, request.query),
  );

  app.get<Req<typeof c.scores>>('/analyses/:id/scores', { schema: routeSchema(c.scores) }, async (request) =>
    scoresPage(app.db, await analysisOf(request), request.query),
  );

  if (options.decisions) {
    app.post<Req<typeof bulk>>('/analyses/:id/decisions/bulk', { schema: routeSchema(bulk) }, async (request) => {
      const analysisId = await analysisOf(request);
      return bulkDecide(app.db, analysisId, callerOf(request).userId, request.body.filter, request.body.decision, await storedReport(app.db, analysisId));
    });
  }
};

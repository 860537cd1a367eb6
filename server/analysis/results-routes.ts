/**
 * The paged results API (contract/analysis-pages.ts): the results summary with the first findings,
 * findings and their items, suggestions with their decisions, semantic sections and scores, page by
 * page from the row tables. One plugin for the user routes (the caller's organization; another
 * organization's analysis is 404) and the admin area (any organization, read-only): each registers the
 * same handlers under its own route table entries (contract/routes/analyses.ts).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AnalysisResultRoutes, analysisRoutes } from '../../contract/routes/analyses.js';
import { callerOf } from '../auth/authenticate.js';
import { addRoute } from '../lib/routes.js';
import { bulkDecide, findCompletedAnalysis, findingItemsPage, findingsPage, pagedResults, scoresPage, semanticPage, storedReport, suggestionsPage } from './results-pages.js';

export interface ResultRoutesOptions {
  /** The table entries to serve: the user's (`analysisRoutes`) or the admin area's (`adminAnalysisResultRoutes`). */
  routes: AnalysisResultRoutes;
  /** POST /decisions/bulk: the user's only (the admin area is read-only). */
  bulkDecisions?: typeof analysisRoutes.bulkDecisions;
  /** The organization an analysis must belong to (`null`: any, the admin area). */
  organizationOf: (request: FastifyRequest) => string | null;
}

export const resultRoutes: FastifyPluginAsync<ResultRoutesOptions> = async (app, { routes, organizationOf, bulkDecisions }) => {
  const analysisOf = async (request: FastifyRequest<{ Params: { id: string } }>) => (await findCompletedAnalysis(app.db, organizationOf(request), request.params.id)).id;

  addRoute(app, routes.results, async (request) => pagedResults(app.db, organizationOf(request), request.params.id));

  addRoute(app, routes.findings, async (request) => findingsPage(app.db, await analysisOf(request), request.query));

  addRoute(app, routes.findingItems, async (request) => findingItemsPage(app.db, await analysisOf(request), request.params.findingId, request.query));

  addRoute(app, routes.suggestions, async (request) => suggestionsPage(app.db, await analysisOf(request), request.query));

  addRoute(app, routes.semantic, async (request) => semanticPage(app.db, await analysisOf(request), request.params.section, request.query));

  addRoute(app, routes.scores, async (request) => scoresPage(app.db, await analysisOf(request), request.query));

  if (bulkDecisions) {
    addRoute(app, bulkDecisions, async (request) => {
      const analysisId = await analysisOf(request);
      return bulkDecide(app.db, analysisId, callerOf(request).userId, request.body.filter, request.body.decision, await storedReport(app.db, analysisId));
    });
  }
};

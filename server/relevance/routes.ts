/**
 * /api/v1: landing-page relevance runs of the caller's organization. Starting one charges tokens once
 * per idempotency key and enqueues the run in the same transaction; the screens poll the run's state.
 * A run (or project) of another organization is 404.
 */
import type { FastifyPluginAsync } from 'fastify';
import { relevanceRoutes as routes } from '../../contract/routes/relevance.js';
import { callerOf } from '../auth/authenticate.js';
import { addRoute } from '../lib/routes.js';
import { cancelRelevance, getRelevance, getRelevanceResults, listLandingUrls, listRelevance, startRelevance } from './service.js';

export const relevanceRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.urls, async (request) => listLandingUrls(app.db, callerOf(request), request.params.id));

  addRoute(app, routes.start, async (request, reply) => {
    const { analysis, created } = await startRelevance(app.db, app.jobs, callerOf(request), request.params.id, request.body);
    reply.status(created ? 201 : 200);
    return { analysis };
  });

  addRoute(app, routes.list, async (request) => listRelevance(app.db, callerOf(request), request.params.id, request.query.page, request.query.page_size));

  addRoute(app, routes.get, async (request) => ({ analysis: await getRelevance(app.db, callerOf(request), request.params.id) }));

  addRoute(app, routes.results, async (request) => getRelevanceResults(app.db, callerOf(request), request.params.id));

  addRoute(app, routes.cancel, async (request) => ({ analysis: await cancelRelevance(app.db, app.jobs, callerOf(request), request.params.id) }));
};

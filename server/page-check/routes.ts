/**
 * /api/v1: page checks of the caller's organization. Starting one charges tokens once
 * per idempotency key and enqueues the run in the same transaction; its progress is streamed at
 * `/page-checks/:id/events` (server/lib/progress-stream.ts).
 * A run (or project) of another organization is 404.
 */
import type { FastifyPluginAsync } from 'fastify';
import { isFinished } from '../../contract/page-check.js';
import { pageCheckRoutes as routes } from '../../contract/routes/page-check.js';
import { callerOf } from '../auth/authenticate.js';
import { streamProgress } from '../lib/progress-stream.js';
import { addRoute } from '../lib/routes.js';
import { pageCheckRun } from './lifecycle.js';
import { cancelPageCheck, getPageCheck, getPageCheckResults, listLandingUrls, listPageChecks, startPageCheck } from './service.js';

export const pageCheckRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.urls, async (request) => listLandingUrls(app.db, callerOf(request), request.params.id));

  addRoute(app, routes.start, async (request, reply) => {
    const { analysis, created } = await startPageCheck(app.db, app.jobs, callerOf(request), request.params.id, request.body);
    reply.status(created ? 201 : 200);
    return { analysis };
  });

  addRoute(app, routes.list, async (request) => listPageChecks(app.db, callerOf(request), request.params.id, request.query.page, request.query.page_size));

  addRoute(app, routes.get, async (request) => ({ analysis: await getPageCheck(app.db, callerOf(request), request.params.id) }));

  addRoute(app, routes.events, async (request, reply) => {
    const caller = callerOf(request);
    const read = async () => ({ analysis: await getPageCheck(app.db, caller, request.params.id) });
    // 404 as an ordinary JSON answer, before the stream starts.
    await read();
    await streamProgress(app.progressHub, request, reply, { channel: pageCheckRun.channel, id: request.params.id, read, finished: ({ analysis }) => isFinished(analysis.status) });
  });

  addRoute(app, routes.results, async (request) => getPageCheckResults(app.db, callerOf(request), request.params.id));

  addRoute(app, routes.cancel, async (request) => ({ analysis: await cancelPageCheck(app.db, app.jobs, callerOf(request), request.params.id) }));
};

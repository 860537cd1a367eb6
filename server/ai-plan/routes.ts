/**
 * /api/v1: AI plans of the caller's organization. Starting one charges the `aiPlan` price once per
 * idempotency key and enqueues the run in the same transaction; its progress is streamed at
 * `/ai-plans/:id/events` (server/lib/progress-stream.ts). Without a configured model (LLM_API_URL) starting answers 503. An audit or a plan of another
 * organization is 404.
 */
import type { FastifyPluginAsync } from 'fastify';
import { isAiPlanFinished } from '../../contract/ai-plan.js';
import { aiPlanRoutes as routes } from '../../contract/routes/ai-plan.js';
import { callerOf } from '../auth/authenticate.js';
import { streamProgress } from '../lib/progress-stream.js';
import { addRoute } from '../lib/routes.js';
import { AI_PLAN_CHANNEL } from './lifecycle.js';
import { aiPlanOverview, getAiPlan, startAiPlan } from './service.js';

export const aiPlanRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.start, async (request, reply) => {
    const { aiPlan, created } = await startAiPlan(app.db, app.jobs, app.config.llm, callerOf(request), request.params.id, request.body);
    reply.status(created ? 201 : 200);
    return { ai_plan: aiPlan };
  });

  addRoute(app, routes.overview, async (request) => aiPlanOverview(app.db, app.config.llm, app.jobs, callerOf(request), request.params.id));

  addRoute(app, routes.get, async (request) => ({
    ai_plan: await getAiPlan(app.db, app.config.llm, callerOf(request), request.params.id),
  }));

  addRoute(app, routes.events, async (request, reply) => {
    const caller = callerOf(request);
    const read = async () => ({ ai_plan: await getAiPlan(app.db, app.config.llm, caller, request.params.id) });
    // 404 as an ordinary JSON answer, before the stream starts.
    await read();
    await streamProgress(app.progressHub, request, reply, { channel: AI_PLAN_CHANNEL, id: request.params.id, read, finished: ({ ai_plan }) => isAiPlanFinished(ai_plan.status) });
  });
};

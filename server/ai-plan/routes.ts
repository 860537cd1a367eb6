/**
 * /api/v1: AI plans of the caller's organization. Starting one charges the `aiPlan` price once per
 * idempotency key and enqueues the run in the same transaction; the screen polls the plan until it is
 * finished. Without a configured model (LLM_API_URL) starting answers 503. An audit or a plan of another
 * organization is 404.
 */
import type { FastifyPluginAsync } from 'fastify';
import { aiPlanRoutes as routes } from '../../contract/routes/ai-plan.js';
import { callerOf } from '../auth/authenticate.js';
import { addRoute } from '../lib/routes.js';
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
};

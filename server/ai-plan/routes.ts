/**
 * /api/v1: AI plans of the caller's organization. Starting one charges the `aiPlan` price once per
 * idempotency key and enqueues the run in the same transaction; the screen polls the plan until it is
 * finished. Without a configured model (LLM_API_URL) starting answers 503. An audit or a plan of another
 * organization is 404.
 */
import type { FastifyPluginAsync } from 'fastify';
import { AiPlanOverviewSchema, AiPlanResponseSchema, StartAiPlanSchema } from '../../src/contract/ai-plan.js';
import { ErrorBodySchema, IdParamsSchema } from '../../src/contract/common.js';
import { callerOf } from '../auth/authenticate.js';
import { routeSchema, type Req, type RouteContract } from '../lib/schema.js';
import { aiPlanOverview, getAiPlan, startAiPlan } from './service.js';

const tags = ['ai-plan'];
const errors = { 401: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema };

const start = {
  params: IdParamsSchema,
  body: StartAiPlanSchema,
  response: { 201: AiPlanResponseSchema, 200: AiPlanResponseSchema, 402: ErrorBodySchema, 409: ErrorBodySchema, 503: ErrorBodySchema, ...errors },
  tags,
  summary: 'Ask the language model for an action plan of a completed audit: charges the aiPlan price once per idempotency_key; 201 new, 200 same key; 503 when no model is configured',
  auth: true,
} satisfies RouteContract;
const overview = {
  params: IdParamsSchema,
  response: { 200: AiPlanOverviewSchema, ...errors },
  tags,
  summary: "Whether an AI plan can be asked for (a model is configured), its price, the caller's balance and the audit's AI plans, newest first",
  auth: true,
} satisfies RouteContract;
const getOne = {
  params: IdParamsSchema,
  response: { 200: AiPlanResponseSchema, ...errors },
  tags,
  summary: 'An AI plan: status, model, prompt size, tokens spent, error, and the plan once completed',
  auth: true,
} satisfies RouteContract;

export const aiPlanRoutes: FastifyPluginAsync = async (app) => {
  app.post<Req<typeof start>>('/analyses/:id/ai-plans', { schema: routeSchema(start) }, async (request, reply) => {
    const { aiPlan, created } = await startAiPlan(app.db, app.jobs, app.config.llm, callerOf(request), request.params.id, request.body);
    return reply.status(created ? 201 : 200).send({ ai_plan: aiPlan });
  });

  app.get<Req<typeof overview>>('/analyses/:id/ai-plans', { schema: routeSchema(overview) }, async (request) =>
    aiPlanOverview(app.db, app.config.llm, app.jobs, callerOf(request), request.params.id),
  );

  app.get<Req<typeof getOne>>('/ai-plans/:id', { schema: routeSchema(getOne) }, async (request) => ({
    ai_plan: await getAiPlan(app.db, app.config.llm, callerOf(request), request.params.id),
  }));
};

/** /api/v1: AI plans of an audit (start once per idempotency key, overview, one plan). */
import { AiPlanOverviewSchema, AiPlanResponseSchema, StartAiPlanSchema } from '../ai-plan.js';
import { ErrorBodySchema, IdParamsSchema } from '../common.js';
import { defineRoute, progressEventStream } from './route.js';

const tags = ['ai-plan'];
const errors = { 401: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema };

export const aiPlanRoutes = {
  start: defineRoute({
    method: 'POST',
    path: '/api/v1/analyses/:id/ai-plans',
    params: IdParamsSchema,
    body: StartAiPlanSchema,
    response: { 201: AiPlanResponseSchema, 200: AiPlanResponseSchema, 402: ErrorBodySchema, 403: ErrorBodySchema, 409: ErrorBodySchema, 503: ErrorBodySchema, ...errors },
    tags,
    summary: 'Ask the language model for an action plan of a completed audit: charges the aiPlan price once per idempotency_key; 201 new, 200 same key; 503 when no model is configured',
    auth: true,
    verifiedEmail: true,
  }),
  overview: defineRoute({
    method: 'GET',
    path: '/api/v1/analyses/:id/ai-plans',
    params: IdParamsSchema,
    response: { 200: AiPlanOverviewSchema, ...errors },
    tags,
    summary: "Whether an AI plan can be asked for (a model is configured), its price, the caller's balance and the audit's AI plans, newest first",
    auth: true,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/ai-plans/:id',
    params: IdParamsSchema,
    response: { 200: AiPlanResponseSchema, ...errors },
    tags,
    summary: 'An AI plan: status, model, prompt size, tokens spent, error, and the plan once completed',
    auth: true,
  }),
  events: defineRoute({
    method: 'GET',
    path: '/api/v1/ai-plans/:id/events',
    params: IdParamsSchema,
    response: { 200: progressEventStream('{ai_plan}'), ...errors },
    tags,
    summary: 'Server-Sent Events: `progress` {ai_plan} (as the GET of the plan) on connect and on every change, then `done` and the stream ends',
    auth: true,
  }),
};

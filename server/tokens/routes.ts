import type { FastifyPluginAsync } from 'fastify';
import { ErrorBodySchema } from '../../src/contract/common.js';
import { AdminCreditResponseSchema, AdminCreditSchema, BalanceSchema, CalculateCostSchema, CostResponseSchema, HistoryPageSchema, HistoryQuerySchema } from '../../src/contract/tokens.js';
import { callerOf } from '../auth/authenticate.js';
import { routeSchema, type Req, type RouteContract } from '../lib/schema.js';
import { getBalance } from './ledger.js';
import { calculateCost, creditTokens, listHistory } from './service.js';

const balance = {
  response: { 200: BalanceSchema, 401: ErrorBodySchema },
  tags: ['tokens'],
  summary: "The caller's token balance",
  auth: true,
} satisfies RouteContract;

const history = {
  querystring: HistoryQuerySchema,
  response: { 200: HistoryPageSchema, 422: ErrorBodySchema },
  tags: ['tokens'],
  summary: "The caller's ledger, newest first; filters: type, from, to (ISO date or timestamp)",
  auth: true,
} satisfies RouteContract;

const cost = {
  body: CalculateCostSchema,
  response: { 200: CostResponseSchema, 422: ErrorBodySchema },
  tags: ['tokens'],
  summary: 'Price of analysing these campaigns (the amount the analysis start charges; without analysis_kinds: scoring + semantic, as a start)',
  auth: true,
} satisfies RouteContract;

const adminCredit = {
  body: AdminCreditSchema,
  response: { 200: AdminCreditResponseSchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema },
  tags: ['tokens', 'admin'],
  summary: 'Credit tokens to a user (platform admin; audit-logged; idempotent with idempotency_key)',
  auth: true,
} satisfies RouteContract;

export const tokenRoutes: FastifyPluginAsync = async (app) => {
  app.get('/balance', { schema: routeSchema(balance) }, async (request) => ({
    balance: await getBalance(app.db, callerOf(request).userId),
  }));

  app.get<Req<typeof history>>('/history', { schema: routeSchema(history) }, async (request) => {
    const query = request.query;
    return listHistory(app.db, callerOf(request).userId, { page: query.page, pageSize: query.page_size, type: query.type, from: query.from, to: query.to });
  });

  app.post<Req<typeof cost>>('/calculate-cost', { schema: routeSchema(cost) }, async (request) =>
    calculateCost(app.db, callerOf(request).userId, request.body.campaigns, request.body.analysis_kinds),
  );

  app.post<Req<typeof adminCredit>>('/admin/credit', { schema: routeSchema(adminCredit), preValidation: [app.requirePlatformAdmin] }, async (request) => {
    const body = request.body;
    const { balance: newBalance, entry } = await creditTokens(app.db, {
      actorUserId: callerOf(request).userId,
      recipient: body.user_id ? { userId: body.user_id } : { email: body.email! },
      amount: body.amount,
      reason: body.reason,
      idempotencyKey: body.idempotency_key,
      source: 'api',
    });
    return { balance: newBalance, entry };
  });
};

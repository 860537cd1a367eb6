/** /api/v1/tokens: the caller's balance and ledger, and the price of an analysis (the platform admin's credit is `adminRoutes.creditTokens`). */
import { ErrorBodySchema } from '../common.js';
import { BalanceSchema, CalculateCostSchema, CostResponseSchema, HistoryPageSchema, HistoryQuerySchema } from '../tokens.js';
import { defineRoute } from './route.js';

const tags = ['tokens'];

export const tokenRoutes = {
  balance: defineRoute({
    method: 'GET',
    path: '/api/v1/tokens/balance',
    response: { 200: BalanceSchema, 401: ErrorBodySchema },
    tags,
    summary: "The caller's token balance",
    auth: true,
  }),
  history: defineRoute({
    method: 'GET',
    path: '/api/v1/tokens/history',
    query: HistoryQuerySchema,
    response: { 200: HistoryPageSchema, 401: ErrorBodySchema, 422: ErrorBodySchema },
    tags,
    summary: "The caller's ledger, newest first; filters: type, from, to (ISO date or timestamp)",
    auth: true,
  }),
  calculateCost: defineRoute({
    method: 'POST',
    path: '/api/v1/tokens/calculate-cost',
    body: CalculateCostSchema,
    response: { 200: CostResponseSchema, 401: ErrorBodySchema, 422: ErrorBodySchema },
    tags,
    summary: 'Price of analysing these campaigns (the amount the analysis start charges; without analysis_kinds: scoring + semantic, as a start)',
    auth: true,
  }),
};

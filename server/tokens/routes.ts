import type { FastifyPluginAsync } from 'fastify';
import { tokenRoutes as routes } from '../../contract/routes/tokens.js';
import { callerOf } from '../auth/authenticate.js';
import { addRoute } from '../lib/routes.js';
import { getBalance } from './ledger.js';
import { calculateCost, listHistory } from './service.js';

/** Under /api/v1/tokens, beside the payments (server/payments/routes.ts). */
export const tokenRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.balance, async (request) => ({
    balance: await getBalance(app.db, callerOf(request).userId),
  }));

  addRoute(app, routes.history, async (request) => {
    const query = request.query;
    return listHistory(app.db, callerOf(request).userId, { page: query.page, pageSize: query.page_size, type: query.type, from: query.from, to: query.to });
  });

  addRoute(app, routes.calculateCost, async (request) => calculateCost(app.db, callerOf(request).userId, request.body.campaigns, request.body.analysis_kinds));
};

/**
 * /api/v1/admin: the platform administrator's area (users with role 'admin' only; everyone else 403).
 * Reads across every organization: the overview, any project with its analyses, any analysis and its
 * results; the operator's work: users (block/unblock), organizations (plan), failed and stuck runs
 * (cancel/retry), job queues, the audit log, the overview's charts and crediting tokens. Who may call
 * them is the contract's `access: 'platform-admin'` on every route, checked by the one onRoute hook.
 */
import type { FastifyPluginAsync } from 'fastify';
import { adminRoutes as routes } from '../../contract/routes/admin.js';
import { adminAnalysisResultRoutes } from '../../contract/routes/analyses.js';
import { resultRoutes } from '../analysis/results-routes.js';
import { listAnalyses } from '../analysis/service.js';
import { callerOf } from '../auth/authenticate.js';
import { addRoute } from '../lib/routes.js';
import { listAuditLog } from './audit.js';
import { changePlan, getAdminOrganization, listOrganizations } from './organizations.js';
import { queueCounts } from './queues.js';
import { cancelRun, listRuns, retryRun } from './runs.js';
import { adminAnalysis, adminFindProject, adminOverview, adminProjectDetail } from './service.js';
import { adminStats } from './stats.js';
import { blockUser, getAdminUser, listUsers, unblockUser } from './users.js';
import { creditTokens } from '../tokens/service.js';


export const adminRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.overview, async (request) => {
    const { page, page_size, search } = request.query;
    return adminOverview(app.db, { page, pageSize: page_size, search });
  });

  addRoute(app, routes.stats, async (request) => adminStats(app.db, request.query.days));

  addRoute(app, routes.users, async (request) => {
    const { page, page_size, search, blocked } = request.query;
    return listUsers(app.db, { page, pageSize: page_size, search, ...(blocked ? { blocked: blocked === 'true' } : {}) });
  });
  addRoute(app, routes.user, async (request) => getAdminUser(app.db, request.params.id));
  addRoute(app, routes.blockUser, async (request) => blockUser(app.db, callerOf(request).userId, request.params.id, request.body?.reason || undefined));
  addRoute(app, routes.unblockUser, async (request) => unblockUser(app.db, callerOf(request).userId, request.params.id));

  addRoute(app, routes.organizations, async (request) => {
    const { page, page_size, search } = request.query;
    return listOrganizations(app.db, { page, pageSize: page_size, search });
  });
  addRoute(app, routes.organization, async (request) => getAdminOrganization(app.db, request.params.id));
  addRoute(app, routes.changePlan, async (request) => changePlan(app.db, callerOf(request).userId, request.params.id, request.body.plan_type));

  const runDeps = () => ({ db: app.db, jobs: app.jobs, llm: app.config.llm });
  addRoute(app, routes.runs, async (request) => {
    const { page, page_size, state } = request.query;
    return listRuns(app.db, { state, page, pageSize: page_size });
  });
  addRoute(app, routes.cancelRun, async (request) => cancelRun(runDeps(), callerOf(request).userId, request.params.kind, request.params.id));
  addRoute(app, routes.retryRun, async (request) => retryRun(runDeps(), callerOf(request).userId, request.params.kind, request.params.id));

  addRoute(app, routes.queues, async () => queueCounts(app.db));
  addRoute(app, routes.auditLog, async (request) => {
    const { page, page_size, action } = request.query;
    return listAuditLog(app.db, { page, pageSize: page_size, action: action || undefined });
  });

  addRoute(app, routes.project, async (request) => adminProjectDetail(app.db, request.params.id));

  addRoute(app, routes.projectAnalyses, async (request) => {
    await adminFindProject(app.db, request.params.id);
    const { page, page_size, status } = request.query;
    return listAnalyses(app.db, { projectId: request.params.id, organizationId: null, page, pageSize: page_size, status });
  });

  addRoute(app, routes.analysis, async (request) => adminAnalysis(app.db, request.params.id));

  // The results of any organization's analysis, read-only: the same paged endpoints as the user's.
  await app.register(resultRoutes, { routes: adminAnalysisResultRoutes, organizationOf: () => null });

  addRoute(app, routes.creditTokens, async (request) => {
    const body = request.body;
    const { balance, entry } = await creditTokens(app.db, {
      actorUserId: callerOf(request).userId,
      recipient: body.user_id ? { userId: body.user_id } : { email: body.email! },
      amount: body.amount,
      reason: body.reason,
      idempotencyKey: body.idempotency_key,
      source: 'api',
    });
    return { balance, entry };
  });
};

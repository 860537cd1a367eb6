/**
 * /api/v1/admin: the platform administrator's area (users with role 'admin' only; everyone else 403).
 * Reads across every organization: the overview, any project with its analyses, any analysis and its
 * results; the operator's work: users (block/unblock), organizations (plan), failed and stuck runs
 * (cancel/retry), job queues, the audit log and the overview's charts. Crediting tokens is
 * `POST /api/v1/tokens/admin/credit` (server/tokens/routes.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import {
  AdminAnalysisResponseSchema,
  AdminAuditQuerySchema,
  AdminOrganizationDetailSchema,
  AdminOrganizationPageSchema,
  AdminOrganizationsQuerySchema,
  AdminOverviewQuerySchema,
  AdminOverviewSchema,
  AdminProjectDetailSchema,
  AdminQueuesSchema,
  AdminRetryResponseSchema,
  AdminRunPageSchema,
  AdminRunSchema,
  AdminRunsQuerySchema,
  AdminStatsQuerySchema,
  AdminStatsSchema,
  AdminUserPageSchema,
  AdminUserSchema,
  AdminUsersQuerySchema,
  AuditPageSchema,
  BlockUserSchema,
  ChangePlanSchema,
  RunParamsSchema,
} from '../../src/contract/admin.js';
import { AnalysisHistoryPageSchema, AnalysisHistoryQuerySchema, AnalysisParamsSchema } from '../../src/contract/analysis.js';
import { ErrorBodySchema, IdParamsSchema } from '../../src/contract/common.js';
import { resultRoutes } from '../analysis/results-routes.js';
import { listAnalyses } from '../analysis/service.js';
import { routeSchema, type Req, type RouteContract } from '../lib/schema.js';
import { callerOf } from '../auth/authenticate.js';
import { listAuditLog } from './audit.js';
import { changePlan, getAdminOrganization, listOrganizations } from './organizations.js';
import { queueCounts } from './queues.js';
import { cancelRun, listRuns, retryRun } from './runs.js';
import { adminAnalysis, adminFindProject, adminOverview, adminProjectDetail } from './service.js';
import { adminStats } from './stats.js';
import { blockUser, getAdminUser, listUsers, unblockUser } from './users.js';

const tags = ['admin'];
const errors = { 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema };

const overview = {
  querystring: AdminOverviewQuerySchema,
  response: { 200: AdminOverviewSchema, ...errors },
  tags,
  summary: 'Platform counts, the newest analyses and the projects of every organization (paged, search by name)',
  auth: true,
} satisfies RouteContract;
const project = { params: IdParamsSchema, response: { 200: AdminProjectDetailSchema, ...errors }, tags, summary: 'A project of any organization', auth: true } satisfies RouteContract;
const projectAnalyses = {
  params: IdParamsSchema,
  querystring: AnalysisHistoryQuerySchema,
  response: { 200: AnalysisHistoryPageSchema, ...errors },
  tags,
  summary: 'Analyses of a project of any organization',
  auth: true,
} satisfies RouteContract;
const stats = { querystring: AdminStatsQuerySchema, response: { 200: AdminStatsSchema, ...errors }, tags, summary: 'Sign-ups, tokens credited and spent per day, runs by kind and status (the overview charts)', auth: true } satisfies RouteContract;
const users = { querystring: AdminUsersQuerySchema, response: { 200: AdminUserPageSchema, ...errors }, tags, summary: 'Users of the platform: search by email or name, balance, organizations, last login', auth: true } satisfies RouteContract;
const user = { params: IdParamsSchema, response: { 200: AdminUserSchema, ...errors }, tags, summary: 'One user', auth: true } satisfies RouteContract;
const block = {
  params: IdParamsSchema,
  body: BlockUserSchema,
  response: { 200: AdminUserSchema, 409: ErrorBodySchema, ...errors },
  tags,
  summary: 'Block a user: no login or refresh, every session revoked (audit-logged; blocking twice changes nothing)',
  auth: true,
} satisfies RouteContract;
const unblock = { params: IdParamsSchema, response: { 200: AdminUserSchema, ...errors }, tags, summary: 'Unblock a user (audit-logged)', auth: true } satisfies RouteContract;
const organizations = { querystring: AdminOrganizationsQuerySchema, response: { 200: AdminOrganizationPageSchema, ...errors }, tags, summary: 'Organizations: plan, members, balances', auth: true } satisfies RouteContract;
const organization = { params: IdParamsSchema, response: { 200: AdminOrganizationDetailSchema, ...errors }, tags, summary: 'An organization with its members and their balances', auth: true } satisfies RouteContract;
const plan = { params: IdParamsSchema, body: ChangePlanSchema, response: { 200: AdminOrganizationDetailSchema, ...errors }, tags, summary: "Change an organization's plan (audit-logged)", auth: true } satisfies RouteContract;
const runs = { querystring: AdminRunsQuerySchema, response: { 200: AdminRunPageSchema, ...errors }, tags, summary: 'Failed or stuck audits, page checks and AI plans with their reason', auth: true } satisfies RouteContract;
const cancelRunRoute = {
  params: RunParamsSchema,
  response: { 200: AdminRunSchema, 409: ErrorBodySchema, ...errors },
  tags,
  summary: "Cancel a queued or running run of any organization; its author's tokens are refunded (audit-logged)",
  auth: true,
} satisfies RouteContract;
const retryRunRoute = {
  params: RunParamsSchema,
  response: { 200: AdminRetryResponseSchema, 402: ErrorBodySchema, 409: ErrorBodySchema, 503: ErrorBodySchema, ...errors },
  tags,
  summary: "Run a failed, cancelled or stuck run again for its author, charged like their own start (audit-logged; idempotent)",
  auth: true,
} satisfies RouteContract;
const queues = { response: { 200: AdminQueuesSchema, ...errors }, tags, summary: 'Jobs per queue: waiting, active, failed, completed (pg-boss)', auth: true } satisfies RouteContract;
const auditLog = { querystring: AdminAuditQuerySchema, response: { 200: AuditPageSchema, ...errors }, tags, summary: 'The audit log of admin actions, newest first', auth: true } satisfies RouteContract;
const analysis = { params: AnalysisParamsSchema, response: { 200: AdminAnalysisResponseSchema, ...errors }, tags, summary: 'An analysis of any organization', auth: true } satisfies RouteContract;

export const adminRoutes: FastifyPluginAsync = async (app) => {
  // Every route here: a valid token first (401, from the contracts' auth), then the platform role (403), before validation.
  app.addHook('preValidation', app.requirePlatformAdmin);

  app.get<Req<typeof overview>>('/overview', { schema: routeSchema(overview) }, async (request) => {
    const { page, page_size, search } = request.query;
    return adminOverview(app.db, { page, pageSize: page_size, search });
  });

  app.get<Req<typeof stats>>('/stats', { schema: routeSchema(stats) }, async (request) => adminStats(app.db, request.query.days));

  app.get<Req<typeof users>>('/users', { schema: routeSchema(users) }, async (request) => {
    const { page, page_size, search, blocked } = request.query;
    return listUsers(app.db, { page, pageSize: page_size, search, ...(blocked ? { blocked: blocked === 'true' } : {}) });
  });
  app.get<Req<typeof user>>('/users/:id', { schema: routeSchema(user) }, async (request) => getAdminUser(app.db, request.params.id));
  app.post<Req<typeof block>>('/users/:id/block', { schema: routeSchema(block) }, async (request) =>
    blockUser(app.db, callerOf(request).userId, request.params.id, request.body?.reason || undefined),
  );
  app.post<Req<typeof unblock>>('/users/:id/unblock', { schema: routeSchema(unblock) }, async (request) => unblockUser(app.db, callerOf(request).userId, request.params.id));

  app.get<Req<typeof organizations>>('/organizations', { schema: routeSchema(organizations) }, async (request) => {
    const { page, page_size, search } = request.query;
    return listOrganizations(app.db, { page, pageSize: page_size, search });
  });
  app.get<Req<typeof organization>>('/organizations/:id', { schema: routeSchema(organization) }, async (request) => getAdminOrganization(app.db, request.params.id));
  app.put<Req<typeof plan>>('/organizations/:id/plan', { schema: routeSchema(plan) }, async (request) =>
    changePlan(app.db, callerOf(request).userId, request.params.id, request.body.plan_type),
  );

  const runDeps = () => ({ db: app.db, jobs: app.jobs, llm: app.config.llm });
  app.get<Req<typeof runs>>('/runs', { schema: routeSchema(runs) }, async (request) => {
    const { page, page_size, state } = request.query;
    return listRuns(app.db, { state, page, pageSize: page_size });
  });
  app.post<Req<typeof cancelRunRoute>>('/runs/:kind/:id/cancel', { schema: routeSchema(cancelRunRoute) }, async (request) =>
    cancelRun(runDeps(), callerOf(request).userId, request.params.kind, request.params.id),
  );
  app.post<Req<typeof retryRunRoute>>('/runs/:kind/:id/retry', { schema: routeSchema(retryRunRoute) }, async (request) =>
    retryRun(runDeps(), callerOf(request).userId, request.params.kind, request.params.id),
  );

  app.get<Req<typeof queues>>('/queues', { schema: routeSchema(queues) }, async () => queueCounts(app.db));
  app.get<Req<typeof auditLog>>('/audit-log', { schema: routeSchema(auditLog) }, async (request) => {
    const { page, page_size, action } = request.query;
    return listAuditLog(app.db, { page, pageSize: page_size, action: action || undefined });
  });

  app.get<Req<typeof project>>('/projects/:id', { schema: routeSchema(project) }, async (request) => adminProjectDetail(app.db, request.params.id));

  app.get<Req<typeof projectAnalyses>>('/projects/:id/analyses', { schema: routeSchema(projectAnalyses) }, async (request) => {
    await adminFindProject(app.db, request.params.id);
    const { page, page_size, status } = request.query;
    return listAnalyses(app.db, { projectId: request.params.id, organizationId: null, page, pageSize: page_size, status });
  });

  app.get<Req<typeof analysis>>('/analyses/:id', { schema: routeSchema(analysis) }, async (request) => adminAnalysis(app.db, request.params.id));

  // The results of any organization's analysis, read-only: the same paged endpoints as the user's.
  await app.register(resultRoutes, { tags, organizationOf: () => null, decisions: false, who: ' of any organization' });
};

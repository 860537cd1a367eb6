/**
 * /api/v1/admin: the platform administrator's area (users with role 'admin' only; everyone else 403).
 * Reads across every organization: the overview, any project with its analyses, any analysis and its
 * results.
 */
import type { FastifyPluginAsync } from 'fastify';
import { AdminAnalysisResponseSchema, AdminOverviewQuerySchema, AdminOverviewSchema, AdminProjectDetailSchema } from '../../src/contract/admin.js';
import { AnalysisHistoryPageSchema, AnalysisHistoryQuerySchema, AnalysisParamsSchema } from '../../src/contract/analysis.js';
import { ErrorBodySchema, IdParamsSchema } from '../../src/contract/common.js';
import { resultRoutes } from '../analysis/results-routes.js';
import { listAnalyses } from '../analysis/service.js';
import { routeSchema, type Req, type RouteContract } from '../lib/schema.js';
import { adminAnalysis, adminFindProject, adminOverview, adminProjectDetail } from './service.js';

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
const analysis = { params: AnalysisParamsSchema, response: { 200: AdminAnalysisResponseSchema, ...errors }, tags, summary: 'An analysis of any organization', auth: true } satisfies RouteContract;

export const adminRoutes: FastifyPluginAsync = async (app) => {
  // Every route here: a valid token first (401), then the platform role (403), before validation.
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requirePlatformAdmin);

  app.get<Req<typeof overview>>('/overview', { schema: routeSchema(overview) }, async (request) => {
    const { page, page_size, search } = request.query;
    return adminOverview(app.db, { page, pageSize: page_size, search });
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

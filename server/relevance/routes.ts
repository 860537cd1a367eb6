/**
 * /api/v1: landing-page relevance runs of the caller's organization. Starting one charges tokens once
 * per idempotency key and enqueues the run in the same transaction; the screens poll the run's state.
 * A run (or project) of another organization is 404.
 */
import type { FastifyPluginAsync } from 'fastify';
import { ErrorBodySchema, IdParamsSchema, PageQuerySchema } from '../../src/contract/common.js';
import { StartRelevanceSchema } from '../../src/contract/relevance.js';
import { callerOf } from '../auth/authenticate.js';
import { routeSchema, type Req, type RouteContract } from '../lib/schema.js';
import { cancelRelevance, getRelevance, getRelevanceResults, listLandingUrls, listRelevance, startRelevance } from './service.js';

const tags = ['page-relevance'];
const errors = { 401: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema };

const urls = {
  params: IdParamsSchema,
  response: errors,
  tags,
  summary: "Landing pages of the project's ads with the groups, keywords and ads leading to each; price per page and balance",
  auth: true,
} satisfies RouteContract;
const start = {
  params: IdParamsSchema,
  body: StartRelevanceSchema,
  response: { 402: ErrorBodySchema, 409: ErrorBodySchema, 503: ErrorBodySchema, ...errors },
  tags,
  summary: 'Start a relevance check of landing pages (default: all pages of the ads, at most 100); 201 new, 200 same idempotency_key',
  auth: true,
} satisfies RouteContract;
const list = { params: IdParamsSchema, querystring: PageQuerySchema, response: errors, tags, summary: 'Relevance runs of a project, newest first', auth: true } satisfies RouteContract;
const getOne = { params: IdParamsSchema, response: errors, tags, summary: 'A relevance run: status, stage, progress, score, summary', auth: true } satisfies RouteContract;
const results = { params: IdParamsSchema, response: { 409: ErrorBodySchema, ...errors }, tags, summary: 'Report of a completed run: pages with scores, coverage, issues; summary', auth: true } satisfies RouteContract;
const cancel = { params: IdParamsSchema, response: { 409: ErrorBodySchema, ...errors }, tags, summary: 'Cancel a queued or running run; its tokens are refunded', auth: true } satisfies RouteContract;

export const relevanceRoutes: FastifyPluginAsync = async (app) => {
  app.get<Req<typeof urls>>('/projects/:id/page-relevance/urls', { schema: routeSchema(urls) }, async (request) =>
    listLandingUrls(app.db, callerOf(request), request.params.id),
  );

  app.post<Req<typeof start>>('/projects/:id/page-relevance', { schema: routeSchema(start) }, async (request, reply) => {
    const { analysis, created } = await startRelevance(app.db, app.jobs, callerOf(request), request.params.id, request.body);
    return reply.status(created ? 201 : 200).send({ analysis });
  });

  app.get<Req<typeof list>>('/projects/:id/page-relevance', { schema: routeSchema(list) }, async (request) =>
    listRelevance(app.db, callerOf(request), request.params.id, request.query.page, request.query.page_size),
  );

  app.get<Req<typeof getOne>>('/page-relevance/:id', { schema: routeSchema(getOne) }, async (request) => ({
    analysis: await getRelevance(app.db, callerOf(request), request.params.id),
  }));

  app.get<Req<typeof results>>('/page-relevance/:id/results', { schema: routeSchema(results) }, async (request) =>
    getRelevanceResults(app.db, callerOf(request), request.params.id),
  );

  app.post<Req<typeof cancel>>('/page-relevance/:id/cancel', { schema: routeSchema(cancel) }, async (request) => ({
    analysis: await cancelRelevance(app.db, app.jobs, callerOf(request), request.params.id),
  }));
};

/** /api/v1: landing-page relevance runs of a project (start once per idempotency key, list, state, report, cancel). */
import { ErrorBodySchema, IdParamsSchema, PageQuerySchema } from '../common.js';
import { LandingUrlsResponseSchema, RelevanceAnalysisResponseSchema, RelevanceListSchema, RelevanceResultsSchema, StartRelevanceSchema } from '../relevance.js';
import { defineRoute, progressEventStream } from './route.js';

const tags = ['page-relevance'];
const errors = { 401: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema };

export const relevanceRoutes = {
  urls: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/:id/page-relevance/urls',
    params: IdParamsSchema,
    response: { 200: LandingUrlsResponseSchema, ...errors },
    tags,
    summary: "Landing pages of the project's ads with the groups, keywords and ads leading to each; price per page and balance",
    auth: true,
  }),
  start: defineRoute({
    method: 'POST',
    path: '/api/v1/projects/:id/page-relevance',
    params: IdParamsSchema,
    body: StartRelevanceSchema,
    response: { 201: RelevanceAnalysisResponseSchema, 200: RelevanceAnalysisResponseSchema, 402: ErrorBodySchema, 403: ErrorBodySchema, 409: ErrorBodySchema, 503: ErrorBodySchema, ...errors },
    tags,
    summary: 'Start a relevance check of landing pages (default: all pages of the ads, at most 100); 201 new, 200 same idempotency_key',
    auth: true,
    verifiedEmail: true,
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/:id/page-relevance',
    params: IdParamsSchema,
    query: PageQuerySchema,
    response: { 200: RelevanceListSchema, ...errors },
    tags,
    summary: 'Relevance runs of a project, newest first',
    auth: true,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/page-relevance/:id',
    params: IdParamsSchema,
    response: { 200: RelevanceAnalysisResponseSchema, ...errors },
    tags,
    summary: 'A relevance run: status, stage, progress, score, summary',
    auth: true,
  }),
  events: defineRoute({
    method: 'GET',
    path: '/api/v1/page-relevance/:id/events',
    params: IdParamsSchema,
    response: { 200: progressEventStream('{analysis}'), ...errors },
    tags,
    summary: 'Server-Sent Events: `progress` {analysis} (as the GET of the run) on connect and on every change, then `done` and the stream ends',
    auth: true,
  }),
  results: defineRoute({
    method: 'GET',
    path: '/api/v1/page-relevance/:id/results',
    params: IdParamsSchema,
    response: { 200: RelevanceResultsSchema, 409: ErrorBodySchema, ...errors },
    tags,
    summary: 'Report of a completed run: pages with scores, coverage, issues; summary',
    auth: true,
  }),
  cancel: defineRoute({
    method: 'POST',
    path: '/api/v1/page-relevance/:id/cancel',
    params: IdParamsSchema,
    response: { 200: RelevanceAnalysisResponseSchema, 409: ErrorBodySchema, ...errors },
    tags,
    summary: 'Cancel a queued or running run; its tokens are refunded',
    auth: true,
  }),
};

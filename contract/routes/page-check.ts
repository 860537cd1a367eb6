/** /api/v1: page checks of a project (start once per idempotency key, list, state, report, cancel). */
import { ErrorBodySchema, IdParamsSchema, PageQuerySchema } from '../common.js';
import { LandingUrlsResponseSchema, PageCheckResponseSchema, PageCheckListSchema, PageCheckResultsSchema, StartPageCheckSchema } from '../page-check.js';
import { defineRoute, progressEventStream } from './route.js';

const tags = ['page-check'];
const errors = { 401: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema };

export const pageCheckRoutes = {
  urls: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/:id/page-checks/urls',
    params: IdParamsSchema,
    response: { 200: LandingUrlsResponseSchema, ...errors },
    tags,
    summary: "Landing pages of the project's ads with the groups, keywords and ads leading to each; price per page and balance",
    auth: true,
  }),
  start: defineRoute({
    method: 'POST',
    path: '/api/v1/projects/:id/page-checks',
    params: IdParamsSchema,
    body: StartPageCheckSchema,
    response: { 201: PageCheckResponseSchema, 200: PageCheckResponseSchema, 402: ErrorBodySchema, 403: ErrorBodySchema, 409: ErrorBodySchema, 503: ErrorBodySchema, ...errors },
    tags,
    summary: 'Start a page check of landing pages (default: all pages of the ads, at most 100); 201 new, 200 same idempotency_key',
    auth: true,
    verifiedEmail: true,
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/:id/page-checks',
    params: IdParamsSchema,
    query: PageQuerySchema,
    response: { 200: PageCheckListSchema, ...errors },
    tags,
    summary: 'Page checks of a project, newest first',
    auth: true,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/page-checks/:id',
    params: IdParamsSchema,
    response: { 200: PageCheckResponseSchema, ...errors },
    tags,
    summary: 'A page check: status, stage, progress, score, summary',
    auth: true,
  }),
  events: defineRoute({
    method: 'GET',
    path: '/api/v1/page-checks/:id/events',
    params: IdParamsSchema,
    response: { 200: progressEventStream('{analysis}'), ...errors },
    tags,
    summary: 'Server-Sent Events: `progress` {analysis} (as the GET of the run) on connect and on every change, then `done` and the stream ends',
    auth: true,
  }),
  results: defineRoute({
    method: 'GET',
    path: '/api/v1/page-checks/:id/results',
    params: IdParamsSchema,
    response: { 200: PageCheckResultsSchema, 409: ErrorBodySchema, ...errors },
    tags,
    summary: 'Report of a completed run: pages with scores, coverage, issues; summary',
    auth: true,
  }),
  cancel: defineRoute({
    method: 'POST',
    path: '/api/v1/page-checks/:id/cancel',
    params: IdParamsSchema,
    response: { 200: PageCheckResponseSchema, 409: ErrorBodySchema, ...errors },
    tags,
    summary: 'Cancel a queued or running run; its tokens are refunded',
    auth: true,
  }),
};

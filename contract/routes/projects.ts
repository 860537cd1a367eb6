/**
 * /api/v1/projects: projects of the caller's organization (list, create, change, delete), their campaign
 * imports (files or the Yandex Direct API → a preview, then saved: replace or append), the Direct API
 * import jobs, our CSV template and the campaign tree. A project of another organization is 404.
 */
import { ErrorBodySchema, IdParamsSchema, NoContentSchema } from '../common.js';
import {
  ApplyImportSchema,
  CampaignDataResponseSchema,
  CampaignParamsSchema,
  CampaignTreeSchema,
  CreateProjectSchema,
  ConnectionPreviewSchema,
  DirectApiPreviewSchema,
  DraftParamsSchema,
  DraftPeriodResponseSchema,
  ImportJobSchema,
  ImportPreviewSchema,
  ProjectDetailSchema,
  ProjectListQuerySchema,
  ProjectListSchema,
  StatsPeriodInputSchema,
  UpdateProjectSchema,
} from '../projects.js';
import { defineRoute, fileAnswer, progressEventStream } from './route.js';

const tags = ['projects'];
/** Every call: no session (401), a malformed id, query or body (422). */
const errors = { 401: ErrorBodySchema, 422: ErrorBodySchema };
/** …and a project (or its draft, campaign, job) that is not the caller's organization's. */
const errorsOf404 = { ...errors, 404: ErrorBodySchema };
/** Starting an import: one unfinished Direct import (or one file parse) per user (429), the queue or the threads busy (503). */
const importStartErrors = { 429: ErrorBodySchema, 503: ErrorBodySchema };

export const projectRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/projects',
    query: ProjectListQuerySchema,
    response: { 200: ProjectListSchema, ...errors },
    tags,
    summary: 'Projects of the organization: search by name, sort by name/created/updated, counts, last analysis',
    auth: true,
  }),
  importTemplate: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/import-template',
    // Not JSON: sent by the handler, read by the client's download mode; the file name is in content-disposition.
    response: { 200: fileAnswer('text/csv'), 401: ErrorBodySchema },
    tags,
    summary: 'Our CSV template for campaign import (UTF-8 with a BOM, `;`-separated)',
    auth: true,
  }),
  previewFiles: defineRoute({
    method: 'POST',
    path: '/api/v1/projects/import-preview',
    multipart: { files: 'files', platform: 'text' },
    response: { 200: ImportPreviewSchema, 400: ErrorBodySchema, 408: ErrorBodySchema, 413: ErrorBodySchema, 415: ErrorBodySchema, ...errors, ...importStartErrors },
    tags,
    summary:
      'Parse uploaded campaign files (multipart, field "files", up to 50 MB each, 400 MB sent and 400 MB expanded in all; optional field "platform") into a preview; one upload per user at a time (429 while one is sent or parsed, before its body is read); 503 while the server has no room for it; 400 for malformed multipart',
    auth: true,
  }),
  previewDirect: defineRoute({
    method: 'POST',
    path: '/api/v1/projects/import-preview/direct-api',
    body: DirectApiPreviewSchema,
    response: { 202: ImportJobSchema, ...errors, ...importStartErrors },
    tags,
    summary:
      'Start loading the campaigns of a Yandex Direct account through API v5: answers at once with an import job (follow it at GET /projects/import-jobs/{id}); one unfinished Direct import per user (429)',
    auth: true,
  }),
  previewFromConnection: defineRoute({
    method: 'POST',
    path: '/api/v1/projects/import-preview/direct-connections/:id',
    params: IdParamsSchema,
    body: ConnectionPreviewSchema,
    response: { 202: ImportJobSchema, 404: ErrorBodySchema, 409: ErrorBodySchema, ...errors, ...importStartErrors },
    tags,
    summary: 'Start loading the campaigns of a Yandex Direct account connected by OAuth (its token renewed as needed), like import-preview/direct-api',
    auth: true,
  }),
  previewConnected: defineRoute({
    method: 'POST',
    path: '/api/v1/projects/:id/import-preview/direct-api',
    params: IdParamsSchema,
    response: { 202: ImportJobSchema, ...errorsOf404, ...importStartErrors },
    tags,
    summary: 'Start loading the campaigns again through the Direct API connection saved with the project (the stored token, no token asked): an import job, as above',
    auth: true,
  }),
  importJob: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/import-jobs/:id',
    params: IdParamsSchema,
    response: { 200: ImportJobSchema, ...errorsOf404 },
    tags,
    summary: 'An import job of the caller: status, progress by stage with API points spent, the preview once completed, the Russian error once failed',
    auth: true,
  }),
  importJobEvents: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/import-jobs/:id/events',
    params: IdParamsSchema,
    response: { 200: progressEventStream('{import job} (as the GET of the job)'), ...errorsOf404 },
    tags,
    summary: 'Server-Sent Events of an import job of the caller: `progress` on connect and on every change, then `done` once completed or failed, and the stream ends',
    auth: true,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/:id',
    params: IdParamsSchema,
    response: { 200: ProjectDetailSchema, ...errorsOf404 },
    tags,
    summary: 'A project with its campaign tree, statistics and import history',
    auth: true,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/projects',
    body: CreateProjectSchema,
    response: { 201: ProjectDetailSchema, ...errorsOf404 },
    tags,
    summary: 'Create a project, optionally from an import preview (draft_id; 404 when the preview is gone)',
    auth: true,
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/api/v1/projects/:id',
    params: IdParamsSchema,
    body: UpdateProjectSchema,
    response: { 200: ProjectDetailSchema, ...errorsOf404 },
    tags,
    summary: 'Change a project',
    auth: true,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/v1/projects/:id',
    params: IdParamsSchema,
    response: { 204: NoContentSchema, 403: ErrorBodySchema, ...errorsOf404 },
    tags,
    summary: 'Delete a project (author, owner or admin)',
    auth: true,
  }),
  setDraftPeriod: defineRoute({
    method: 'PUT',
    path: '/api/v1/projects/import-drafts/:draftId/period',
    params: DraftParamsSchema,
    body: StatsPeriodInputSchema,
    response: { 200: DraftPeriodResponseSchema, ...errorsOf404 },
    tags,
    summary: 'Set the statistics period of an import preview (the files did not say it); saved with the import',
    auth: true,
  }),
  applyImport: defineRoute({
    method: 'POST',
    path: '/api/v1/projects/:id/imports',
    params: IdParamsSchema,
    body: ApplyImportSchema,
    response: { 201: ProjectDetailSchema, ...errorsOf404 },
    tags,
    summary: 'Save a preview into the project: replace its campaigns or append to them',
    auth: true,
  }),
  campaigns: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/:id/campaigns',
    params: IdParamsSchema,
    response: { 200: CampaignTreeSchema, ...errorsOf404 },
    tags,
    summary: 'Campaigns → groups with counts and statistics',
    auth: true,
  }),
  campaign: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/:id/campaigns/:campaignId',
    params: CampaignParamsSchema,
    response: { 200: CampaignDataResponseSchema, ...errorsOf404 },
    tags,
    summary: 'The whole campaign: groups, keywords, ads, negatives, statistics',
    auth: true,
  }),
};

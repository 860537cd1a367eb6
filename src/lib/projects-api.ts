/**
 * The project calls of the PWA and their React Query definitions (one definition per query, shared by
 * screens and loaders). The list and the project detail are kept on disk (`meta.persist`), so the
 * projects still show offline.
 */
import { queryOptions } from '@tanstack/react-query';
import type { ApplyImportRequest, CreateProjectRequest, DirectApiPreviewRequest, StatsPeriodInput, UpdateProjectRequest } from '@contract/projects.js';
import { IMPORT_TEMPLATE_FILE_NAME } from '@contract/import-template.js';
import { projectRoutes as routes } from '@contract/routes/projects.js';
import { callApi } from './call-api';
import { saveDownloadedFile } from './download';

export type ProjectSort = 'name' | 'created' | 'updated';

export interface ProjectListFilter {
  search: string;
  sort: ProjectSort;
}

export const projectKeys = {
  all: ['projects'] as const,
  list: (filter: ProjectListFilter) => ['projects', 'list', filter] as const,
  detail: (id: string) => ['projects', 'detail', id] as const,
  campaign: (id: string, campaignId: string) => ['projects', 'detail', id, 'campaign', campaignId] as const,
  importJob: (jobId: string) => ['projects', 'import-job', jobId] as const,
};

export const projectListQueryOptions = (filter: ProjectListFilter) =>
  queryOptions({
    queryKey: projectKeys.list(filter),
    queryFn: ({ signal }) => callApi(routes.list, { query: { search: filter.search || undefined, sort: filter.sort, page_size: 100 }, signal }),
    meta: { persist: true },
  });

export const projectQueryOptions = (id: string) =>
  queryOptions({
    queryKey: projectKeys.detail(id),
    queryFn: ({ signal }) => callApi(routes.get, { params: { id }, signal }),
    meta: { persist: true },
  });

/** A whole campaign (keywords, ads), loaded when the user opens it in the tree. Not persisted: it can be big. */
export const campaignQueryOptions = (id: string, campaignId: string) =>
  queryOptions({
    queryKey: projectKeys.campaign(id, campaignId),
    queryFn: ({ signal }) => callApi(routes.campaign, { params: { id, campaignId }, signal }).then((answer) => answer.campaign),
  });

export const createProject = (body: CreateProjectRequest) => callApi(routes.create, { body });
export const updateProject = (id: string, body: UpdateProjectRequest) => callApi(routes.update, { params: { id }, body });
export const deleteProject = (id: string) => callApi(routes.remove, { params: { id } });
export const applyImport = (id: string, body: ApplyImportRequest) => callApi(routes.applyImport, { params: { id }, body });

/** The statistics period entered on a preview whose files do not say it; saved with the import. */
export const setDraftPeriod = (draftId: string, body: StatsPeriodInput) => callApi(routes.setDraftPeriod, { params: { draftId }, body }).then((answer) => answer.period);

/** Sends the files as multipart/form-data; the server streams and parses them in a worker. */
export function previewFiles(files: File[], platform?: string, signal?: AbortSignal) {
  const form = new FormData();
  if (platform) form.append('platform', platform);
  for (const file of files) form.append('files', file, file.name);
  return callApi(routes.previewFiles, { body: form, signal });
}

/** Starts reading a Direct account as a job (202): the preview comes with the finished job. */
export const startDirectApiImport = (body: DirectApiPreviewRequest) => callApi(routes.previewDirect, { body });

/** The account again, through the Direct API connection saved with the project (the server holds the token). */
export const startConnectedDirectApiImport = (projectId: string) => callApi(routes.previewConnected, { params: { id: projectId } });

/** A Direct import job (kept live while it runs by src/lib/live-run.ts); not persisted. */
export const importJobQueryOptions = (jobId: string) =>
  queryOptions({
    queryKey: projectKeys.importJob(jobId),
    queryFn: ({ signal }) => callApi(routes.importJob, { params: { id: jobId }, signal }),
  });

/** Downloads our CSV template (the request needs the bearer token, so no plain link); its bytes keep the BOM Excel needs. */
export const downloadTemplate = async () => saveDownloadedFile(await callApi(routes.importTemplate, { mode: 'download' }), IMPORT_TEMPLATE_FILE_NAME);

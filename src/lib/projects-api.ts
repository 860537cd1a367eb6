/**
 * The project calls of the PWA and their React Query definitions (one definition per query, shared by
 * screens and loaders). The list and the project detail are kept on disk (`meta.persist`), so the
 * projects still show offline.
 */
import { queryOptions } from '@tanstack/react-query';
import { isImportJobFinished } from '@/contract/projects.js';
import type {
  ApplyImportRequest,
  CreateProjectRequest,
  DirectApiPreviewRequest,
  ImportJob,
  ImportPreview,
  ProjectDetail,
  ProjectList,
  UpdateProjectRequest,
} from '@/contract/projects.js';
import type { Campaign } from '@/contract/campaigns.js';
import { IMPORT_TEMPLATE_FILE_NAME } from '@/contract/import-template.js';
import { apiClient } from './api-client';
import { saveBlob } from './download';

const BASE = '/api/v1/projects';

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

/** How often the progress screen asks for a running import job (tests advance fake timers by it). */
export const IMPORT_JOB_POLL_MS = 2000;

export const projectListQueryOptions = (filter: ProjectListFilter) =>
  queryOptions({
    queryKey: projectKeys.list(filter),
    queryFn: ({ signal }) => apiClient.get<ProjectList>(BASE, { signal, params: { search: filter.search || null, sort: filter.sort, page_size: 100 } }),
    meta: { persist: true },
  });

export const projectQueryOptions = (id: string) =>
  queryOptions({
    queryKey: projectKeys.detail(id),
    queryFn: ({ signal }) => apiClient.get<ProjectDetail>(`${BASE}/${id}`, { signal }),
    meta: { persist: true },
  });

/** A whole campaign (keywords, ads), loaded when the user opens it in the tree. Not persisted: it can be big. */
export const campaignQueryOptions = (id: string, campaignId: string) =>
  queryOptions({
    queryKey: projectKeys.campaign(id, campaignId),
    queryFn: ({ signal }) => apiClient.get<{ id: string; campaign: Campaign }>(`${BASE}/${id}/campaigns/${campaignId}`, { signal }).then((answer) => answer.campaign),
  });

export const createProject = (body: CreateProjectRequest) => apiClient.post<ProjectDetail>(BASE, body);
export const updateProject = (id: string, body: UpdateProjectRequest) => apiClient.patch<ProjectDetail>(`${BASE}/${id}`, body);
export const deleteProject = (id: string) => apiClient.delete<void>(`${BASE}/${id}`);
export const applyImport = (id: string, body: ApplyImportRequest) => apiClient.post<ProjectDetail>(`${BASE}/${id}/imports`, body);

/** Sends the files as multipart/form-data; the server streams and parses them in a worker. */
export function previewFiles(files: File[], platform?: string, signal?: AbortSignal): Promise<ImportPreview> {
  const form = new FormData();
  if (platform) form.append('platform', platform);
  for (const file of files) form.append('files', file, file.name);
  return apiClient.post<ImportPreview>(`${BASE}/import-preview`, form, { signal });
}

/** Starts reading a Direct account as a job (202): the preview comes with the finished job. */
export const startDirectApiImport = (body: DirectApiPreviewRequest) => apiClient.post<ImportJob>(`${BASE}/import-preview/direct-api`, body);

/** The account again, through the Direct API connection saved with the project (the server holds the token). */
export const startConnectedDirectApiImport = (projectId: string) => apiClient.post<ImportJob>(`${BASE}/${projectId}/import-preview/direct-api`);

/** A Direct import job, polled while it runs (also in a background tab); not persisted. */
export const importJobQueryOptions = (jobId: string) =>
  queryOptions({
    queryKey: projectKeys.importJob(jobId),
    queryFn: ({ signal }) => apiClient.get<ImportJob>(`${BASE}/import-jobs/${jobId}`, { signal }),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && isImportJobFinished(query.state.data.status) ? false : IMPORT_JOB_POLL_MS),
    refetchIntervalInBackground: true,
  });


/** Downloads our CSV template (the request needs the bearer token, so no plain link). */
export async function downloadTemplate(): Promise<void> {
  const text = await apiClient.get<string>(`${BASE}/import-template`, { headers: { Accept: 'text/csv' } });
  // Reading as text drops the BOM; put it back so Excel opens the Cyrillic columns as UTF-8.
  saveBlob(new Blob([`\uFEFF${text.replace(/^\uFEFF/, '')}`], { type: 'text/csv;charset=utf-8' }), IMPORT_TEMPLATE_FILE_NAME);
}

/**
 * Queries of the platform admin area (`/api/v1/admin/...`). The shapes are read tolerantly: the
 * screens show the fields they know and list any others, so they keep working as the API grows.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

export type AdminRecord = Record<string, unknown> & { id?: string };

export interface AdminPage<T = AdminRecord> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

export const ADMIN_PAGE_SIZE = 20;

/** Accepts `{items,total,…}`, `{projects:[…]}`, `{analyses:[…]}` or a bare array. */
export function toPage(raw: unknown, page: number, pageSize: number): AdminPage {
  if (Array.isArray(raw)) return { items: raw as AdminRecord[], total: raw.length, page, page_size: pageSize };
  if (raw && typeof raw === 'object') {
    const record = raw as Record<string, unknown>;
    const list = [record.items, record.projects, record.analyses, record.results].find(Array.isArray) as AdminRecord[] | undefined;
    if (list) {
      return {
        items: list,
        total: typeof record.total === 'number' ? record.total : list.length,
        page: typeof record.page === 'number' ? record.page : page,
        page_size: typeof record.page_size === 'number' ? record.page_size : pageSize,
      };
    }
  }
  return { items: [], total: 0, page, page_size: pageSize };
}

export const adminStatsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'stats'],
    queryFn: ({ signal }) => apiClient.get<Record<string, unknown>>('/api/v1/admin/stats', { signal }),
  });

export const adminProjectsQuery = (page: number, search?: string) =>
  queryOptions({
    queryKey: ['admin', 'projects', { page, search: search ?? null }],
    queryFn: async ({ signal }) =>
      toPage(
        await apiClient.get<unknown>('/api/v1/admin/projects', { params: { page, page_size: ADMIN_PAGE_SIZE, search: search || null }, signal }),
        page,
        ADMIN_PAGE_SIZE,
      ),
    placeholderData: keepPreviousData,
  });

export const adminProjectQuery = (projectId: string) =>
  queryOptions({
    queryKey: ['admin', 'project', projectId],
    queryFn: ({ signal }) => apiClient.get<AdminRecord>(`/api/v1/admin/projects/${encodeURIComponent(projectId)}`, { signal }),
  });

export const adminProjectAnalysesQuery = (projectId: string, page: number) =>
  queryOptions({
    queryKey: ['admin', 'project', projectId, 'analyses', page],
    queryFn: async ({ signal }) =>
      toPage(
        await apiClient.get<unknown>(`/api/v1/admin/projects/${encodeURIComponent(projectId)}/analyses`, {
          params: { page, page_size: ADMIN_PAGE_SIZE },
          signal,
        }),
        page,
        ADMIN_PAGE_SIZE,
      ),
    placeholderData: keepPreviousData,
  });

export const adminAnalysisQuery = (analysisId: string) =>
  queryOptions({
    queryKey: ['admin', 'analysis', analysisId],
    queryFn: ({ signal }) => apiClient.get<AdminRecord>(`/api/v1/admin/analyses/${encodeURIComponent(analysisId)}`, { signal }),
  });

export const adminAnalysisResultsQuery = (analysisId: string) =>
  queryOptions({
    queryKey: ['admin', 'analysis', analysisId, 'results'],
    queryFn: ({ signal }) => apiClient.get<AdminRecord>(`/api/v1/admin/analyses/${encodeURIComponent(analysisId)}/results`, { signal }),
  });

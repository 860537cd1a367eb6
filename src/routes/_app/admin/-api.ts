/**
 * Queries of the platform admin area, on the API's admin routes (`server/admin/routes.ts`), typed by the
 * shared contract. The admin reads across every organization; everyone else gets 403 from the server.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AdminAnalysisResponse, AdminOverview, AdminProjectDetail } from '../../../contract/admin.js';
import type { PagedResults } from '../../../contract/analysis-pages.js';
import type { AnalysisHistoryPage } from '../../../contract/analysis.js';
import { apiClient } from '../../../lib/api-client';

export const ADMIN_PAGE_SIZE = 20;

const adminKeys = {
  overview: (page: number, search: string | null) => ['admin', 'overview', { page, search }] as const,
  project: (projectId: string) => ['admin', 'project', projectId] as const,
  projectAnalyses: (projectId: string, page: number) => ['admin', 'project', projectId, 'analyses', page] as const,
  analysis: (analysisId: string) => ['admin', 'analysis', analysisId] as const,
  results: (analysisId: string) => ['admin', 'analysis', analysisId, 'results'] as const,
};

/** Platform counts, the newest analyses and a page of the projects of every organization. */
export const adminOverviewQuery = (page: number, search?: string) =>
  queryOptions({
    queryKey: adminKeys.overview(page, search || null),
    queryFn: ({ signal }) => apiClient.get<AdminOverview>('/api/v1/admin/overview', { params: { page, page_size: ADMIN_PAGE_SIZE, search: search || null }, signal }),
    placeholderData: keepPreviousData,
  });

export const adminProjectQuery = (projectId: string) =>
  queryOptions({
    queryKey: adminKeys.project(projectId),
    queryFn: ({ signal }) => apiClient.get<AdminProjectDetail>(`/api/v1/admin/projects/${encodeURIComponent(projectId)}`, { signal }),
  });

export const adminProjectAnalysesQuery = (projectId: string, page: number) =>
  queryOptions({
    queryKey: adminKeys.projectAnalyses(projectId, page),
    queryFn: ({ signal }) =>
      apiClient.get<AnalysisHistoryPage>(`/api/v1/admin/projects/${encodeURIComponent(projectId)}/analyses`, { params: { page, page_size: ADMIN_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });

export const adminAnalysisQuery = (analysisId: string) =>
  queryOptions({
    queryKey: adminKeys.analysis(analysisId),
    queryFn: ({ signal }) => apiClient.get<AdminAnalysisResponse>(`/api/v1/admin/analyses/${encodeURIComponent(analysisId)}`, { signal }),
  });

export const adminAnalysisResultsQuery = (analysisId: string) =>
  queryOptions({
    queryKey: adminKeys.results(analysisId),
    queryFn: ({ signal }) => apiClient.get<PagedResults>(`/api/v1/admin/analyses/${encodeURIComponent(analysisId)}/results`, { signal }),
  });

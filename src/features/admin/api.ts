/**
 * Queries of the platform admin area, on the API's admin routes (`server/admin/routes.ts`), typed by the
 * shared contract. The admin reads across every organization; everyone else gets 403 from the server.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  AdminAnalysisResponse,
  AdminOrganizationDetail,
  AdminOrganizationPage,
  AdminOverview,
  AdminProjectDetail,
  AdminQueues,
  AdminRetryResponse,
  AdminRun,
  AdminRunPage,
  AdminStats,
  AdminUser,
  AdminUserPage,
  AuditPage,
  RunKind,
} from '../../contract/admin.js';
import type { AdminCreditRequest, AdminCreditResponse } from '../../contract/tokens.js';
import type { PagedResults } from '../../contract/analysis-pages.js';
import type { AnalysisHistoryPage } from '../../contract/analysis.js';
import { apiClient } from '../../lib/api-client';

export const ADMIN_PAGE_SIZE = 20;

export const adminKeys = {
  all: ['admin'] as const,
  stats: (days: number) => ['admin', 'stats', days] as const,
  users: (page: number, search: string | null, blocked: boolean | null) => ['admin', 'users', { page, search, blocked }] as const,
  organizations: (page: number, search: string | null) => ['admin', 'organizations', { page, search }] as const,
  organization: (organizationId: string) => ['admin', 'organization', organizationId] as const,
  runs: (state: 'failed' | 'stuck', page: number) => ['admin', 'runs', state, page] as const,
  queues: () => ['admin', 'queues'] as const,
  auditLog: (page: number, action: string | null) => ['admin', 'audit-log', { page, action }] as const,
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

/** The overview's charts: sign-ups, tokens credited and spent per day, runs by kind and status. */
export const adminStatsQuery = (days: number) =>
  queryOptions({
    queryKey: adminKeys.stats(days),
    queryFn: ({ signal }) => apiClient.get<AdminStats>('/api/v1/admin/stats', { params: { days }, signal }),
  });

export const adminUsersQuery = (page: number, search?: string, blocked?: boolean) =>
  queryOptions({
    queryKey: adminKeys.users(page, search || null, blocked ?? null),
    queryFn: ({ signal }) =>
      apiClient.get<AdminUserPage>('/api/v1/admin/users', { params: { page, page_size: ADMIN_PAGE_SIZE, search: search || null, blocked: blocked === undefined ? null : String(blocked) }, signal }),
    placeholderData: keepPreviousData,
  });

export const adminOrganizationsQuery = (page: number, search?: string) =>
  queryOptions({
    queryKey: adminKeys.organizations(page, search || null),
    queryFn: ({ signal }) => apiClient.get<AdminOrganizationPage>('/api/v1/admin/organizations', { params: { page, page_size: ADMIN_PAGE_SIZE, search: search || null }, signal }),
    placeholderData: keepPreviousData,
  });

export const adminOrganizationQuery = (organizationId: string) =>
  queryOptions({
    queryKey: adminKeys.organization(organizationId),
    queryFn: ({ signal }) => apiClient.get<AdminOrganizationDetail>(`/api/v1/admin/organizations/${encodeURIComponent(organizationId)}`, { signal }),
  });

export const adminRunsQuery = (state: 'failed' | 'stuck', page: number) =>
  queryOptions({
    queryKey: adminKeys.runs(state, page),
    queryFn: ({ signal }) => apiClient.get<AdminRunPage>('/api/v1/admin/runs', { params: { state, page, page_size: ADMIN_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });

/** Job counts move by the second: the screen polls them while it is open. */
export const QUEUES_REFRESH_MS = 10_000;
export const adminQueuesQuery = () =>
  queryOptions({
    queryKey: adminKeys.queues(),
    queryFn: ({ signal }) => apiClient.get<AdminQueues>('/api/v1/admin/queues', { signal }),
    refetchInterval: QUEUES_REFRESH_MS,
  });

export const adminAuditLogQuery = (page: number, action?: string) =>
  queryOptions({
    queryKey: adminKeys.auditLog(page, action || null),
    queryFn: ({ signal }) => apiClient.get<AuditPage>('/api/v1/admin/audit-log', { params: { page, page_size: ADMIN_PAGE_SIZE, action: action || null }, signal }),
    placeholderData: keepPreviousData,
  });

// Actions. Each one changes what several admin screens show (balances, the audit log, the charts):
// the caller invalidates `adminKeys.all` after it.

export const blockUser = (userId: string, reason?: string) => apiClient.post<AdminUser>(`/api/v1/admin/users/${encodeURIComponent(userId)}/block`, reason ? { reason } : {});
export const unblockUser = (userId: string) => apiClient.post<AdminUser>(`/api/v1/admin/users/${encodeURIComponent(userId)}/unblock`);
export const changePlan = (organizationId: string, planType: string) =>
  apiClient.put<AdminOrganizationDetail>(`/api/v1/admin/organizations/${encodeURIComponent(organizationId)}/plan`, { plan_type: planType });
/** The key is made once per opened form, so a retried submit credits once. */
export const creditTokens = (request: AdminCreditRequest) => apiClient.post<AdminCreditResponse>('/api/v1/tokens/admin/credit', request);
export const cancelRun = (kind: RunKind, id: string) => apiClient.post<AdminRun>(`/api/v1/admin/runs/${kind}/${encodeURIComponent(id)}/cancel`);
export const retryRun = (kind: RunKind, id: string) => apiClient.post<AdminRetryResponse>(`/api/v1/admin/runs/${kind}/${encodeURIComponent(id)}/retry`);

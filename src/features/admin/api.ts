/**
 * Queries of the platform admin area, on the admin entries of the route table (contract/routes/admin.ts,
 * and the admin's credit in tokens.ts). The admin reads across every organization; everyone else gets 403
 * from the server.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { RunKind } from '@contract/admin.js';
import { adminRoutes } from '@contract/routes/admin.js';
import type { AdminCreditRequest } from '@contract/tokens.js';
import { adminAnalysisResultRoutes } from '@contract/routes/analyses.js';
import { callApi } from '@/lib/call-api';

export const ADMIN_PAGE_SIZE = 20;
/** The period the overview's charts open with (days). */
export const FIRST_STATS_DAYS = 30;

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
    queryFn: ({ signal }) => callApi(adminRoutes.overview, { query: { page, page_size: ADMIN_PAGE_SIZE, search: search || undefined }, signal }),
    placeholderData: keepPreviousData,
  });

export const adminProjectQuery = (projectId: string) =>
  queryOptions({
    queryKey: adminKeys.project(projectId),
    queryFn: ({ signal }) => callApi(adminRoutes.project, { params: { id: projectId }, signal }),
  });

export const adminProjectAnalysesQuery = (projectId: string, page: number) =>
  queryOptions({
    queryKey: adminKeys.projectAnalyses(projectId, page),
    queryFn: ({ signal }) =>
      callApi(adminRoutes.projectAnalyses, { params: { id: projectId }, query: { page, page_size: ADMIN_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });

export const adminAnalysisQuery = (analysisId: string) =>
  queryOptions({
    queryKey: adminKeys.analysis(analysisId),
    queryFn: ({ signal }) => callApi(adminRoutes.analysis, { params: { id: analysisId }, signal }),
  });

export const adminAnalysisResultsQuery = (analysisId: string) =>
  queryOptions({
    queryKey: adminKeys.results(analysisId),
    queryFn: ({ signal }) => callApi(adminAnalysisResultRoutes.results, { params: { id: analysisId }, signal }),
  });

/** The overview's charts: sign-ups, tokens credited and spent per day, runs by kind and status. */
export const adminStatsQuery = (days: number) =>
  queryOptions({
    queryKey: adminKeys.stats(days),
    queryFn: ({ signal }) => callApi(adminRoutes.stats, { query: { days }, signal }),
  });

export const adminUsersQuery = (page: number, search?: string, blocked?: boolean) =>
  queryOptions({
    queryKey: adminKeys.users(page, search || null, blocked ?? null),
    queryFn: ({ signal }) =>
      callApi(adminRoutes.users, { query: { page, page_size: ADMIN_PAGE_SIZE, search: search || undefined, blocked: blocked === undefined ? undefined : blocked ? 'true' : 'false' }, signal }),
    placeholderData: keepPreviousData,
  });

export const adminOrganizationsQuery = (page: number, search?: string) =>
  queryOptions({
    queryKey: adminKeys.organizations(page, search || null),
    queryFn: ({ signal }) => callApi(adminRoutes.organizations, { query: { page, page_size: ADMIN_PAGE_SIZE, search: search || undefined }, signal }),
    placeholderData: keepPreviousData,
  });

export const adminOrganizationQuery = (organizationId: string) =>
  queryOptions({
    queryKey: adminKeys.organization(organizationId),
    queryFn: ({ signal }) => callApi(adminRoutes.organization, { params: { id: organizationId }, signal }),
  });

export const adminRunsQuery = (state: 'failed' | 'stuck', page: number) =>
  queryOptions({
    queryKey: adminKeys.runs(state, page),
    queryFn: ({ signal }) => callApi(adminRoutes.runs, { query: { state, page, page_size: ADMIN_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });

/** Job counts move by the second: the screen polls them while it is open. */
export const QUEUES_REFRESH_MS = 10_000;
export const adminQueuesQuery = () =>
  queryOptions({
    queryKey: adminKeys.queues(),
    queryFn: ({ signal }) => callApi(adminRoutes.queues, { signal }),
    refetchInterval: QUEUES_REFRESH_MS,
  });

export const adminAuditLogQuery = (page: number, action?: string) =>
  queryOptions({
    queryKey: adminKeys.auditLog(page, action || null),
    queryFn: ({ signal }) => callApi(adminRoutes.auditLog, { query: { page, page_size: ADMIN_PAGE_SIZE, action: action || undefined }, signal }),
    placeholderData: keepPreviousData,
  });

// Actions. Each one changes what several admin screens show (balances, the audit log, the charts):
// the caller invalidates `adminKeys.all` after it.

export const blockUser = (userId: string, reason?: string) => callApi(adminRoutes.blockUser, { params: { id: userId }, body: reason ? { reason } : {} });
export const unblockUser = (userId: string) => callApi(adminRoutes.unblockUser, { params: { id: userId } });
export const changePlan = (organizationId: string, planType: string) => callApi(adminRoutes.changePlan, { params: { id: organizationId }, body: { plan_type: planType } });
/** The key is made once per opened form, so a retried submit credits once. */
export const creditTokens = (request: AdminCreditRequest) => callApi(adminRoutes.creditTokens, { body: request });
export const cancelRun = (kind: RunKind, id: string) => callApi(adminRoutes.cancelRun, { params: { kind, id } });
export const retryRun = (kind: RunKind, id: string) => callApi(adminRoutes.retryRun, { params: { kind, id } });

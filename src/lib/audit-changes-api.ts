/**
 * What changed between audits, the trend of a project's audits and the agency board (issue 23). The board
 * and the trend are kept on disk (`meta.persist`, small), so both show offline; the changes are asked
 * when the screen opens.
 */
import { queryOptions } from '@tanstack/react-query';
import { auditChangeRoutes as routes } from '@contract/routes/audit-changes.js';
import { callApi } from './call-api';

export const auditChangeKeys = {
  board: ['agency-board'] as const,
  trend: (projectId: string) => ['projects', 'detail', projectId, 'audit-trend'] as const,
  changes: (projectId: string, from: string | undefined, to: string | undefined) => ['projects', 'detail', projectId, 'audit-changes', from ?? null, to ?? null] as const,
};

export const agencyBoardQueryOptions = () =>
  queryOptions({
    queryKey: auditChangeKeys.board,
    queryFn: ({ signal }) => callApi(routes.board, { signal }),
    meta: { persist: true },
  });

export const auditTrendQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: auditChangeKeys.trend(projectId),
    queryFn: ({ signal }) => callApi(routes.trend, { params: { id: projectId }, signal }),
    meta: { persist: true },
  });

export const auditChangesQueryOptions = (projectId: string, from?: string, to?: string) =>
  queryOptions({
    queryKey: auditChangeKeys.changes(projectId, from, to),
    queryFn: ({ signal }) => callApi(routes.changes, { params: { id: projectId }, query: { from, to }, signal }),
  });

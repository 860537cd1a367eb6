/**
 * The page check calls of the PWA and their React Query definitions. A run's state is kept
 * live on its progress screen by the one live channel of every run (src/lib/live-run.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import type { StartPageCheckRequest } from '@contract/page-check.js';
import { pageCheckRoutes } from '@contract/routes/page-check.js';
import { ApiError } from '@/lib/api-client';
import { callApi } from '@/lib/call-api';

export const pageCheckKeys = {
  all: ['page-check'] as const,
  urls: (projectId: string) => ['page-check', 'urls', projectId] as const,
  detail: (id: string) => ['page-check', 'detail', id] as const,
  results: (id: string) => ['page-check', 'results', id] as const,
  history: (projectId: string) => ['page-check', 'history', projectId] as const,
};

/** The project's latest runs, for the links under the start form. */
export const pageCheckHistoryQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: pageCheckKeys.history(projectId),
    queryFn: ({ signal }) => callApi(pageCheckRoutes.list, { params: { id: projectId }, query: { page: 1, page_size: 5 }, signal }),
  });

export const landingUrlsQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: pageCheckKeys.urls(projectId),
    queryFn: ({ signal }) => callApi(pageCheckRoutes.urls, { params: { id: projectId }, signal }),
  });

export const pageCheckQueryOptions = (id: string) =>
  queryOptions({
    queryKey: pageCheckKeys.detail(id),
    queryFn: ({ signal }) => callApi(pageCheckRoutes.get, { params: { id }, signal }).then((answer) => answer.analysis),
  });

export const pageCheckResultsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: pageCheckKeys.results(id),
    queryFn: ({ signal }) => callApi(pageCheckRoutes.results, { params: { id }, signal }),
    staleTime: Infinity,
  });

export const startPageCheck = (projectId: string, body: StartPageCheckRequest) =>
  callApi(pageCheckRoutes.start, { params: { id: projectId }, body }).then((answer) => answer.analysis);

export const cancelPageCheck = (id: string) => callApi(pageCheckRoutes.cancel, { params: { id } }).then((answer) => answer.analysis);

/** The amounts of a 402 answer («Нужно токенов: 4, на балансе: 2»), to show beside the button. */
export function insufficientMessage(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 402) return null;
  const detail = (error.body as { detail?: { msg?: string }[] } | null)?.detail;
  return detail?.[0]?.msg ?? null;
}

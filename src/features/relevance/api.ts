/**
 * The landing-page relevance calls of the PWA and their React Query definitions. A run's state is kept
 * live on its progress screen by the one live channel of every run (src/lib/live-run.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import type { StartRelevanceRequest } from '@contract/relevance.js';
import { relevanceRoutes } from '@contract/routes/relevance.js';
import { ApiError } from '@/lib/api-client';
import { callApi } from '@/lib/call-api';

export const relevanceKeys = {
  all: ['page-relevance'] as const,
  urls: (projectId: string) => ['page-relevance', 'urls', projectId] as const,
  detail: (id: string) => ['page-relevance', 'detail', id] as const,
  results: (id: string) => ['page-relevance', 'results', id] as const,
  history: (projectId: string) => ['page-relevance', 'history', projectId] as const,
};

/** The project's latest runs, for the links under the start form. */
export const relevanceHistoryQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: relevanceKeys.history(projectId),
    queryFn: ({ signal }) => callApi(relevanceRoutes.list, { params: { id: projectId }, query: { page: 1, page_size: 5 }, signal }),
  });

export const landingUrlsQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: relevanceKeys.urls(projectId),
    queryFn: ({ signal }) => callApi(relevanceRoutes.urls, { params: { id: projectId }, signal }),
  });

export const relevanceQueryOptions = (id: string) =>
  queryOptions({
    queryKey: relevanceKeys.detail(id),
    queryFn: ({ signal }) => callApi(relevanceRoutes.get, { params: { id }, signal }).then((answer) => answer.analysis),
  });

export const relevanceResultsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: relevanceKeys.results(id),
    queryFn: ({ signal }) => callApi(relevanceRoutes.results, { params: { id }, signal }),
    staleTime: Infinity,
  });

export const startRelevance = (projectId: string, body: StartRelevanceRequest) =>
  callApi(relevanceRoutes.start, { params: { id: projectId }, body }).then((answer) => answer.analysis);

export const cancelRelevance = (id: string) => callApi(relevanceRoutes.cancel, { params: { id } }).then((answer) => answer.analysis);

/** The amounts of a 402 answer («Нужно токенов: 4, на балансе: 2»), to show beside the button. */
export function insufficientMessage(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 402) return null;
  const detail = (error.body as { detail?: { msg?: string }[] } | null)?.detail;
  return detail?.[0]?.msg ?? null;
}

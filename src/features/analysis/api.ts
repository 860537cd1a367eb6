/**
 * The analysis calls of the PWA and their React Query definitions (one definition per query, shared
 * by every screen). History is kept on disk (`meta.persist`) so it still shows offline. The results and
 * their lists (the paged results API) are in pages-api.ts.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { CalculateCostRequest, CostResponse } from '@contract/tokens.js';
import { ApiError, apiClient } from '@/lib/api-client';
import { callApi } from '@/lib/call-api';
import { saveDownloadedFile } from '@/lib/download';
import { auditAnalysisKinds, decodeExportNotes, EXPORT_NOTES_HEADER, type Analysis, type AnalysisStatus, type exportFormats, type exportPlatforms, type InsufficientTokensBody, type StartAnalysisRequest } from '@contract/analysis.js';
import { analysisRoutes } from '@contract/routes/analyses.js';
import { changeRoutes } from '@contract/routes/changes.js';

export type ExportPlatform = (typeof exportPlatforms)[number];
export type ExportFormat = (typeof exportFormats)[number];

export const HISTORY_PAGE_SIZE = 20;
/** What an audit runs, so what its cost is calculated for (the server charges the same). */
export const AUDIT_KINDS = auditAnalysisKinds;

export interface HistoryFilter {
  page: number;
  status: AnalysisStatus | null;
  /** Only this user's analyses («Мои»). */
  authorId?: string | null;
}

export const analysisKeys = {
  all: ['analyses'] as const,
  history: (projectId: string, filter: HistoryFilter) => ['analyses', 'history', projectId, filter] as const,
  historyOf: (projectId: string) => ['analyses', 'history', projectId] as const,
  detail: (analysisId: string) => ['analyses', 'detail', analysisId] as const,
  cost: (request: CalculateCostRequest) => ['analyses', 'cost', request] as const,
};

export const fetchAnalysis = (analysisId: string, signal?: AbortSignal) =>
  callApi(analysisRoutes.get, { params: { id: analysisId }, signal }).then((answer) => answer.analysis);

export const analysisQueryOptions = (analysisId: string) =>
  queryOptions({
    queryKey: analysisKeys.detail(analysisId),
    queryFn: ({ signal }) => fetchAnalysis(analysisId, signal),
  });

export const historyQueryOptions = (projectId: string, filter: HistoryFilter) =>
  queryOptions({
    queryKey: analysisKeys.history(projectId, filter),
    queryFn: ({ signal }) =>
      callApi(analysisRoutes.history, {
        params: { id: projectId },
        query: { page: filter.page, page_size: HISTORY_PAGE_SIZE, status: filter.status ?? undefined, author_id: filter.authorId ?? undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { persist: true },
  });

export const costQueryOptions = (request: CalculateCostRequest) =>
  queryOptions({
    queryKey: analysisKeys.cost(request),
    queryFn: ({ signal }) => apiClient.post<CostResponse>('/api/v1/tokens/calculate-cost', request, { signal }),
    enabled: request.campaigns.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export async function startAnalysis(projectId: string, body: StartAnalysisRequest): Promise<Analysis> {
  const answer = await callApi(analysisRoutes.start, { params: { id: projectId }, body });
  return answer.analysis;
}

export const cancelAnalysis = (analysisId: string) =>
  callApi(analysisRoutes.cancel, { params: { id: analysisId } }).then((answer) => answer.analysis);

/** The short-balance answer of a start (402 INSUFFICIENT_TOKENS), with what it costs and what there is. */
export function insufficientBalanceOf(error: unknown): { required: number | null; balance: number | null } | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body as Partial<InsufficientTokensBody> | null;
  if (error.status !== 402 && body?.code !== 'INSUFFICIENT_TOKENS') return null;
  return {
    required: typeof body?.required === 'number' ? body.required : null,
    balance: typeof body?.balance === 'number' ? body.balance : null,
  };
}

/** The exports the server writes (Google Ads Editor takes CSV only), with their default file names. */
export const exportOptions: { platform: ExportPlatform; format: ExportFormat; label: string; fileName: string }[] = [
  // One campaign per XLSX (the Direct web interface takes no more); several campaigns come as a ZIP of them.
  { platform: 'yandex_direct', format: 'xlsx', label: 'Яндекс Директ, XLSX (файл на кампанию)', fileName: 'direct-changes.xlsx' },
  { platform: 'yandex_direct', format: 'csv', label: 'Яндекс Директ, CSV', fileName: 'direct-changes.csv' },
  { platform: 'google_ads', format: 'csv', label: 'Google Ads Editor, CSV', fileName: 'google-ads-editor-changes.csv' },
];

/**
 * Downloads the export of the accepted changes (saved through src/lib/download.ts): the name it was saved
 * under and the server's notes on what the file leaves for a person.
 */
export async function downloadExport(analysisId: string, platform: ExportPlatform, format: ExportFormat): Promise<{ fileName: string; notes: string[] }> {
  const fallback = exportOptions.find((option) => option.platform === platform && option.format === format)?.fileName ?? `export.${format}`;
  const file = await callApi(analysisRoutes.export, { params: { id: analysisId }, query: { platform, format }, mode: 'download' });
  return { fileName: saveDownloadedFile(file, fallback), notes: decodeExportNotes(file.headers.get(EXPORT_NOTES_HEADER)) };
}

/** The accepted suggestions as a change set of the project's Direct account (read through the API; nothing written yet). */
export const previewDirectChanges = (analysisId: string, options: { pauseKeywords: boolean; bids: boolean; excludeSites: boolean }) =>
  callApi(changeRoutes.preview, { params: { id: analysisId }, body: { pause_keywords: options.pauseKeywords, bids: options.bids, exclude_sites: options.excludeSites } });

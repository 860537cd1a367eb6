/**
 * An analysis' results answer (summary + first findings page) as one React Query definition, shared by
 * the analysis screens and every screen that shows an analysis' money figure (project cards, the project
 * page, the history), so each reads the same cache entry: a results screen once opened shows offline,
 * and its money shows on the cards without another request.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { analysisRoutes } from '@contract/routes/analyses.js';
import { readMoneyStory, type StoredMoneyStory } from '@contract/analysis-results.js';
import { callApi } from './call-api';

export const analysisResultsKey = (analysisId: string) => ['analyses', 'results', analysisId] as const;

/**
 * GET /analyses/:id/results: the summary (every figure of the header) and the first findings page.
 * Kept on disk (`meta.persist`, < 100 KB), so the results screen of an analysis once opened shows
 * offline. A finished result does not change by itself; decision changes refetch it (its counts).
 */
export const resultsQueryOptions = (analysisId: string) =>
  queryOptions({
    queryKey: analysisResultsKey(analysisId),
    queryFn: ({ signal }) => callApi(analysisRoutes.results, { params: { id: analysisId }, signal }),
    staleTime: Infinity,
    meta: { persist: true },
  });

/** Per-month money of an analysis' summary when it has the money story (older analyses have none). */
export function moneyPerMonthOf(summary: unknown): number | null {
  if (!summary || typeof summary !== 'object') return null;
  const record = summary as { money?: StoredMoneyStory | null; money_per_month?: unknown; settings?: { targetCpa?: number | null } };
  if (record.money && typeof record.money.perMonth === 'number') return readMoneyStory(record.money, record.settings?.targetCpa ?? null).perMonth;
  if (typeof record.money_per_month === 'number') return record.money_per_month;
  return null;
}

/**
 * An analysis' money figure for a card or a row: the one the server lists with it, else the one of its
 * results summary when that is already cached on this device (opened before: no request is made for
 * it), else with `fetch` the summary is read (one small request, kept for offline too). Null when the
 * analysis has none (older analyses render as before).
 */
export function useAnalysisMoney(analysisId: string | null, given: number | null | undefined, options: { fetch?: boolean } = {}): number | null {
  const results = useQuery({ ...resultsQueryOptions(analysisId ?? ''), enabled: Boolean(options.fetch && analysisId) && given === undefined, retry: false });
  const queryClient = useQueryClient();
  if (given !== undefined) return given;
  if (!analysisId) return null;
  const summary = results.data?.summary ?? queryClient.getQueryData(resultsQueryOptions(analysisId).queryKey)?.summary;
  return moneyPerMonthOf(summary);
}

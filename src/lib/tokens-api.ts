/**
 * The token calls of the PWA and their React Query definitions (one definition per query, used by
 * the header indicator, the tokens page and any loader alike).
 */
import { queryOptions } from '@tanstack/react-query';
import { tokenRoutes } from '@contract/routes/tokens.js';
import type { HistoryPage, LedgerEntryType } from '@contract/tokens.js';
import { ApiError } from './api-client';
import { callApi } from './call-api';
import { tokenKeys } from './paid-runs';

/** Spec section 9: the balance indicator refreshes every minute. */
export const BALANCE_REFRESH_MS = 60_000;
export const HISTORY_PAGE_SIZE = 20;

/**
 * Spec section 4: a 401 on the balance means "no balance to show", which the indicator shows as 0
 * (the API client has already tried its one refresh by then).
 */
export async function fetchBalance(signal?: AbortSignal): Promise<number> {
  try {
    const { balance } = await callApi(tokenRoutes.balance, { signal });
    return balance;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return 0;
    throw error;
  }
}

export const balanceQueryOptions = () =>
  queryOptions({
    queryKey: tokenKeys.balance(),
    queryFn: ({ signal }) => fetchBalance(signal),
    // Kept on disk so the balance still shows offline, but always asked again on mount: after a reload
    // the header must show a credit made elsewhere (an invoice paid, a transfer), not the saved figure.
    staleTime: 0,
    meta: { persist: true },
  });

export interface HistoryFilter {
  page: number;
  type: LedgerEntryType | null;
}

export const historyQueryOptions = (filter: HistoryFilter) =>
  queryOptions({
    queryKey: tokenKeys.history(filter),
    queryFn: ({ signal }) =>
      callApi(tokenRoutes.history, {
        query: { page: filter.page, page_size: HISTORY_PAGE_SIZE, type: filter.type ?? undefined },
        signal,
      }),
    // Kept on disk: a copy restored after a reload must be fetched again however young it is.
    staleTime: 0,
    meta: { persist: true },
  });

/** The largest page the history endpoint serves. */
const MAX_PAGE_SIZE = 100;
/** A safety stop: the chart never walks more than this many pages. */
const MAX_SPENDING_PAGES = 20;

/** Every entry of the last `days` days (newest first), for the spend chart. */
export async function fetchRecentEntries(days: number, now: Date, signal?: AbortSignal): Promise<HistoryPage['items']> {
  const from = new Date(now);
  from.setHours(0, 0, 0, 0);
  from.setDate(from.getDate() - (days - 1));
  const items: HistoryPage['items'] = [];
  for (let page = 1; page <= MAX_SPENDING_PAGES; page += 1) {
    const answer = await callApi(tokenRoutes.history, { query: { page, page_size: MAX_PAGE_SIZE, from: from.toISOString() }, signal });
    items.push(...answer.items);
    if (answer.items.length === 0 || page * answer.page_size >= answer.total) break;
  }
  return items;
}

export const spendingQueryOptions = (days: number) =>
  queryOptions({
    queryKey: tokenKeys.spending(days),
    queryFn: ({ signal }) => fetchRecentEntries(days, new Date(), signal),
    meta: { persist: true },
  });

/**
 * The paged results API of an analysis (contract/analysis-pages.ts) as React Query definitions:
 * the results answer (summary + first findings page, kept on disk for offline), and the lists read page
 * by page (findings, a finding's items, suggestions, semantic sections). One definition per query,
 * shared by every screen; list keys carry their filter, so each filtered list is cached on its own.
 */
import { infiniteQueryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import {
  RESULTS_PAGE_SIZE_DEFAULT,
  type BulkDecisionRequest,
  type FindingsPage,
  type Page,
  type SemanticPage,
  type SemanticSection,
  type SuggestionsFilterInput,
  type SuggestionsPage,
  type SuggestionWithDecision,
} from '@contract/analysis-pages.js';
import { analysisResultsKey } from '@/lib/analysis-results';
import { analysisRoutes } from '@contract/routes/analyses.js';
import { callApi } from '@/lib/call-api';
import { formatCount } from '@contract/format';

/** Page size of every list the screens read (the server allows up to 500). */
export const LIST_PAGE_SIZE = RESULTS_PAGE_SIZE_DEFAULT;
/** A finding's items loaded at a time when its «N фраз» list is opened. */
export const FINDING_ITEMS_PAGE_SIZE = 100;

/** Filters of the findings list (the URL search of the results screen carries the same). */
export interface FindingsListFilter {
  severity?: string[];
  check?: string[];
  campaign?: string[];
  group?: string[];
  text?: string;
  sort?: 'money' | 'severity';
}

/** Filters of the suggestions list (the semantic screen's URL search), also the filter of a bulk decision. */
export type SuggestionsListFilter = SuggestionsFilterInput;

export const pageKeys = {
  results: analysisResultsKey,
  findingsOf: (analysisId: string) => ['analyses', 'findings', analysisId] as const,
  findings: (analysisId: string, filter: FindingsListFilter) => ['analyses', 'findings', analysisId, filter] as const,
  findingItems: (analysisId: string, findingId: string) => ['analyses', 'finding-items', analysisId, findingId] as const,
  suggestionsOf: (analysisId: string) => ['analyses', 'suggestions', analysisId] as const,
  suggestions: (analysisId: string, filter: SuggestionsListFilter) => ['analyses', 'suggestions', analysisId, filter] as const,
  semantic: (analysisId: string, section: SemanticSection) => ['analyses', 'semantic', analysisId, section] as const,
};

/**
 * The next page number, or undefined when the last one is loaded. Past a capped total (more than
 * `RESULTS_TOTAL_CAP` matches, not counted further) a full page means there may be more.
 */
export const nextPageOf = (last: Page<unknown>) =>
  last.page * last.page_size < last.total || (last.total_capped === true && last.items.length === last.page_size) ? last.page + 1 : undefined;

/** Drops empty values, so `{}` and `{ text: '' }` are the same list (one cache entry, one request). */
export function cleanFilter<T extends object>(filter: T): T {
  const clean = Object.entries(filter).filter(([, value]) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0));
  return Object.fromEntries(clean.sort(([a], [b]) => a.localeCompare(b))) as T;
}

export const isEmptyFilter = (filter: object) => Object.keys(cleanFilter(filter)).length === 0;

/**
 * Findings page by page. The unfiltered list by money starts from the first page of the results answer
 * (`firstPage`), so it shows at once and offline.
 */
export const findingsQueryOptions = (analysisId: string, filter: FindingsListFilter, firstPage?: FindingsPage) =>
  infiniteQueryOptions({
    queryKey: pageKeys.findings(analysisId, cleanFilter(filter)),
    queryFn: ({ pageParam, signal }) =>
      callApi(analysisRoutes.findings, { params: { id: analysisId }, query: { ...cleanFilter(filter), page: pageParam, page_size: LIST_PAGE_SIZE }, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
    staleTime: Infinity,
    ...(firstPage ? { initialData: { pages: [firstPage], pageParams: [1] } satisfies InfiniteData<FindingsPage, number> } : {}),
  });

/** Every entity of an aggregated finding («N фраз»), worst first, a page at a time. */
export const findingItemsQueryOptions = (analysisId: string, findingId: string) =>
  infiniteQueryOptions({
    queryKey: pageKeys.findingItems(analysisId, findingId),
    queryFn: ({ pageParam, signal }) =>
      callApi(analysisRoutes.findingItems, { params: { id: analysisId, findingId }, query: { page: pageParam, page_size: FINDING_ITEMS_PAGE_SIZE }, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
    staleTime: Infinity,
  });

/** Suggestions with their decisions, by money, page by page. */
export const suggestionsQueryOptions = (analysisId: string, filter: SuggestionsListFilter) =>
  infiniteQueryOptions({
    queryKey: pageKeys.suggestions(analysisId, cleanFilter(filter)),
    queryFn: ({ pageParam, signal }) =>
      callApi(analysisRoutes.suggestions, { params: { id: analysisId }, query: { ...cleanFilter(filter), page: pageParam, page_size: LIST_PAGE_SIZE }, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
    staleTime: Infinity,
  });

export const semanticSectionQueryOptions = <S extends SemanticSection>(analysisId: string, section: S) =>
  infiniteQueryOptions({
    queryKey: pageKeys.semantic(analysisId, section),
    queryFn: ({ pageParam, signal }) =>
      // The table types a section's items as any section's; S names which one this page holds.
      callApi(analysisRoutes.semantic, { params: { id: analysisId, section }, query: { page: pageParam, page_size: LIST_PAGE_SIZE }, signal }) as Promise<SemanticPage<S>>,
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
    staleTime: Infinity,
  });

/** Every item of the loaded pages, in order. */
export const itemsOf = <T>(data: InfiniteData<Page<T>, unknown> | undefined): T[] => data?.pages.flatMap((page) => page.items) ?? [];
/** The list's total (from the last loaded page), or null before any page. */
export const totalOf = (data: InfiniteData<Page<unknown>, unknown> | undefined): number | null => data?.pages.at(-1)?.total ?? null;
/**
 * The list's total as the screens write it: «более 10 000» while the server stopped counting
 * (`total_capped`) and the pages go on; once the last page is in, what was read is the total.
 */
export function totalLabelOf(data: InfiniteData<Page<unknown>, unknown> | undefined): string | null {
  const last = data?.pages.at(-1);
  if (!last) return null;
  if (!last.total_capped) return formatCount(last.total);
  const read = (last.page - 1) * last.page_size + last.items.length;
  return nextPageOf(last) === undefined ? formatCount(read) : `более ${formatCount(Math.max(last.total, read))}`;
}

// ------------------------------------------------------------------------------------ decisions

export type Decision = 'accepted' | 'rejected' | 'undecided';

/**
 * `PATCH /analyses/:id/decisions`: one suggestion's decision (and the edited value of an accepted ad
 * fix); the rest of the choice stays on the server, so a click costs the same however many are decided.
 */
export const saveDecision = (analysisId: string, id: string, decision: Decision, value?: string) =>
  callApi(analysisRoutes.changeDecisions, {
    params: { id: analysisId },
    body: { changes: [{ id, decision, ...(decision === 'accepted' && value !== undefined ? { value } : {}) }] },
  });

/** `POST /analyses/:id/decisions/bulk`: every suggestion matching the filter at once (100 000 included). */
export const saveBulkDecision = (analysisId: string, body: BulkDecisionRequest) =>
  callApi(analysisRoutes.bulkDecisions, { params: { id: analysisId }, body });

/** Writes one suggestion's new decision into every loaded suggestions page (the lists show it at once). */
export function setDecisionInLists(client: QueryClient, analysisId: string, id: string, decision: Decision, value?: string): void {
  client.setQueriesData<InfiniteData<SuggestionsPage, number>>({ queryKey: pageKeys.suggestionsOf(analysisId) }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.map((item): SuggestionWithDecision => {
              if (item.id !== id) return item;
              const { value: _old, ...rest } = item;
              return { ...rest, decision: decision === 'undecided' ? null : decision, ...(decision === 'accepted' && value !== undefined ? { value } : {}) } as SuggestionWithDecision;
            }),
          })),
        }
      : data,
  );
}

/** After decisions change: the counts of the results answer and the filtered lists are read again. */
export async function refreshAfterDecisions(client: QueryClient, analysisId: string, options: { lists: boolean }): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: pageKeys.results(analysisId) }),
    options.lists ? client.invalidateQueries({ queryKey: pageKeys.suggestionsOf(analysisId) }) : Promise.resolve(),
  ]);
}

/**
 * A route loader's first data: the screen's queries are put in the React Query cache before it renders,
 * so hovering a link (the router's intent preloading) fetches the data as well as the code, and the
 * screen opens with it. The screens keep reading the same queries with `useQuery`, so their own loading,
 * error and offline states stay theirs: a failed load is left to the screen (never the router's error
 * page), and offline nothing is awaited (a query waits for the network, which would hold the navigation).
 * Screens that poll (a run's progress, a plan being written) load their polled state themselves.
 */
import { onlineManager, type EnsureInfiniteQueryDataOptions, type EnsureQueryDataOptions, type QueryClient } from '@tanstack/react-query';

/**
 * The `staleTime` of data a screen must fetch again whenever it opens (payments, invoices: they change
 * elsewhere). Data this young counts as fresh, so what the route's loader has just fetched is not asked
 * for a second time as the screen mounts; a copy from an earlier visit is older and is fetched again, and
 * so is a copy restored from disk after a reload, however young (the persister marks those stale).
 */
export const FETCHED_ON_OPEN_MS = 5_000;

// Any screen's query or paged list (its first page): each one's data and key types differ, and only the cache is filled here.
/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyList = EnsureInfiniteQueryDataOptions<any, any, any, any, any>;
type AnyQuery = EnsureQueryDataOptions<any, any, any, any> | AnyList;
/* eslint-enable @typescript-eslint/no-explicit-any */

const isList = (query: AnyQuery): query is AnyList => 'initialPageParam' in query;

export async function loadFirstData(queryClient: QueryClient, ...queries: AnyQuery[]): Promise<void> {
  if (!onlineManager.isOnline()) return;
  await Promise.all(
    queries.map((query) => (isList(query) ? queryClient.ensureInfiniteQueryData(query) : queryClient.ensureQueryData(query)).catch(() => undefined)),
  );
}

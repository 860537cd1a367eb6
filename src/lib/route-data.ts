/**
 * A route loader's first data: the screen's queries are put in the React Query cache before it renders,
 * so hovering a link (the router's intent preloading) fetches the data as well as the code, and the
 * screen opens with it. The screens keep reading the same queries with `useQuery`, so their own loading,
 * error and offline states stay theirs: a failed load is left to the screen (never the router's error
 * page), and offline nothing is awaited (a query waits for the network, which would hold the navigation).
 * Screens that poll (a run's progress, a plan being written) load their polled state themselves.
 */
import { onlineManager, type EnsureQueryDataOptions, type QueryClient } from '@tanstack/react-query';

// Any screen's query: each one's data and key types differ, and only the cache is filled here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQuery = EnsureQueryDataOptions<any, any, any, any>;

export async function loadFirstData(queryClient: QueryClient, ...queries: AnyQuery[]): Promise<void> {
  if (!onlineManager.isOnline()) return;
  await Promise.all(queries.map((query) => queryClient.ensureQueryData(query).catch(() => undefined)));
}

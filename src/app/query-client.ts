/**
 * The React Query client and its persistence.
 *
 * Only queries marked with `meta: { persist: true }` (balance, projects, analysis history, the results
 * answer of each analysis opened: summary and first findings page, small since results are paged) are
 * written to local storage, so they still show offline. The cache is stamped with a buster made of
 * the app version and the user (and organization): a cache saved for one identity is never restored
 * for another, and it is wiped on logout.
 */
import { MutationCache, QueryClient, dehydrate, onlineManager } from '@tanstack/react-query';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { removeOldestQuery, type PersistedClient, type Persister } from '@tanstack/react-query-persist-client';
import { ApiError } from '@/lib/api-client';
import { sessionSnapshotStorage } from '@/lib/storage';
import { onIdentityChange } from '@/app/session';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: Record<string, unknown> & { persist?: boolean };
  }
}

export const APP_VERSION: string = import.meta.env.VITE_APP_VERSION ?? '0.1.0';
export const QUERY_CACHE_KEY = 'reklama-lab-query-cache';
/** How long a persisted cache is worth restoring; queries are kept in memory as long. */
export const PERSIST_MAX_AGE = 1000 * 60 * 60 * 24 * 3;
export const OFFLINE_MUTATION_MESSAGE = 'Нет подключения к сети';

/** The buster of the identity whose cache may be restored now (read from the stored session). */
export function currentCacheBuster(): string {
  const snapshot = sessionSnapshotStorage.get();
  const userId = snapshot?.user.id ?? 'anonymous';
  const organizationId = snapshot?.organization?.id ?? 'none';
  return `${APP_VERSION}:${userId}:${organizationId}`;
}

/** Structural type: the persist-client package carries its own copy of query-core's Query class. */
interface PersistableQuery {
  meta?: Record<string, unknown>;
  state: { data: unknown };
}

/**
 * A marked query with an answer. Its last refresh may have failed (the network dropped while the balance
 * was asked again, then the user reloaded offline): the answer it still holds is what to show offline,
 * so it is kept too (see `asLastAnswers`), not dropped as a query in error would be by default.
 */
export function shouldPersistQuery(query: PersistableQuery): boolean {
  return query.meta?.persist === true && query.state.data !== undefined;
}

/**
 * The cache as written to disk: a query whose last refresh failed is saved as the answer it holds. The
 * failure belongs to the page that saw it (and an error does not survive JSON); restored as an error, the
 * next start would open in an error state instead of showing the answer and asking again.
 */
function asLastAnswers(client: PersistedClient): PersistedClient {
  const queries = client.clientState.queries.map((query) =>
    query.state.status === 'error' ? { ...query, state: { ...query.state, status: 'success' as const, error: null, fetchFailureCount: 0, fetchFailureReason: null } } : query,
  );
  return { ...client, clientState: { ...client.clientState, queries } };
}

function shouldRetry(failureCount: number, error: unknown): boolean {
  // A 4xx will not get better by asking again; a network hiccup might.
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, gcTime: PERSIST_MAX_AGE, staleTime: 30_000 },
      // 'online': a mutation started offline is paused and resumes when the network returns.
      mutations: { networkMode: 'online', retry: 0 },
    },
    mutationCache: new MutationCache({
      onMutate: (_variables, mutation) => {
        // A mutation that never waits for the network (a paid start: src/lib/paid-runs.ts) is not queued either.
        if (!onlineManager.isOnline() && mutation.options.networkMode !== 'always') {
          // sonner is loaded with the toaster (lazily); by the time a user acts it is there.
          void import('sonner').then(({ toast }) =>
            toast.warning(OFFLINE_MUTATION_MESSAGE, {
              id: 'offline-mutation',
              description: 'Действие выполнится, когда связь восстановится.',
            }),
          );
        }
      },
    }),
  });
}

function createPersister(throttleTime: number): Persister {
  const storage = typeof window === 'undefined' ? undefined : window.localStorage;
  // Storage full (results answers of many analyses opened): the oldest answers give way, not the save.
  const base = createSyncStoragePersister({ storage, key: QUERY_CACHE_KEY, throttleTime, retry: removeOldestQuery });
  return {
    // The buster is taken at save time, so a cache saved after a login carries the new identity.
    persistClient: (client) => base.persistClient(asLastAnswers({ ...client, buster: currentCacheBuster() })),
    // What a previous page life kept is shown at once but is stale however young: the server may have changed it
    // since (an invoice the admin marked paid a second before a reload), so each screen asks for it again.
    restoreClient: async () => {
      const restored = await base.restoreClient();
      for (const query of restored?.clientState.queries ?? []) query.state.isInvalidated = true;
      return restored;
    },
    removeClient: () => base.removeClient(),
  };
}

// React Query assumes "online" until the first online/offline event; an app reopened without
// network must know at once, so queries wait (showing the restored cache) instead of failing.
if (typeof navigator !== 'undefined' && typeof navigator.onLine === 'boolean') onlineManager.setOnline(navigator.onLine);

export const queryClient = createQueryClient();
/** Writes at most once a second while the app runs: a busy screen does not serialise the cache on every change. */
export const queryPersister = createPersister(1000);

export const persistOptions = {
  persister: queryPersister,
  maxAge: PERSIST_MAX_AGE,
  get buster() {
    return currentCacheBuster();
  },
  dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
};

/** Forgets every cached answer, in memory and on disk. */
export function resetQueryCache(client: QueryClient = queryClient): void {
  client.cancelQueries().catch(() => undefined);
  client.clear();
  try {
    void queryPersister.removeClient();
  } catch {
    // storage blocked: nothing persisted either
  }
}

onIdentityChange(() => resetQueryCache());

/**
 * The throttled writer may still hold the latest answers when the page goes away (a reload or a closed
 * tab within a second of the balance arriving): write them at once, or the next offline start would show
 * an older cache or none. `pagehide` covers unloads, `visibilitychange` a phone that backgrounds the app.
 */
export function saveQueryCacheNow(client: QueryClient = queryClient): void {
  const persistedClient = asLastAnswers({ buster: currentCacheBuster(), timestamp: Date.now(), clientState: dehydrate(client, { shouldDehydrateQuery: shouldPersistQuery }) });
  try {
    window.localStorage.setItem(QUERY_CACHE_KEY, JSON.stringify(persistedClient));
  } catch {
    // storage full or blocked: the throttled writer has the same problem, nothing more to do
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => saveQueryCacheNow());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') saveQueryCacheNow();
  });
}

import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSave } from '@tanstack/react-query-persist-client';
import { vi } from 'vitest';
import { createQueryClient, currentCacheBuster, persistOptions } from '@/app/query-client';

type PersistClient = Parameters<typeof persistQueryClientSave>[0]['queryClient'];

/**
 * What a reload without network finds: `before`'s cache written to disk as the app writes it, the
 * network gone, and a new query client restored from the disk. The caller sets the network back
 * (`onlineManager.setOnline(true)`) when the test ends.
 */
export async function reloadedOffline(before: QueryClient): Promise<QueryClient> {
  vi.useFakeTimers();
  try {
    await persistQueryClientSave({ queryClient: before as unknown as PersistClient, ...persistOptions, buster: currentCacheBuster() });
    // The storage persister writes throttled, once a second.
    vi.advanceTimersByTime(1000);
  } finally {
    vi.useRealTimers();
  }
  onlineManager.setOnline(false);
  const after = createQueryClient();
  await persistQueryClientRestore({ queryClient: after as unknown as PersistClient, ...persistOptions, buster: currentCacheBuster() });
  return after;
}

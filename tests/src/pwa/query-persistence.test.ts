import { persistQueryClientRestore, persistQueryClientSave } from '@tanstack/react-query-persist-client';
import { onlineManager, MutationObserver, type QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const toastWarning = vi.hoisted(() => vi.fn());
vi.mock('sonner', () => ({ toast: { warning: toastWarning, success: vi.fn(), error: vi.fn() } }));

import {
  APP_VERSION,
  QUERY_CACHE_KEY,
  createQueryClient,
  currentCacheBuster,
  persistOptions,
  queryClient,
} from '@/app/query-client';
import { session } from '@/app/session';
import { ownerOrganization, verifiedUser } from '../lib/test-server';

const otherUser = { ...verifiedUser, id: '99999999-9999-4999-8999-999999999999', email: 'boris@example.ru' };

function signedInAs(user: typeof verifiedUser) {
  localStorage.setItem('access_token', `token-${user.id}`);
  localStorage.setItem('session_snapshot', JSON.stringify({ user, organization: ownerOrganization }));
}

const options = () => ({ ...persistOptions, buster: currentCacheBuster() });

/** The storage persister writes throttled (once a second): save, then let the throttle fire. */
// The persist packages carry their own copy of query-core's types: hand them our client as theirs.
type PersistClient = Parameters<typeof persistQueryClientSave>[0]['queryClient'];

async function save(client: QueryClient) {
  vi.useFakeTimers();
  try {
    await persistQueryClientSave({ queryClient: client as unknown as PersistClient, ...options() });
    vi.advanceTimersByTime(1000);
  } finally {
    vi.useRealTimers();
  }
}

beforeEach(() => {
  queryClient.clear();
  toastWarning.mockReset();
});
afterEach(() => onlineManager.setOnline(true));

describe('persisted query cache', () => {
  it('writes only the queries marked meta.persist, stamped with app version and user', async () => {
    signedInAs(verifiedUser);
    const client = createQueryClient();
    await client.fetchQuery({ queryKey: ['tokens', 'balance'], queryFn: () => ({ balance: 120 }), meta: { persist: true } });
    await client.fetchQuery({ queryKey: ['secret', 'draft'], queryFn: () => 'not for disk' });
    await save(client);

    const stored = JSON.parse(localStorage.getItem(QUERY_CACHE_KEY)!);
    expect(stored.buster).toBe(`${APP_VERSION}:${verifiedUser.id}:${ownerOrganization.id}`);
    expect(stored.clientState.queries.map((q: { queryKey: unknown }) => q.queryKey)).toEqual([['tokens', 'balance']]);
  });

  it('restores the cache for the same user (balance shows offline after a reload)', async () => {
    signedInAs(verifiedUser);
    const before = createQueryClient();
    await before.fetchQuery({ queryKey: ['tokens', 'balance'], queryFn: () => ({ balance: 120 }), meta: { persist: true } });
    await save(before);

    const afterReload = createQueryClient();
    await persistQueryClientRestore({ queryClient: afterReload as unknown as PersistClient, ...options() });
    expect(afterReload.getQueryData(['tokens', 'balance'])).toEqual({ balance: 120 });
  });

  it('restores a young answer as stale, so the screen asks again (an invoice paid a second before the reload)', async () => {
    signedInAs(verifiedUser);
    const before = createQueryClient();
    const payments = { queryKey: ['tokens', 'payments'], meta: { persist: true }, staleTime: 5_000 } as const;
    await before.fetchQuery({ ...payments, queryFn: () => [{ status: 'pending' }] });
    await save(before);

    const afterReload = createQueryClient();
    await persistQueryClientRestore({ queryClient: afterReload as unknown as PersistClient, ...options() });
    expect(afterReload.getQueryData(['tokens', 'payments'])).toEqual([{ status: 'pending' }]);
    expect(afterReload.getQueryCache().find({ queryKey: ['tokens', 'payments'] })!.isStale()).toBe(true);
    // Asked again on opening, within its staleTime, it answers what the server says now.
    await expect(afterReload.fetchQuery({ ...payments, queryFn: () => [{ status: 'paid' }] })).resolves.toEqual([{ status: 'paid' }]);
  });

  it('writes the latest answers at once when the page goes away, without waiting for the throttle', async () => {
    signedInAs(verifiedUser);
    localStorage.removeItem(QUERY_CACHE_KEY);
    await queryClient.fetchQuery({ queryKey: ['tokens', 'balance'], queryFn: () => ({ balance: 95 }), meta: { persist: true } });
    expect(localStorage.getItem(QUERY_CACHE_KEY)).toBeNull();

    // A reload right after the balance arrived: the throttled writer has not fired yet.
    window.dispatchEvent(new Event('pagehide'));

    const afterReload = createQueryClient();
    await persistQueryClientRestore({ queryClient: afterReload as unknown as PersistClient, ...options() });
    expect(afterReload.getQueryData(['tokens', 'balance'])).toEqual({ balance: 95 });
  });

  it('keeps the last balance on disk when a refresh fails as the network drops, and restores it as that answer', async () => {
    signedInAs(verifiedUser);
    localStorage.removeItem(QUERY_CACHE_KEY);
    const balance = { queryKey: ['tokens', 'balance'], meta: { persist: true }, retry: false } as const;
    await queryClient.fetchQuery({ ...balance, queryFn: () => 100 });
    // The refresh on opening the screen is cut by the network going away: the query holds 100 and an error.
    await expect(queryClient.fetchQuery({ ...balance, staleTime: 0, queryFn: () => Promise.reject(new TypeError('Failed to fetch')) })).rejects.toThrow();
    expect(queryClient.getQueryState(['tokens', 'balance'])).toMatchObject({ status: 'error', data: 100 });

    // The user reloads, now offline.
    window.dispatchEvent(new Event('pagehide'));
    const afterReload = createQueryClient();
    await persistQueryClientRestore({ queryClient: afterReload as unknown as PersistClient, ...options() });
    expect(afterReload.getQueryState(['tokens', 'balance'])).toMatchObject({ status: 'success', data: 100, error: null });

    // The throttled writer saves it the same way.
    localStorage.removeItem(QUERY_CACHE_KEY);
    await save(queryClient);
    const stored = JSON.parse(localStorage.getItem(QUERY_CACHE_KEY)!);
    expect(stored.clientState.queries).toMatchObject([{ queryKey: ['tokens', 'balance'], state: { status: 'success', data: 100, error: null } }]);
  });

  it('writes them too when a phone sends the app to the background', async () => {
    signedInAs(verifiedUser);
    localStorage.removeItem(QUERY_CACHE_KEY);
    await queryClient.fetchQuery({ queryKey: ['projects'], queryFn: () => ['Диваны Комфорт'], meta: { persist: true } });
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    try {
      document.dispatchEvent(new Event('visibilitychange'));
    } finally {
      visibility.mockRestore();
    }
    const stored = JSON.parse(localStorage.getItem(QUERY_CACHE_KEY)!);
    expect(stored.buster).toBe(currentCacheBuster());
    expect(stored.clientState.queries.map((q: { queryKey: unknown }) => q.queryKey)).toEqual([['projects']]);
  });

  it("never restores one user's cache for another user", async () => {
    signedInAs(verifiedUser);
    const first = createQueryClient();
    await first.fetchQuery({ queryKey: ['projects'], queryFn: () => ['Проект Анны'], meta: { persist: true } });
    await save(first);

    signedInAs(otherUser);
    const second = createQueryClient();
    await persistQueryClientRestore({ queryClient: second as unknown as PersistClient, ...options() });
    expect(second.getQueryData(['projects'])).toBeUndefined();
    expect(localStorage.getItem(QUERY_CACHE_KEY)).toBeNull();
  });

  it('never restores a cache written by another app version', async () => {
    signedInAs(verifiedUser);
    const before = createQueryClient();
    await before.fetchQuery({ queryKey: ['tokens', 'balance'], queryFn: () => ({ balance: 120 }), meta: { persist: true } });
    await save(before);
    // The same cache as an older build left it: only the version part of the buster differs.
    const stored = JSON.parse(localStorage.getItem(QUERY_CACHE_KEY)!);
    localStorage.setItem(QUERY_CACHE_KEY, JSON.stringify({ ...stored, buster: stored.buster.replace(`${APP_VERSION}:`, '0.0.9+old:') }));

    const afterUpdate = createQueryClient();
    await persistQueryClientRestore({ queryClient: afterUpdate as unknown as PersistClient, ...options() });
    expect(afterUpdate.getQueryData(['tokens', 'balance'])).toBeUndefined();
  });

  it("after one user logs out and another logs in, the app shows none of the first user's cached data", async () => {
    signedInAs(verifiedUser);
    await queryClient.fetchQuery({ queryKey: ['projects'], queryFn: () => ['Проект Анны'], meta: { persist: true } });
    await save(queryClient);

    // Offline here: the server call fails, the local logout happens all the same.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await session.logout();
    logged.mockRestore();
    // The next user signs in on the same browser, online or not: nothing of Anna's is left anywhere.
    signedInAs(otherUser);
    expect(queryClient.getQueryData(['projects'])).toBeUndefined();
    const reopened = createQueryClient();
    await persistQueryClientRestore({ queryClient: reopened as unknown as PersistClient, ...options() });
    expect(reopened.getQueryData(['projects'])).toBeUndefined();
  });

  it('logout clears the cache in memory and on disk', async () => {
    signedInAs(verifiedUser);
    await queryClient.fetchQuery({ queryKey: ['tokens', 'balance'], queryFn: () => ({ balance: 5 }), meta: { persist: true } });
    await save(queryClient);
    expect(localStorage.getItem(QUERY_CACHE_KEY)).not.toBeNull();

    session.clearLocal();
    expect(queryClient.getQueryData(['tokens', 'balance'])).toBeUndefined();
    expect(localStorage.getItem(QUERY_CACHE_KEY)).toBeNull();
  });
});

describe('mutations offline', () => {
  it("say 'Нет подключения к сети', wait while offline and run when the network returns", async () => {
    const client = createQueryClient();
    // Mounted as the app's provider mounts it: a mounted client resumes paused mutations when the network returns.
    client.mount();
    const mutationFn = vi.fn(async (name: string) => ({ name }));
    const observer = new MutationObserver(client, { mutationFn });
    onlineManager.setOnline(false);

    const result = observer.mutate('Новый проект');
    await vi.waitFor(() => expect(observer.getCurrentResult().isPaused).toBe(true));
    // sonner is imported on demand (it is not part of the first load).
    await vi.waitFor(() => expect(toastWarning).toHaveBeenCalledWith('Нет подключения к сети', expect.objectContaining({ description: expect.any(String) })));
    expect(mutationFn).not.toHaveBeenCalled();

    onlineManager.setOnline(true);
    await expect(result).resolves.toEqual({ name: 'Новый проект' });
    expect(mutationFn).toHaveBeenCalledTimes(1);
  });

  it('online mutations run at once without the warning', async () => {
    const client = createQueryClient();
    const observer = new MutationObserver(client, { mutationFn: async () => 'ok' });
    await expect(observer.mutate()).resolves.toBe('ok');
    expect(toastWarning).not.toHaveBeenCalled();
  });
});

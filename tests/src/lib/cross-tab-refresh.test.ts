import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { server, useTestServer } from './test-server';

/**
 * Two tabs of one browser: two independent copies of the API client (each tab runs its own modules)
 * sharing local storage and the browser's lock manager, both of whose requests meet an expired
 * access token at the same moment.
 */

useTestServer();

type ApiClientModule = typeof import('@/lib/api-client');

async function openTab(): Promise<ApiClientModule> {
  vi.resetModules();
  const tab = await import('@/lib/api-client');
  tab.setUnauthorizedHandler(() => undefined);
  return tab;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The Web Locks API as the browser gives it to every tab of an origin: one exclusive holder per name, the others queue. */
function fakeLockManager(onRequest: (count: number) => void) {
  const tails = new Map<string, Promise<unknown>>();
  let requests = 0;
  return {
    request(name: string, _options: LockOptions, callback: (lock: Lock | null) => Promise<unknown>): Promise<unknown> {
      requests += 1;
      onRequest(requests);
      const previous = tails.get(name) ?? Promise.resolve();
      const run = previous.then(() => callback({ name, mode: 'exclusive' } as Lock));
      tails.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
    query: async () => ({ held: [], pending: [] }),
  };
}

function installLocks(locks: unknown) {
  Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
}

/** A protected resource that accepts only the access token of the new pair. */
function protectedResource() {
  return http.get('/api/v1/projects', ({ request }) =>
    request.headers.get('authorization') === 'Bearer new-access' ? HttpResponse.json({ items: [] }) : HttpResponse.json({ error: 'Unauthorized' }, { status: 401 }),
  );
}

beforeEach(() => {
  localStorage.setItem('access_token', 'old-access');
  localStorage.setItem('refresh_token', 'old-refresh');
});
afterEach(() => {
  Reflect.deleteProperty(navigator, 'locks');
  localStorage.clear();
});

describe('refreshing the session once per browser', () => {
  it('with Web Locks: two tabs hitting a 401 at once make ONE refresh call; the other tab takes the stored new pair', async () => {
    const refreshBodies: unknown[] = [];
    // The refresh answers only after the second tab has asked for the lock, so the two overlap for sure.
    const bothTabsWaiting = deferred();
    installLocks(fakeLockManager((count) => count === 2 && bothTabsWaiting.resolve()));
    server.use(
      protectedResource(),
      http.post('/api/v1/auth/refresh', async ({ request }) => {
        refreshBodies.push(await request.json());
        await bothTabsWaiting.promise;
        return HttpResponse.json({ access_token: 'new-access', refresh_token: 'new-refresh' });
      }),
    );
    const [tabA, tabB] = [await openTab(), await openTab()];
    expect(tabA.apiClient).not.toBe(tabB.apiClient);

    const answers = await Promise.all([tabA.apiClient.get('/api/v1/projects'), tabB.apiClient.get('/api/v1/projects')]);

    expect(answers).toEqual([{ items: [] }, { items: [] }]);
    expect(refreshBodies).toEqual([{ refresh_token: 'old-refresh' }]);
    expect(localStorage.getItem('access_token')).toBe('new-access');
    expect(localStorage.getItem('refresh_token')).toBe('new-refresh');
  });

  it('with Web Locks: a tab whose refresh starts after another tab stored the new pair does not refresh again', async () => {
    let refreshes = 0;
    installLocks(fakeLockManager(() => undefined));
    server.use(
      protectedResource(),
      http.post('/api/v1/auth/refresh', () => {
        refreshes += 1;
        return HttpResponse.json({ access_token: 'new-access', refresh_token: 'new-refresh' });
      }),
    );
    const [tabA, tabB] = [await openTab(), await openTab()];
    await tabA.apiClient.get('/api/v1/projects');
    // Tab B's next request reads the new access token from the shared storage.
    await expect(tabB.apiClient.get('/api/v1/projects')).resolves.toEqual({ items: [] });
    expect(refreshes).toBe(1);
  });

  it('without Web Locks: each tab refreshes on its own, and the server grace window gives both the same pair', async () => {
    expect('locks' in navigator).toBe(false);
    const refreshBodies: unknown[] = [];
    const bothArrived = deferred();
    server.use(
      protectedResource(),
      http.post('/api/v1/auth/refresh', async ({ request }) => {
        refreshBodies.push(await request.json());
        if (refreshBodies.length === 2) bothArrived.resolve();
        await bothArrived.promise;
        return HttpResponse.json({ access_token: 'new-access', refresh_token: 'new-refresh' });
      }),
    );
    const [tabA, tabB] = [await openTab(), await openTab()];
    const answers = await Promise.all([tabA.apiClient.get('/api/v1/projects'), tabB.apiClient.get('/api/v1/projects')]);
    expect(answers).toEqual([{ items: [] }, { items: [] }]);
    expect(refreshBodies).toEqual([{ refresh_token: 'old-refresh' }, { refresh_token: 'old-refresh' }]);
  });
});

/** Builds the real route tree on a memory history with a fresh query client and the real session. */
import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory, createRouter } from '@tanstack/react-router';
import { routeTree } from '@/routeTree.gen';
import { session, sessionStateAtom, sessionStore } from '@/app/session';
import type { Organization, User } from '@contract/auth.js';


// jsdom has no scrolling; the router's scroll restoration calls it on every navigation.
window.scrollTo = () => undefined;

export function resetSession(): void {
  sessionStore.set(sessionStateAtom, { user: null, organization: null, loading: false, error: null, initialized: false, offline: false });
}

/** Puts a loaded session in place, as after a login. */
export function signIn(user: User, organization: Organization): void {
  localStorage.setItem('access_token', 'access-1');
  localStorage.setItem('refresh_token', 'refresh-1');
  sessionStore.set(sessionStateAtom, { user, organization, loading: false, error: null, initialized: true, offline: false });
}

/** `queryClient`: a client prepared by the test (a cache restored from disk, say); a fresh one otherwise. */
export function createTestRouter(path: string, queryClient: QueryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  return createRouter({
    routeTree,
    context: { queryClient, session },
    history: createMemoryHistory({ initialEntries: [path] }),
  });
}

/** Navigates like a user would and answers where the guards let them land. */
export async function landingPathOf(path: string): Promise<string> {
  const router = createTestRouter(path);
  await router.load();
  // Redirects thrown by guards start a new navigation; wait until it settles.
  for (let i = 0; i < 20 && (router.state.status !== 'idle' || router.state.isLoading); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return router.state.location.pathname;
}

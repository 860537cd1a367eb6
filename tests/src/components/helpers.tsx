/**
 * Shared by the layout, notification, organization and tokens tests: a msw server, a signed-in
 * session, and a real TanStack router (memory history) around the component under test.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  Outlet,
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  useRouterState,
} from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { setupServer } from 'msw/node';
import { noServerNotifications } from '../lib/test-server';
import type { Organization, User } from '@contract/auth.js';
import { sessionStateAtom, sessionStore, setSessionNavigator } from '@/app/session';

export const server = setupServer(noServerNotifications);

// jsdom has no scrolling; the router's scroll restoration calls it on every navigation.
window.scrollTo = (() => undefined) as typeof window.scrollTo;

export const testUser: User = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'anna@example.com',
  first_name: 'Анна',
  last_name: 'Петрова',
  full_name: 'Анна Петрова',
  role: 'user',
  is_verified: true,
};

export const testOrganization: Organization = {
  id: '00000000-0000-4000-8000-0000000000aa',
  name: 'Ромашка',
  plan_type: 'free',
  role: 'owner',
};

/** Puts a loaded session in the store (and a token in storage, as after a real login). */
export function signIn(user: Partial<User> = {}, organization: Partial<Organization> | null = {}): void {
  localStorage.setItem('access_token', 'access-1');
  localStorage.setItem('refresh_token', 'refresh-1');
  sessionStore.set(sessionStateAtom, {
    user: { ...testUser, ...user },
    organization: organization === null ? null : { ...testOrganization, ...organization },
    loading: false,
    error: null,
    initialized: true,
    offline: false,
  });
}

export function signOut(): void {
  sessionStore.set(sessionStateAtom, { user: null, organization: null, loading: false, error: null, initialized: true, offline: false });
}

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: 0 } } });
}

/** Shows the current path so tests can assert where a click led. */
function CurrentPath() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  return <output data-testid="current-path">{pathname}</output>;
}

const PATHS = ['/projects', '/tokens', '/organization', '/organization/settings', '/admin', '/auth', '/about'];

/**
 * Renders `ui` above an Outlet in a router whose routes are the app's paths with placeholder pages
 * (or `pages` for the ones a test cares about), starting at `path`.
 */
export function renderWithRouter(
  ui: ReactNode,
  { path = '/projects', pages = {}, queryClient = createTestQueryClient() }: { path?: string; pages?: Record<string, () => ReactNode>; queryClient?: QueryClient } = {},
) {
  const rootRoute = createRootRoute({
    component: () => (
      <>
        {ui}
        <CurrentPath />
        <Outlet />
      </>
    ),
  });
  const routes = [...new Set([...PATHS, ...Object.keys(pages)])].map((routePath) =>
    createRoute({
      getParentRoute: () => rootRoute,
      path: routePath,
      component: pages[routePath] ?? (() => <p>page {routePath}</p>),
    }),
  );
  const router = createRouter({
    routeTree: rootRoute.addChildren(routes),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  setSessionNavigator((to) => {
    void router.navigate({ to });
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router as never} />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

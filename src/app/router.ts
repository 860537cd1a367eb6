import { createRouter } from '@tanstack/react-router';
import { routeTree } from '@/routeTree.gen';
import { RouteError } from '@/components/layout/RouteError';
import { session } from '@/app/session';
import { queryClient } from './query-client';
import type { RouterContext } from './router-context';

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    // Loaders read React Query, which has its own freshness rules.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    // Russian, and a stale chunk after a deploy reloads into the new version (not the English default).
    defaultErrorComponent: RouteError,
  });
}

export const router = createAppRouter({ queryClient, session });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
  interface StaticDataRouteOption {
    /** Spec section 2: the route meta flag that hides the header. */
    hideHeader?: boolean;
    /** The product's footer (support chat, documents) is left out: a white-label page (a shared client report). */
    hideFooter?: boolean;
  }
}

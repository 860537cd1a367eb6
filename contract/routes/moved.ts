/**
 * Paths that moved: the old one answers 308 (method and body kept) with its new place as `Location`,
 * the path parameters and the query string carried over (server/lib/moved-routes.ts).
 */
import { adminRoutes } from './admin.js';
import { pageCheckRoutes } from './page-check.js';

export const movedRoutes = [
  { method: 'POST', from: '/api/v1/tokens/admin/credit', to: adminRoutes.creditTokens },
  // The page check was «page relevance» in its paths.
  { method: 'GET', from: '/api/v1/projects/:id/page-relevance/urls', to: pageCheckRoutes.urls },
  { method: 'POST', from: '/api/v1/projects/:id/page-relevance', to: pageCheckRoutes.start },
  { method: 'GET', from: '/api/v1/projects/:id/page-relevance', to: pageCheckRoutes.list },
  { method: 'GET', from: '/api/v1/page-relevance/:id', to: pageCheckRoutes.get },
  { method: 'GET', from: '/api/v1/page-relevance/:id/events', to: pageCheckRoutes.events },
  { method: 'GET', from: '/api/v1/page-relevance/:id/results', to: pageCheckRoutes.results },
  { method: 'POST', from: '/api/v1/page-relevance/:id/cancel', to: pageCheckRoutes.cancel },
] as const;

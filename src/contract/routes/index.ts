/**
 * The route table of the API (see route.ts). Domains not listed here still declare their contracts in
 * their server routes.ts and are called with paths written in the PWA; they move here one by one.
 * The PWA's features import their own domain's module, so a lazily loaded screen carries only its table.
 */
import { aiPlanRoutes } from './ai-plan.js';
import { authRoutes } from './auth.js';
import { organizationRoutes } from './organizations.js';
import { relevanceRoutes } from './relevance.js';

export const routes = {
  auth: authRoutes,
  organizations: organizationRoutes,
  relevance: relevanceRoutes,
  aiPlan: aiPlanRoutes,
};

export type { ApiRoute, ApiResponse, ApiCallParts } from './route.js';

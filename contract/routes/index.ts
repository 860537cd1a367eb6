/**
 * The route table of the API (see route.ts). Domains not listed here still declare their contracts in
 * their server routes.ts and are called with paths written in the PWA; they move here one by one.
 * The PWA's features import their own domain's module, so a lazily loaded screen carries only its table.
 */
import { adminRoutes } from './admin.js';
import { aiPlanRoutes } from './ai-plan.js';
import { analysisRoutes } from './analyses.js';
import { auditChangeRoutes } from './audit-changes.js';
import { authRoutes } from './auth.js';
import { changeRoutes } from './changes.js';
import { directConnectionRoutes } from './direct-connections.js';
import { monitoringRoutes } from './monitoring.js';
import { organizationRoutes } from './organizations.js';
import { paymentRoutes } from './payments.js';
import { projectRoutes } from './projects.js';
import { pageCheckRoutes } from './page-check.js';
import { reportRoutes } from './reports.js';
import { tokenRoutes } from './tokens.js';

export const routes = {
  auth: authRoutes,
  organizations: organizationRoutes,
  pageCheck: pageCheckRoutes,
  aiPlan: aiPlanRoutes,
  analyses: analysisRoutes,
  projects: projectRoutes,
  directConnections: directConnectionRoutes,
  changes: changeRoutes,
  tokens: tokenRoutes,
  payments: paymentRoutes,
  admin: adminRoutes,
  monitoring: monitoringRoutes,
  auditChanges: auditChangeRoutes,
  reports: reportRoutes,
};

export type { ApiRoute, ApiResponse, ApiCallParts } from './route.js';

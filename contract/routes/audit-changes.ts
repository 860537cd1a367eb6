/** What changed between audits of a project, its trend, and the agency board (issue 23). */
import { ErrorBodySchema, IdParamsSchema } from '../common.js';
import { AgencyBoardSchema, AuditChangesQuerySchema, AuditChangesSchema, AuditTrendSchema } from '../audit-changes.js';
import { defineRoute } from './route.js';

const tags = ['audit-changes'];

export const auditChangeRoutes = {
  changes: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/:id/audit-changes',
    params: IdParamsSchema,
    query: AuditChangesQuerySchema,
    response: { 200: AuditChangesSchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema },
    tags,
    summary:
      'What changed between two completed audits of the project (default: the last two): findings new, worse, fixed, better, still open, matched by check and entity, each with its ₽/month; per_status of each at most (100 by default), counts of all',
    auth: true,
  }),
  trend: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/:id/audit-trend',
    params: IdParamsSchema,
    response: { 200: AuditTrendSchema, 404: ErrorBodySchema },
    tags,
    summary: "The project's completed audits, oldest first: score and money lost per month of each",
    auth: true,
  }),
  board: defineRoute({
    method: 'GET',
    path: '/api/v1/agency-board',
    response: { 200: AgencyBoardSchema },
    tags,
    summary: "Every project of the caller's organization: last run, the money trend of its last audits, findings new since the audit before",
    auth: true,
  }),
};

/**
 * /api/v1/projects/:id/audit-changes, /audit-trend and /api/v1/agency-board (contract/routes/audit-changes.ts):
 * a project of another organization is 404, as everywhere.
 */
import type { FastifyPluginAsync } from 'fastify';
import { auditChangesMessages as m, CHANGES_PER_STATUS_DEFAULT, changeStatuses } from '../../contract/audit-changes.js';
import { auditChangeRoutes as routes } from '../../contract/routes/audit-changes.js';
import { callerOf } from '../auth/authenticate.js';
import { HttpError } from '../lib/errors.js';
import { addRoute } from '../lib/routes.js';
import { findProject } from '../projects/service.js';
import { readAgencyBoard } from './agency-board.js';
import { latestAudits, readAuditChanges, readAuditTrend } from './audit-changes.js';

export const auditChangeRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.changes, async (request) => {
    const project = await findProject(app.db, callerOf(request).organizationId, request.params.id);
    let { from, to } = request.query;
    if (!from || !to) {
      const [latest, previous] = await latestAudits(app.db, project.id);
      if (!latest || !previous) throw new HttpError(409, 'NOT_ENOUGH_AUDITS', m.notEnoughAudits);
      from ??= previous.id;
      to ??= latest.id;
    }
    const result = await readAuditChanges(app.db, { projectId: project.id, fromAnalysisId: from, toAnalysisId: to });
    const perStatus = request.query.per_status ?? CHANGES_PER_STATUS_DEFAULT;
    const changes = changeStatuses.flatMap((status) => result.changes.filter((change) => change.status === status).slice(0, perStatus));
    const dates = await app.db.selectFrom('analyses').select(['id', 'created_at']).where('id', 'in', [from, to]).execute();
    const dateOf = (id: string) => dates.find((row) => row.id === id)!.created_at.toISOString();
    return { ...result, changes, from: { id: from, created_at: dateOf(from) }, to: { id: to, created_at: dateOf(to) } };
  });

  addRoute(app, routes.trend, async (request) => {
    const project = await findProject(app.db, callerOf(request).organizationId, request.params.id);
    return readAuditTrend(app.db, project.id);
  });

  addRoute(app, routes.board, async (request) => readAgencyBoard(app.db, callerOf(request).organizationId));
};

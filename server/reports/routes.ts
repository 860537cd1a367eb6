import type { FastifyPluginAsync } from 'fastify';
import { reportRoutes as routes } from '../../contract/routes/reports.js';
import { callerOf } from '../auth/authenticate.js';
import { buildDocument } from '../lib/documents.js';
import { addRoute } from '../lib/routes.js';
import { getReportBranding, updateReportBranding } from './branding.js';
import { readClientReport } from './report-data.js';
import { createShareLink, listShareLinks, publicReport, revokeShareLink } from './share-links.js';

const reportPdf = new URL('./report-pdf.js', import.meta.url);

/**
 * The public page's call, per client address: generous for people (a page asks once per opening), a wall
 * for a script hammering the database. Tokens are 256 random bits: the limit is not what stops guessing.
 */
const publicReportLimit = { rateLimit: { max: 120, timeWindow: 60_000 } };

/** A file name of ASCII letters, digits and dashes (the project's name may be anything). */
const pdfFileName = (auditedAt: string) => `audit-report-${auditedAt.slice(0, 10)}.pdf`;

/** Registered under /api/v1 (the paths in the route table are full). */
export const reportApiRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.branding, async (request) => getReportBranding(app.db, callerOf(request)));
  addRoute(app, routes.updateBranding, async (request) => updateReportBranding(app.db, callerOf(request), request.body));

  addRoute(app, routes.pdf, async (request, reply) => {
    const report = await readClientReport(app.db, callerOf(request).organizationId, request.params.id);
    const pdf = await buildDocument(reportPdf, 'renderClientReportPdf', report);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${pdfFileName(report.auditedAt)}"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });

  addRoute(app, routes.shareLinks, async (request) => ({ links: await listShareLinks(app.db, callerOf(request), request.params.id) }));
  addRoute(app, routes.createShareLink, async (request, reply) => {
    const created = await createShareLink(app.db, callerOf(request), request.params.id, request.body.expires_in_days);
    reply.status(201).header('cache-control', 'no-store');
    return created;
  });
  addRoute(app, routes.revokeShareLink, async (request, reply) => {
    await revokeShareLink(app.db, callerOf(request), request.params.id);
    reply.status(204);
    return null;
  });

  // No account: the token is the key. Kept out of search engines and caches, and no referrer leaks it on.
  addRoute(app, routes.publicReport, { config: publicReportLimit }, async (request, reply) => {
    reply.header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer');
    return publicReport(app.db, request.params.token);
  });
};

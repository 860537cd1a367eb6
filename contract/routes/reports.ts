/**
 * Client reports (issue 24): the organization's branding, the PDF of an audit, its share links and the
 * public page's one call (no authentication: the token in the address is the key).
 */
import { ErrorBodySchema, IdParamsSchema, NoContentSchema } from '../common.js';
import {
  CreatedShareLinkSchema,
  CreateShareLinkSchema,
  PublicReportResponseSchema,
  ReportBrandingSchema,
  ShareLinkListSchema,
  ShareTokenParamsSchema,
  UpdateReportBrandingSchema,
} from '../reports.js';
import { defineRoute, fileAnswer } from './route.js';

const tags = ['reports'];
const auditErrors = { 404: ErrorBodySchema, 409: ErrorBodySchema };

export const reportRoutes = {
  branding: defineRoute({
    method: 'GET',
    path: '/api/v1/organizations/current/branding',
    response: { 200: ReportBrandingSchema },
    tags,
    summary: "The organization's branding of client reports (name, accent colour, logo)",
    auth: true,
  }),
  updateBranding: defineRoute({
    method: 'PUT',
    path: '/api/v1/organizations/current/branding',
    body: UpdateReportBrandingSchema,
    response: { 200: ReportBrandingSchema, 403: ErrorBodySchema, 422: ErrorBodySchema },
    tags,
    summary: 'Change the branding of client reports (owner or admin); the logo is a PNG or JPEG data URL up to 256 KB',
    auth: true,
    access: 'organization-manager',
  }),
  pdf: defineRoute({
    method: 'GET',
    path: '/api/v1/analyses/:id/report.pdf',
    params: IdParamsSchema,
    response: { 200: fileAnswer('application/pdf'), ...auditErrors, 503: ErrorBodySchema },
    tags,
    summary: 'The white-label client report of a completed audit, A4 PDF in Russian',
    auth: true,
  }),
  shareLinks: defineRoute({
    method: 'GET',
    path: '/api/v1/analyses/:id/share-links',
    params: IdParamsSchema,
    response: { 200: ShareLinkListSchema, 404: ErrorBodySchema },
    tags,
    summary: "The audit's share links, newest first (the tokens themselves are never shown again)",
    auth: true,
  }),
  createShareLink: defineRoute({
    method: 'POST',
    path: '/api/v1/analyses/:id/share-links',
    params: IdParamsSchema,
    body: CreateShareLinkSchema,
    response: { 201: CreatedShareLinkSchema, ...auditErrors, 422: ErrorBodySchema },
    tags,
    summary: 'Make a read-only link to the report (expires in 1–90 days, 30 by default); the token is in this answer only',
    auth: true,
  }),
  revokeShareLink: defineRoute({
    method: 'DELETE',
    path: '/api/v1/share-links/:id',
    params: IdParamsSchema,
    response: { 204: NoContentSchema, 403: ErrorBodySchema, 404: ErrorBodySchema },
    tags,
    summary: 'Revoke a share link (its author, an owner or an admin); the page stops opening at once',
    auth: true,
  }),
  publicReport: defineRoute({
    method: 'GET',
    path: '/api/v1/public/reports/:token',
    params: ShareTokenParamsSchema,
    response: { 200: PublicReportResponseSchema, 404: ErrorBodySchema, 410: ErrorBodySchema },
    tags,
    summary: 'The report behind a share link (no account needed); 410 when the link expired or was revoked',
  }),
};

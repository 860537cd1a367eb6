/**
 * Client reports (issue 24): the organization's branding (/organization), the PDF of an audit and its share
 * links (the results screen), the report behind a share link (the public page): three features, one module.
 */
import { queryOptions } from '@tanstack/react-query';
import type { UpdateReportBranding } from '@contract/reports.js';
import { reportRoutes } from '@contract/routes/reports.js';
import { callApi } from './call-api';
import { saveDownloadedFile } from './download';

export const reportKeys = {
  branding: () => ['reports', 'branding'] as const,
  shareLinks: (analysisId: string) => ['reports', 'share-links', analysisId] as const,
  shared: (token: string) => ['reports', 'shared', token] as const,
};

export const brandingQueryOptions = () =>
  queryOptions({ queryKey: reportKeys.branding(), queryFn: ({ signal }) => callApi(reportRoutes.branding, { signal }) });

export const updateBranding = (body: UpdateReportBranding) => callApi(reportRoutes.updateBranding, { body });

/** Saves the audit's client report PDF; answers the file name. */
export async function downloadReportPdf(analysisId: string): Promise<string> {
  return saveDownloadedFile(await callApi(reportRoutes.pdf, { params: { id: analysisId }, mode: 'download' }), 'audit-report.pdf');
}

export const shareLinksQueryOptions = (analysisId: string) =>
  queryOptions({
    queryKey: reportKeys.shareLinks(analysisId),
    queryFn: async ({ signal }) => (await callApi(reportRoutes.shareLinks, { params: { id: analysisId }, signal })).links,
  });

export const createShareLink = (analysisId: string, expiresInDays: number) =>
  callApi(reportRoutes.createShareLink, { params: { id: analysisId }, body: { expires_in_days: expiresInDays } });

export const revokeShareLink = (linkId: string) => callApi(reportRoutes.revokeShareLink, { params: { id: linkId } });

/** The report behind a share link; never cached on disk and never retried (a 404 or 410 is the answer). */
export const sharedReportQueryOptions = (token: string) =>
  queryOptions({
    queryKey: reportKeys.shared(token),
    queryFn: ({ signal }) => callApi(reportRoutes.publicReport, { params: { token }, signal }),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });

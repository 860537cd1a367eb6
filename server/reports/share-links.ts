/**
 * Share links (issue 24, item 4): a read-only page of one audit's report for someone without an account.
 * The token is 256 random bits (`newSecretToken`, as refresh tokens), shown once when the link is made;
 * the table keeps its SHA-256 only. A link opens its own audit's report and nothing else of the
 * organization, until it expires (1–90 days) or is revoked. Time is the server's `Date`, so tests move it
 * with fake timers.
 */
import { reportMessages as m } from '../../contract/messages.js';
import type { ClientReport, ShareLink } from '../../contract/reports.js';
import type { Caller } from '../auth/authenticate.js';
import { hashSecretToken, newSecretToken } from '../auth/secret-tokens.js';
import type { DB } from '../db/database.js';
import { findCompletedAnalysis } from '../analysis/results-pages.js';
import { findAnalysisRow } from '../analysis/service.js';
import { fullName, iso } from '../lib/api-values.js';
import { forbidden, HttpError, notFound } from '../lib/errors.js';
import { readClientReport } from './report-data.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Links listed for one audit: the newest; older ones still work until they expire. */
const LISTED_LINKS = 50;

type LinkRow = { id: string; analysis_id: string; created_at: Date; expires_at: Date; revoked_at: Date | null; first_name: string | null; last_name: string | null };

function toShareLink(row: LinkRow, now: Date): ShareLink {
  return {
    id: row.id,
    analysis_id: row.analysis_id,
    created_at: iso(row.created_at)!,
    expires_at: iso(row.expires_at)!,
    revoked_at: iso(row.revoked_at),
    author: row.first_name === null && row.last_name === null ? null : fullName(row.first_name, row.last_name),
    state: row.revoked_at ? 'revoked' : row.expires_at <= now ? 'expired' : 'active',
  };
}

const selectLinks = (db: DB, organizationId: string) =>
  db
    .selectFrom('report_share_links as l')
    .leftJoin('users as u', 'u.id', 'l.created_by')
    .select(['l.id', 'l.analysis_id', 'l.created_at', 'l.expires_at', 'l.revoked_at', 'l.created_by', 'u.first_name', 'u.last_name'])
    .where('l.organization_id', '=', organizationId);

/** A new link to a completed audit of the caller's organization; the token is in this answer only. */
export async function createShareLink(db: DB, caller: Caller, analysisId: string, expiresInDays: number): Promise<{ link: ShareLink; token: string }> {
  await findCompletedAnalysis(db, caller.organizationId, analysisId);
  const { token, hash } = newSecretToken();
  const now = new Date();
  const { id } = await db
    .insertInto('report_share_links')
    .values({ organization_id: caller.organizationId, analysis_id: analysisId, token_hash: hash, created_by: caller.userId, expires_at: new Date(now.getTime() + expiresInDays * DAY_MS) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await selectLinks(db, caller.organizationId).where('l.id', '=', id).executeTakeFirstOrThrow();
  return { link: toShareLink(row, now), token };
}

export async function listShareLinks(db: DB, caller: Caller, analysisId: string): Promise<ShareLink[]> {
  await findAnalysisRow(db, caller.organizationId, analysisId);
  const rows = await selectLinks(db, caller.organizationId).where('l.analysis_id', '=', analysisId).orderBy('l.created_at', 'desc').limit(LISTED_LINKS).execute();
  const now = new Date();
  return rows.map((row) => toShareLink(row, now));
}

/** Its author, an owner or an admin revokes a link of their organization; revoking twice is no error. */
export async function revokeShareLink(db: DB, caller: Caller, linkId: string): Promise<void> {
  const row = await selectLinks(db, caller.organizationId).where('l.id', '=', linkId).executeTakeFirst();
  if (!row) throw notFound(m.shareLinkNotFound, 'SHARE_LINK_NOT_FOUND');
  const manager = caller.organizationRole === 'owner' || caller.organizationRole === 'admin';
  if (!manager && row.created_by !== caller.userId) throw forbidden(m.shareLinkRevokeForbidden, 'SHARE_LINK_REVOKE_FORBIDDEN');
  await db.updateTable('report_share_links').set({ revoked_at: new Date(), revoked_by: caller.userId }).where('id', '=', linkId).where('revoked_at', 'is', null).execute();
}

/**
 * The report behind a token: 404 for a token nobody made (or whose audit or project is gone), 410 once
 * it expired or was revoked (the holder learns to ask for a new one; nothing else is told).
 */
export async function publicReport(db: DB, token: string): Promise<{ report: ClientReport; expires_at: string }> {
  const link = await db
    .selectFrom('report_share_links')
    .select(['organization_id', 'analysis_id', 'expires_at', 'revoked_at'])
    .where('token_hash', '=', hashSecretToken(token))
    .executeTakeFirst();
  if (!link) throw notFound(m.shareLinkNotFound, 'SHARE_LINK_NOT_FOUND');
  if (link.revoked_at) throw new HttpError(410, 'SHARE_LINK_REVOKED', m.shareLinkRevoked);
  if (link.expires_at <= new Date()) throw new HttpError(410, 'SHARE_LINK_EXPIRED', m.shareLinkExpired);
  try {
    return { report: await readClientReport(db, link.organization_id, link.analysis_id), expires_at: iso(link.expires_at)! };
  } catch (error) {
    // The audit or its project was deleted since: the link leads nowhere, like an unknown one.
    if (error instanceof HttpError && error.statusCode === 404) throw notFound(m.shareLinkNotFound, 'SHARE_LINK_NOT_FOUND');
    throw error;
  }
}

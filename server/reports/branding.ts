import { sql } from 'kysely';
import { DEFAULT_REPORT_ACCENT, type ClientReport, type ReportBranding, type UpdateReportBranding } from '../../contract/reports.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import { notFound } from '../lib/errors.js';
import { checkLogo } from './logo.js';

const canEdit = (caller: Caller) => caller.organizationRole === 'owner' || caller.organizationRole === 'admin';

const dataUrlOf = (logo: Buffer | null, mediaType: string | null) => (logo && mediaType ? `data:${mediaType};base64,${logo.toString('base64')}` : null);

async function brandingRow(db: DB, organizationId: string) {
  const row = await db
    .selectFrom('organizations as o')
    .leftJoin('organization_report_branding as b', 'b.organization_id', 'o.id')
    .select(['o.name', 'b.report_name', 'b.accent_color', 'b.logo', 'b.logo_media_type'])
    .where('o.id', '=', organizationId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** The branding form of /organization: what is set, and the organization's name a report falls back to. */
export async function getReportBranding(db: DB, caller: Caller): Promise<ReportBranding> {
  const row = await brandingRow(db, caller.organizationId);
  return {
    report_name: row.report_name,
    organization_name: row.name,
    accent_color: row.accent_color,
    logo: dataUrlOf(row.logo, row.logo_media_type),
    can_edit: canEdit(caller),
  };
}

/** Owners and admins (the route checks); a field left out stays, null clears it; the logo is checked before anything is written. */
export async function updateReportBranding(db: DB, caller: Caller, changes: UpdateReportBranding): Promise<ReportBranding> {
  const logo = changes.logo === undefined || changes.logo === null ? changes.logo : checkLogo(changes.logo);
  const set = {
    ...(changes.report_name !== undefined ? { report_name: changes.report_name } : {}),
    ...(changes.accent_color !== undefined ? { accent_color: changes.accent_color } : {}),
    ...(logo !== undefined ? { logo: logo?.bytes ?? null, logo_media_type: logo?.mediaType ?? null } : {}),
  };
  await db
    .insertInto('organization_report_branding')
    .values({ organization_id: caller.organizationId, ...set, updated_by: caller.userId })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...set, updated_by: caller.userId, updated_at: sql<Date>`now()` }))
    .execute();
  return getReportBranding(db, caller);
}

/** What a report of the organization carries: its report name (or its own), accent colour and logo. */
export async function reportBrandOf(db: DB, organizationId: string): Promise<ClientReport['brand']> {
  const row = await brandingRow(db, organizationId);
  return { name: row.report_name ?? row.name, accentColor: row.accent_color ?? DEFAULT_REPORT_ACCENT, logo: dataUrlOf(row.logo, row.logo_media_type) };
}

import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.js';

/** White-label branding of an organization's client reports (migration 0145). */
export interface OrganizationReportBrandingTable {
  organization_id: string;
  report_name: string | null;
  /** `#rrggbb`, lower case. */
  accent_color: string | null;
  logo: Buffer | null;
  logo_media_type: 'image/png' | 'image/jpeg' | null;
  updated_by: string | null;
  updated_at: Timestamp;
}

/** A read-only link to one audit's report; only the token's SHA-256 is kept. */
export interface ReportShareLinksTable {
  id: Generated<string>;
  organization_id: string;
  analysis_id: string;
  token_hash: string;
  created_by: string | null;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_by: string | null;
}

export interface ReportTables {
  organization_report_branding: OrganizationReportBrandingTable;
  report_share_links: ReportShareLinksTable;
}

import { sql, type Kysely } from 'kysely';

/**
 * Client reports (issue 24, items 3 and 4).
 *
 * `organization_report_branding`: what a white-label report carries instead of the product's name: the name
 * shown on it, an accent colour and a logo (PNG or JPEG bytes, at most 256 KB, checked before they are kept).
 *
 * `report_share_links`: a read-only page of one audit's report. The token itself is shown once, when the link
 * is made; only its SHA-256 is kept (like refresh tokens), so a copy of the table opens nothing. A link has an
 * expiry and may be revoked; it dies with its audit or its organization.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE organization_report_branding (
      organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
      report_name text,
      accent_color text,
      logo bytea,
      logo_media_type text,
      updated_by uuid REFERENCES users(id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((logo IS NULL) = (logo_media_type IS NULL)),
      CHECK (logo_media_type IS NULL OR logo_media_type IN ('image/png', 'image/jpeg')),
      CHECK (accent_color IS NULL OR accent_color ~ '^#[0-9a-f]{6}$')
    )`.execute(db);
  await sql`
    CREATE TABLE report_share_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      analysis_id uuid NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      revoked_by uuid REFERENCES users(id) ON DELETE SET NULL
    )`.execute(db);
  await sql`CREATE INDEX report_share_links_analysis_idx ON report_share_links (analysis_id, created_at DESC)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS report_share_links`.execute(db);
  await sql`DROP TABLE IF EXISTS organization_report_branding`.execute(db);
}

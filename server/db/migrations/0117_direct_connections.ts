import { sql, type Kysely } from 'kysely';

/**
 * Yandex Direct accounts connected by OAuth (issue 22): «Подключить Яндекс Директ» sends the person to
 * Yandex ID and back; the tokens it gives are kept here, sealed (secret-box, context `yandex-oauth-token`),
 * and renewed by their refresh token. One row per organization and Yandex login.
 *
 * `direct_oauth_states`: an authorization under way. Its `state` (stored as a SHA-256 hash) is bound to the
 * user who started it and used once; the PKCE verifier stays on the server, sealed, until the code comes back.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE direct_oauth_states (
      state_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      sealed_verifier text NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE direct_connections (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      connected_by uuid REFERENCES users(id) ON DELETE SET NULL,
      login text NOT NULL,
      sealed_access_token text NOT NULL,
      sealed_refresh_token text,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, login)
    )`.execute(db);
  // A project imported through a connection reads through it again (its renewed token, not a copy).
  await sql`ALTER TABLE project_connections ADD COLUMN direct_connection_id uuid REFERENCES direct_connections(id) ON DELETE SET NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE project_connections DROP COLUMN IF EXISTS direct_connection_id`.execute(db);
  await sql`DROP TABLE IF EXISTS direct_connections`.execute(db);
  await sql`DROP TABLE IF EXISTS direct_oauth_states`.execute(db);
}

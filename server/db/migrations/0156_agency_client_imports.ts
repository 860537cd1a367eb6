import { sql, type Kysely } from 'kysely';

/**
 * Many agency clients at once (issue 22): an agency picks clients of an OAuth connection and gets a project
 * for each. `agency_client_imports` is one client's turn: it waits, then reads through an ordinary Direct
 * import job (a few at a time per connection), then owns the project it created or refreshed, or the Russian
 * error its job failed with. One unfinished turn per client of a connection (partial unique index), so a
 * second pick of the same client is not a second import.
 *
 * Import jobs of an agency batch are exempt from «one unfinished Direct import per user»: the batch bounds
 * them itself. The API points an import spent are kept with the draft and the project's import record.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE agency_client_imports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      direct_connection_id uuid NOT NULL REFERENCES direct_connections(id) ON DELETE CASCADE,
      client_login text NOT NULL,
      client_name text NOT NULL,
      status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'importing', 'completed', 'failed')),
      import_job_id uuid REFERENCES import_jobs(id) ON DELETE SET NULL,
      project_id uuid REFERENCES projects(id) ON DELETE SET NULL,
      refreshed boolean NOT NULL DEFAULT false,
      units_spent integer,
      error text,
      error_code text,
      created_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX agency_client_imports_one_unfinished ON agency_client_imports (direct_connection_id, client_login) WHERE status IN ('waiting', 'importing')`.execute(db);
  await sql`CREATE INDEX agency_client_imports_connection ON agency_client_imports (direct_connection_id, created_at)`.execute(db);
  await sql`CREATE INDEX agency_client_imports_job ON agency_client_imports (import_job_id)`.execute(db);

  await sql`ALTER TABLE import_jobs ADD COLUMN agency boolean NOT NULL DEFAULT false`.execute(db);
  await sql`DROP INDEX IF EXISTS import_jobs_one_unfinished_per_user`.execute(db);
  await sql`CREATE UNIQUE INDEX import_jobs_one_unfinished_per_user ON import_jobs (user_id) WHERE status IN ('queued', 'running') AND NOT agency`.execute(db);

  await sql`ALTER TABLE import_drafts ADD COLUMN units_spent integer`.execute(db);
  await sql`ALTER TABLE project_imports ADD COLUMN units_spent integer`.execute(db);
  // Which project reads which client of a connection: the lookup that keeps a second pick from duplicating it.
  await sql`CREATE INDEX project_connections_direct_client ON project_connections (direct_connection_id, client_login) WHERE direct_connection_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS project_connections_direct_client`.execute(db);
  await sql`ALTER TABLE project_imports DROP COLUMN IF EXISTS units_spent`.execute(db);
  await sql`ALTER TABLE import_drafts DROP COLUMN IF EXISTS units_spent`.execute(db);
  await sql`DROP INDEX IF EXISTS import_jobs_one_unfinished_per_user`.execute(db);
  await sql`CREATE UNIQUE INDEX import_jobs_one_unfinished_per_user ON import_jobs (user_id) WHERE status IN ('queued', 'running')`.execute(db);
  await sql`ALTER TABLE import_jobs DROP COLUMN IF EXISTS agency`.execute(db);
  await sql`DROP TABLE IF EXISTS agency_client_imports`.execute(db);
}

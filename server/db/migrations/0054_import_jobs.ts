import { sql, type Kysely } from 'kysely';

/**
 * Import jobs: a Yandex Direct API import read in the background (a large account takes minutes), with
 * its progress, the sealed token it reads with (wiped when it ends) and, once completed, the preview.
 * A user has at most one unfinished Direct import: the partial unique index says so race-free.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_jobs')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Set when the project's saved connection is read again; a project deleted meanwhile takes its jobs along.
    .addColumn('project_id', 'uuid', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('direct_api').check(sql`source in ('direct_api')`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued', 'running', 'completed', 'failed')`))
    // {encrypted_token, client_login, sandbox}: the token sealed with SECRETS_KEY; null once the job ended.
    .addColumn('connection', 'jsonb')
    .addColumn('progress', 'jsonb', (c) => c.notNull())
    .addColumn('preview', 'jsonb')
    .addColumn('draft_id', 'uuid', (c) => c.references('import_drafts.id').onDelete('set null'))
    .addColumn('error', 'text')
    .addColumn('error_code', 'text')
    .addColumn('job_id', 'text')
    // Written every few seconds by the worker while it runs: an old one means the worker died.
    .addColumn('heartbeat_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await sql`CREATE UNIQUE INDEX import_jobs_one_unfinished_per_user ON import_jobs (user_id) WHERE status IN ('queued', 'running')`.execute(db);
  // Clean-up of old finished jobs.
  await sql`CREATE INDEX import_jobs_created_idx ON import_jobs (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('import_jobs').ifExists().execute();
}

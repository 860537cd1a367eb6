import { sql, type Kysely } from 'kysely';

/** Landing-page relevance runs: the paid run, its job and progress, and the report. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('relevance_analyses')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued', 'running', 'completed', 'failed', 'cancelled')`))
    .addColumn('stage', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0).check(sql`progress between 0 and 100`))
    .addColumn('progress_detail', 'jsonb')
    .addColumn('urls', 'jsonb', (c) => c.notNull())
    .addColumn('cost', 'integer', (c) => c.notNull().check(sql`cost >= 0`))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('heartbeat_at', 'timestamptz')
    .addColumn('error', 'text')
    .addColumn('score', 'integer')
    .addColumn('summary', 'jsonb')
    .addColumn('result', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // A user's retried start finds the first run (and its single debit) by the key.
  await sql`CREATE UNIQUE INDEX relevance_analyses_idempotency_idx ON relevance_analyses (created_by, idempotency_key)`.execute(db);
  await db.schema.createIndex('relevance_analyses_project_idx').on('relevance_analyses').columns(['project_id', 'created_at']).execute();
  // Start-up recovery looks for runs left unfinished.
  await sql`CREATE INDEX relevance_analyses_unfinished_idx ON relevance_analyses (status) WHERE status in ('queued', 'running')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('relevance_analyses').ifExists().execute();
}

import { sql, type Kysely } from 'kysely';

/**
 * Analyses of projects: the paid run (cost, idempotency key), its job and progress, and its results.
 * Progress lives in the row so a reload (or another server process) sees the same state.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('analyses')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('audit').check(sql`kind in ('audit')`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued', 'running', 'completed', 'failed', 'cancelled')`))
    .addColumn('stage', 'text')
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0).check(sql`progress between 0 and 100`))
    .addColumn('progress_detail', 'jsonb')
    .addColumn('options', 'jsonb', (c) => c.notNull())
    .addColumn('cost', 'integer', (c) => c.notNull().check(sql`cost >= 0`))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text')
    // How many times a worker started the run (restarts after a crash count too): the retry budget.
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // Written every few seconds by the worker that runs it: a stale one means the worker died.
    .addColumn('heartbeat_at', 'timestamptz')
    .addColumn('error', 'text')
    .addColumn('score', 'integer')
    .addColumn('summary', 'jsonb')
    .addColumn('result', 'jsonb')
    .addColumn('decisions', 'jsonb', (c) => c.notNull().defaultTo(sql`'{"accepted": [], "rejected": []}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    // A retried start request (same user, same key) finds the first analysis instead of paying twice.
    .addUniqueConstraint('analyses_created_by_idempotency_key', ['created_by', 'idempotency_key'])
    .execute();
  await sql`CREATE INDEX analyses_project_created_idx ON analyses (project_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX analyses_created_idx ON analyses (created_at DESC)`.execute(db);
  // Recovery and the admin overview look for unfinished runs only.
  await sql`CREATE INDEX analyses_unfinished_idx ON analyses (status) WHERE status IN ('queued', 'running')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('analyses').ifExists().execute();
}

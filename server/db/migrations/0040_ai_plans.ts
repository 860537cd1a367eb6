import { sql, type Kysely } from 'kysely';

/**
 * AI plans: a paid language-model run over a completed audit (an `analyses` row of the same
 * organization), its job, and its answer: the plan, the model, the prompt's size and the tokens spent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ai_plans')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('analysis_id', 'uuid', (c) => c.notNull().references('analyses.id').onDelete('cascade'))
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued', 'running', 'completed', 'failed')`))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('cost', 'integer', (c) => c.notNull().check(sql`cost >= 0`))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text')
    // How many times a worker started the run (a retry after a crash counts too).
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // Written when a worker claims the run: one older than the model's timeout means the worker died.
    .addColumn('heartbeat_at', 'timestamptz')
    .addColumn('prompt_chars', 'integer')
    .addColumn('prompt_tokens', 'integer')
    .addColumn('completion_tokens', 'integer')
    .addColumn('total_tokens', 'integer')
    .addColumn('plan', 'jsonb')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    // A retried start (same user, same key) finds the first plan and its single debit.
    .addUniqueConstraint('ai_plans_created_by_idempotency_key', ['created_by', 'idempotency_key'])
    .execute();
  await sql`CREATE INDEX ai_plans_analysis_created_idx ON ai_plans (analysis_id, created_at DESC)`.execute(db);
  // Start-up recovery looks for runs left unfinished.
  await sql`CREATE INDEX ai_plans_unfinished_idx ON ai_plans (status) WHERE status IN ('queued', 'running')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ai_plans').ifExists().execute();
}

import { sql, type Kysely } from 'kysely';

/**
 * AI plans are paid runs like the audit and the page check (server/runs/paid-run.ts): they can be
 * cancelled too (refunded once), e.g. a stuck one from the admin area.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE ai_plans DROP CONSTRAINT IF EXISTS ai_plans_status_check`.execute(db);
  await sql`ALTER TABLE ai_plans ADD CONSTRAINT ai_plans_status_check CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE ai_plans SET status = 'failed' WHERE status = 'cancelled'`.execute(db);
  await sql`ALTER TABLE ai_plans DROP CONSTRAINT IF EXISTS ai_plans_status_check`.execute(db);
  await sql`ALTER TABLE ai_plans ADD CONSTRAINT ai_plans_status_check CHECK (status IN ('queued', 'running', 'completed', 'failed'))`.execute(db);
}

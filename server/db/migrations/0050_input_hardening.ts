import { sql, type Kysely } from 'kysely';

/**
 * Idempotent starts remember what they were asked for: `request_hash` (SHA-256 of the request without
 * its key, server/lib/idempotency.ts), so the same key sent with another body answers 409 instead of
 * silently returning the first run. Rows from before stay null and are compared as before (target only).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['analyses', 'relevance_analyses', 'ai_plans', 'token_ledger']) {
    await db.schema.alterTable(table).addColumn('request_hash', 'text').execute();
  }
  // An admin credit's key is the admin's, whoever receives it: a key reused for another recipient is found here.
  await sql`CREATE INDEX token_ledger_admin_credit_key_idx ON token_ledger (idempotency_key) WHERE type = 'admin_credit'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS token_ledger_admin_credit_key_idx`.execute(db);
  for (const table of ['analyses', 'relevance_analyses', 'ai_plans', 'token_ledger']) {
    await db.schema.alterTable(table).dropColumn('request_hash').execute();
  }
}

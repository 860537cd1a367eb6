import { sql, type Kysely } from 'kysely';

/**
 * The operator's admin area: a user can be blocked (no login, no refresh, sessions revoked) and shows when
 * they last logged in; the audit log is read newest first, page by page.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('blocked_at', 'timestamptz')
    .addColumn('last_login_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('audit_log_created_idx').on('audit_log').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('token_ledger_created_idx').on('token_ledger').column('created_at').execute();
  // The failed runs of the admin's «Запуски» screen, newest first, without reading every finished run.
  for (const table of ['analyses', 'relevance_analyses', 'ai_plans']) {
    await sql`CREATE INDEX ${sql.id(`${table}_failed_idx`)} ON ${sql.table(table)} (finished_at DESC) WHERE status = 'failed'`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['analyses', 'relevance_analyses', 'ai_plans']) await db.schema.dropIndex(`${table}_failed_idx`).ifExists().execute();
  await db.schema.dropIndex('token_ledger_created_idx').ifExists().execute();
  await db.schema.dropIndex('audit_log_created_idx').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('last_login_at').dropColumn('blocked_at').execute();
}

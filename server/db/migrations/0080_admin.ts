import type { Kysely } from 'kysely';

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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('token_ledger_created_idx').ifExists().execute();
  await db.schema.dropIndex('audit_log_created_idx').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('last_login_at').dropColumn('blocked_at').execute();
}

import { sql, type Kysely } from 'kysely';

/**
 * The page check has one name: `relevance_analyses` becomes `page_checks`, its indexes and constraints
 * follow (`relevance_analyses_*` → `page_checks_*`), and the ledger keys of its debits
 * (`relevance:<key>` → `page-check:<key>`, the kind's `debitKeyPrefix`) so a start retried across the
 * upgrade still finds its one debit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await rename(db, 'relevance_analyses', 'page_checks');
  await sql`UPDATE token_ledger SET idempotency_key = 'page-check:' || substr(idempotency_key, length('relevance:') + 1) WHERE idempotency_key LIKE 'relevance:%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE token_ledger SET idempotency_key = 'relevance:' || substr(idempotency_key, length('page-check:') + 1) WHERE idempotency_key LIKE 'page-check:%'`.execute(db);
  await rename(db, 'page_checks', 'relevance_analyses');
}

async function rename(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  await sql`ALTER TABLE ${sql.table(from)} RENAME TO ${sql.table(to)}`.execute(db);
  const prefix = `${from}_`;
  // Constraints first: renaming a primary key or unique constraint renames its index too.
  const constraints = await sql<{ name: string }>`
    SELECT conname AS name FROM pg_constraint WHERE conrelid = ${to}::regclass AND starts_with(conname, ${prefix})`.execute(db);
  for (const { name } of constraints.rows) {
    await sql`ALTER TABLE ${sql.table(to)} RENAME CONSTRAINT ${sql.id(name)} TO ${sql.id(to + name.slice(from.length))}`.execute(db);
  }
  const indexes = await sql<{ name: string }>`
    SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ${to} AND starts_with(indexname, ${prefix})`.execute(db);
  for (const { name } of indexes.rows) {
    await sql`ALTER INDEX ${sql.id(name)} RENAME TO ${sql.id(to + name.slice(from.length))}`.execute(db);
  }
}

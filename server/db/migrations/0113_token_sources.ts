import { sql, type Kysely } from 'kysely';

/**
 * Where a user's tokens came from (server/tokens/ledger.ts), so the ledger can keep apart what may leave
 * the account and what may not:
 * - `token_balances.welcome`: the part of the balance that is the welcome credit (never transferred);
 * - `token_balances.granted` and `token_grants`: the part an owner gave (by giver), the only part that
 *   owner may move back;
 * - the rest of the balance is the user's own (bought, credited by an admin, moved back to them).
 * The database holds `welcome + granted <= balance` on every row; `token_ledger.sources` keeps, per entry,
 * the signed parts that were not own, so a refund gives back exactly what its debit took.
 *
 * Existing balances: the welcome credit counts as spent first (as the ledger spends it from now on), and
 * a member's grant from a giver is what the giver moved to them minus what they moved back, as far as the
 * balance still holds it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('token_balances')
    .addColumn('welcome', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('granted', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('token_grants')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Not a foreign key: a giver's account may go, the grant stays (spendable, no longer reclaimable).
    .addColumn('granted_by', 'uuid', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount >= 0`))
    .addPrimaryKeyConstraint('token_grants_pkey', ['user_id', 'granted_by'])
    .execute();
  await db.schema.alterTable('token_ledger').addColumn('sources', 'jsonb').execute();

  await sql`
    WITH welcome AS (
      SELECT b.user_id,
             greatest(0, least(b.balance,
               coalesce((SELECT sum(amount) FROM token_ledger l WHERE l.user_id = b.user_id AND l.type = 'welcome'), 0)
               + coalesce((SELECT sum(amount) FROM token_ledger l WHERE l.user_id = b.user_id AND l.type IN ('analysis_debit', 'analysis_refund')), 0)
             )) AS left_over
        FROM token_balances b
    )
    UPDATE token_balances b SET welcome = w.left_over FROM welcome w WHERE w.user_id = b.user_id`.execute(db);

  await sql`
    INSERT INTO token_grants (user_id, granted_by, amount)
    SELECT l.user_id, l.reference_id::uuid, sum(l.amount)
      FROM token_ledger l
     WHERE l.type IN ('transfer_in', 'transfer_out') AND l.reference_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
     GROUP BY l.user_id, l.reference_id
    HAVING sum(l.amount) > 0`.execute(db);
  // Grants beyond what the balance (less the welcome credit) still holds were spent: cut them, the largest last.
  await sql`
    WITH ranked AS (
      SELECT g.user_id, g.granted_by, g.amount,
             b.balance - b.welcome AS room,
             sum(g.amount) OVER (PARTITION BY g.user_id ORDER BY g.amount, g.granted_by) - g.amount AS before
        FROM token_grants g JOIN token_balances b ON b.user_id = g.user_id
    )
    UPDATE token_grants g SET amount = greatest(0, least(r.amount, r.room - r.before))
      FROM ranked r WHERE r.user_id = g.user_id AND r.granted_by = g.granted_by`.execute(db);
  await sql`DELETE FROM token_grants WHERE amount = 0`.execute(db);
  await sql`UPDATE token_balances b SET granted = coalesce((SELECT sum(amount) FROM token_grants g WHERE g.user_id = b.user_id), 0)`.execute(db);

  await sql`
    ALTER TABLE token_balances ADD CONSTRAINT token_balances_sources_check
      CHECK (welcome >= 0 AND granted >= 0 AND welcome + granted <= balance)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('token_ledger').dropColumn('sources').execute();
  await db.schema.dropTable('token_grants').ifExists().execute();
  await sql`ALTER TABLE token_balances DROP CONSTRAINT IF EXISTS token_balances_sources_check`.execute(db);
  await db.schema.alterTable('token_balances').dropColumn('granted').dropColumn('welcome').execute();
}

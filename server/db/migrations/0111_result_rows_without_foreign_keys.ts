import { sql, type Kysely } from 'kysely';

/**
 * The result rows' foreign keys to `analyses` give way to a trigger that deletes an analysis's rows with
 * it, which is all they did for this application.
 *
 * Why: a foreign key checks every inserted row, with a lookup and a row lock on its analysis; a saving
 * copies 230 000 rows at 100 000 keywords and 2.3 million at 1 000 000, on two connections whose locks
 * on the one analysis row share a multixact. Without the keys PostgreSQL spent 1.25× less CPU on the
 * same rows (`npm run bench -- result-storage`, variant `noForeignKeys`; README «Benchmarks»).
 *
 * What the keys guarded stays guarded:
 * - rows of an analysis that does not exist: only the run that owns an analysis writes its rows, and its
 *   completion, in the same transactions (result-saving.ts), updates the analysis row and fails if it is
 *   gone, rolling every row back; a deletion that comes after waits for that lock, then its trigger sees
 *   the committed rows and deletes them;
 * - deleting an analysis (by hand, or a cascade from its project or organization) deletes its rows: the
 *   statement trigger below, once per statement, with the deleted ids as a transition table.
 *
 * The keys inside the result stay (a finding's items, a suggestion's decisions): they are checked against
 * rows of the same transaction, and decisions are written one user action at a time.
 */
const resultTables = ['analysis_findings', 'analysis_suggestions', 'analysis_scores', 'analysis_semantic', 'analysis_entity_names'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of resultTables) {
    // Found by what they reference, not by name (PostgreSQL named them; a hand-made database may differ).
    const keys = await sql<{ name: string }>`
      SELECT conname AS name FROM pg_constraint
       WHERE contype = 'f' AND conrelid = ${table}::regclass AND confrelid = 'analyses'::regclass`.execute(db);
    for (const { name } of keys.rows) await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.ref(name)}`.execute(db);
  }
  // Findings before nothing else: deleting them cascades to their items, deleting suggestions to their decisions.
  await sql`
    CREATE FUNCTION delete_analysis_results() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM analysis_findings WHERE analysis_id IN (SELECT id FROM deleted_analyses);
      DELETE FROM analysis_suggestions WHERE analysis_id IN (SELECT id FROM deleted_analyses);
      DELETE FROM analysis_scores WHERE analysis_id IN (SELECT id FROM deleted_analyses);
      DELETE FROM analysis_semantic WHERE analysis_id IN (SELECT id FROM deleted_analyses);
      DELETE FROM analysis_entity_names WHERE analysis_id IN (SELECT id FROM deleted_analyses);
      RETURN NULL;
    END
    $$`.execute(db);
  await sql`
    CREATE TRIGGER analyses_delete_results AFTER DELETE ON analyses
      REFERENCING OLD TABLE AS deleted_analyses
      FOR EACH STATEMENT EXECUTE FUNCTION delete_analysis_results()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS analyses_delete_results ON analyses`.execute(db);
  await sql`DROP FUNCTION IF EXISTS delete_analysis_results()`.execute(db);
  for (const table of resultTables) {
    // Rows left without their analysis (none, unless written by hand) would refuse the key.
    await sql`DELETE FROM ${sql.table(table)} t WHERE NOT EXISTS (SELECT 1 FROM analyses a WHERE a.id = t.analysis_id)`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ADD FOREIGN KEY (analysis_id) REFERENCES analyses(id) ON DELETE CASCADE`.execute(db);
  }
}

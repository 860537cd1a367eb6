import { sql, type Kysely } from 'kysely';

/**
 * Cheaper result rows to save, for the same reads (issue 26; docs/benchmarks.md «What saving the rows
 * costs PostgreSQL»):
 *
 * - `analysis_scores` loses its primary key (analysis_id, level, key). No reader looks a score up by
 *   its key: `/scores` and the AI plan read a level in score, money or position order (the score and
 *   money indexes, whose first columns are the analysis and the level), and a run's rows are cleared by
 *   the analysis alone. At 100 000 keywords it was 8 MB of index over 88 000 rows, and copying the
 *   scores cost PostgreSQL 1.24 s of CPU with it against 0.89 s without (PostgreSQL 15).
 * - The documents are compressed with lz4 instead of pglz where the server has lz4 (PostgreSQL 14+ built
 *   with it, as the Debian and official packages are; the embedded build is not, and keeps pglz): the
 *   chunk rows of the finding items and semantic sections are the compressed ones, and at 100 000
 *   keywords their copy cost 0.84 → 0.33 s and 1.25 → 0.92 s of CPU. Only rows written from now on
 *   are compressed with it; PostgreSQL reads either.
 */
const documentTables = ['analysis_findings', 'analysis_finding_items', 'analysis_suggestions', 'analysis_scores', 'analysis_semantic'];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE analysis_scores DROP CONSTRAINT IF EXISTS analysis_scores_pkey`.execute(db);
  // A server without lz4 refuses `SET COMPRESSION lz4` (feature not supported): the block's own
  // savepoint keeps the migration's transaction, and the documents stay pglz.
  await sql`
    DO $$
    BEGIN
      ${sql.raw(documentTables.map((table) => `ALTER TABLE ${table} ALTER COLUMN document SET COMPRESSION lz4;`).join('\n      '))}
    EXCEPTION WHEN OTHERS THEN
      RAISE NOTICE 'lz4 is not available (%): the result documents stay compressed with pglz', SQLERRM;
    END
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of documentTables) await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN document SET COMPRESSION default`.execute(db);
  await sql`ALTER TABLE analysis_scores ADD PRIMARY KEY (analysis_id, level, key)`.execute(db);
}

import { sql, type Kysely } from 'kysely';

/**
 * The text filter of the results' pages skips the stretches of the money order that cannot hold the
 * text (server/analysis/search-blocks.ts): «купить» at 1 000 000 keywords tested 450 000 texts of dearer
 * rows before its first match, 1.0–1.9 s.
 *
 * - `money_rank` on the findings and suggestions: the row's rank in its table's money order (the pages'
 *   order), written at save for a table of at least 16 384 rows (NULL otherwise, and on rows saved
 *   before: their pages read as before);
 * - an index on it (only where set), so a text's blocks are a range of it, read in the pages' order;
 * - `analysis_search_blooms`: per analysis and table, which trigrams each block of 1 024 ranks holds,
 *   slot by slot. Stored uncompressed and out of line (EXTERNAL), so a page reads the slices of its
 *   text's trigrams (a few times 92 bytes at 1 000 000 keywords), not the whole 6 MB.
 *
 * Its rows go with the analysis as the other result rows do (0111's trigger, redefined here with it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE analysis_findings ADD COLUMN money_rank integer`.execute(db);
  await sql`ALTER TABLE analysis_suggestions ADD COLUMN money_rank integer`.execute(db);
  await sql`CREATE INDEX analysis_findings_rank_idx ON analysis_findings (analysis_id, money_rank) WHERE money_rank IS NOT NULL`.execute(db);
  await sql`CREATE INDEX analysis_suggestions_rank_idx ON analysis_suggestions (analysis_id, money_rank) WHERE money_rank IS NOT NULL`.execute(db);
  await sql`
    CREATE TABLE analysis_search_blooms (
      analysis_id uuid NOT NULL,
      scope text NOT NULL CHECK (scope IN ('findings', 'suggestions')),
      blocks integer NOT NULL,
      bits bytea NOT NULL,
      PRIMARY KEY (analysis_id, scope)
    )`.execute(db);
  await sql`ALTER TABLE analysis_search_blooms ALTER COLUMN bits SET STORAGE EXTERNAL`.execute(db);
  await replaceDeleteTrigger(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  await replaceDeleteTrigger(db, false);
  await sql`DROP TABLE IF EXISTS analysis_search_blooms`.execute(db);
  await sql`DROP INDEX IF EXISTS analysis_suggestions_rank_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS analysis_findings_rank_idx`.execute(db);
  await sql`ALTER TABLE analysis_suggestions DROP COLUMN IF EXISTS money_rank`.execute(db);
  await sql`ALTER TABLE analysis_findings DROP COLUMN IF EXISTS money_rank`.execute(db);
}

/** 0111's function, with the blooms (`withBlooms`) or without. */
async function replaceDeleteTrigger(db: Kysely<any>, withBlooms: boolean): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION delete_analysis_results() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM analysis_findings WHERE analysis_id IN (SELECT id FROM deleted_analyses);
      DELETE FROM analysis_suggestions WHERE analysis_id IN (SELECT id FROM deleted_analyses);
      DELETE FROM analysis_scores WHERE analysis_id IN (SELECT id FROM deleted_analyses);
      DELETE FROM analysis_semantic WHERE analysis_id IN (SELECT id FROM deleted_analyses);
      DELETE FROM analysis_entity_names WHERE analysis_id IN (SELECT id FROM deleted_analyses);
      ${sql.raw(withBlooms ? 'DELETE FROM analysis_search_blooms WHERE analysis_id IN (SELECT id FROM deleted_analyses);' : '')}
      RETURN NULL;
    END
    $$`.execute(db);
}

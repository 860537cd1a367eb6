import { sql, type Kysely } from 'kysely';

/**
 * A finding's items and the semantic sections are stored in chunks of up to 100 items per row
 * (analysis/result-rows.ts, `chunksOf`): `count` is how many items a row holds, `position` the index of
 * its first. Rows written before keep `count` 1 and one item as their document; the readers take both
 * (an array document is a chunk), so nothing is rewritten here.
 *
 * (0060 creates the column too since this change, for databases that convert old blobs now: hence
 * IF NOT EXISTS.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE analysis_finding_items ADD COLUMN IF NOT EXISTS count integer NOT NULL DEFAULT 1`.execute(db);
  await sql`ALTER TABLE analysis_semantic ADD COLUMN IF NOT EXISTS count integer NOT NULL DEFAULT 1`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE analysis_finding_items DROP COLUMN count`.execute(db);
  await sql`ALTER TABLE analysis_semantic DROP COLUMN count`.execute(db);
}

import { sql, type Kysely } from 'kysely';

/**
 * Names of the campaigns and groups of a result, once each (key `c0` → campaign name, `c0g6` → group
 * name): the result rows' documents store entity refs without them (analysis/entity-refs.ts) and the
 * readers put them back. Written by the worker in the saving transaction, with the rows; gone with the
 * analysis. Results stored before keep full refs in their documents and have no names here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE analysis_entity_names (
      analysis_id uuid NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
      key text NOT NULL,
      name text NOT NULL,
      PRIMARY KEY (analysis_id, key)
    )`.execute(db);
}

/** Results saved since keep compact refs their readers can no longer expand: going down is for tests of older schemas. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE analysis_entity_names`.execute(db);
}

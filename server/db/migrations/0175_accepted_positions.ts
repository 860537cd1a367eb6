import { sql, type Kysely } from 'kysely';

/**
 * `analyses.accepted_positions`: which suggestions are accepted, as bits (bit i, numbered as
 * PostgreSQL's `get_bit` numbers them, set: the suggestion at position i is accepted), beside 0112's
 * `decided_positions`. With both, every decision filter of the suggestions (accepted, rejected, decided,
 * undecided) is a bit of the query's parameters read along the filter's index, and the page and its
 * count read no decision row: «category free, accepted» after a bulk accept of 250 000 at 1 000 000
 * keywords counted by hashing every decision against every row of the category (200+ ms).
 *
 * Every write of decisions keeps both in its transaction (results-pages.ts); NULL: not known, computed
 * by the first read that needs them. The decided positions stored so far are cleared so the two are
 * always known together.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE analyses ADD COLUMN accepted_positions bytea`.execute(db);
  await sql`UPDATE analyses SET decided_positions = NULL WHERE decided_positions IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE analyses DROP COLUMN IF EXISTS accepted_positions`.execute(db);
}

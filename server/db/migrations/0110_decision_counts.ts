import { sql, type Kysely } from 'kysely';

/**
 * `analyses.decision_counts`: the decision counts of GET /results (accepted, rejected, and what the
 * accepted negatives block of the non-target queries) once computed, until a write of decisions clears
 * them in its transaction (results-pages.ts). The blocked queries take one lookup per block of the
 * report: 1.4 s for 250 000 blocks and 250 000 accepted at 1 000 000 keywords, on every GET /results.
 * NULL (not known yet) for every analysis here: the first GET /results computes them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE analyses ADD COLUMN decision_counts jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE analyses DROP COLUMN IF EXISTS decision_counts`.execute(db);
}

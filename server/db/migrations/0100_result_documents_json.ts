import { sql, type Kysely } from 'kysely';

/** The row tables whose `document` holds the engine's JSON (analysis/result-rows.ts). */
const documentTables = ['analysis_findings', 'analysis_finding_items', 'analysis_suggestions', 'analysis_scores', 'analysis_semantic'] as const;

/**
 * The result rows' documents become `json` (validated text) instead of `jsonb`. They are written once
 * per run and only ever read whole (a page's rows, a chunk's items) or by a key or two on small rows
 * (a query block's figures, a finding's weight), never searched inside: the search, keys and money
 * have columns of their own. Building jsonb's binary form was most of what PostgreSQL spent saving a
 * big result (at 100 000 keywords ≈ 354 MB of documents); `json` only checks the text
 * (`npm run bench -- result-storage`). The readers use the `json_*` functions.
 *
 * Stored analyses are converted in place (each table rewritten once).
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of documentTables) {
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN document TYPE json USING document::json`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of documentTables) {
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN document TYPE jsonb USING document::jsonb`.execute(db);
  }
}

import { sql, type Kysely } from 'kysely';

/**
 * Indexes that match the filters of the results screen and their order (money per month, highest
 * first, then the engine's position), so a filtered page of a 1 000 000-keyword analysis (750 000
 * suggestions, 100 000 findings) reads its 50 rows in index order and its count (capped at 10 000,
 * results-pages.ts) from the index alone (`npm run bench -- results-at-scale`):
 *
 * - suggestions by kind, by status and by category (the screen's presets and category select; status
 *   and category are set on negatives only, hence partial), and by campaign, each then by money;
 *   these replace (kind, category, money) and (campaign), which could not give that order;
 * - findings by severity rank then money (`sort=severity`, and the severity filter);
 * - the text search (`LIKE '%…%'` on `search`) through trigrams (pg_trgm): a word of one suggestion
 *   in 750 000 is found by the index instead of reading every row.
 *
 * pg_trgm ships with PostgreSQL (contrib) and is a trusted extension, so the database's owner may
 * create it; on a server without it (or a role that may not) the text search keeps working without
 * the index (a scan), and the migration says so in the log rather than failing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS analysis_suggestions_kind_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS analysis_suggestions_campaign_idx`.execute(db);
  await sql`CREATE INDEX analysis_suggestions_kind_idx ON analysis_suggestions (analysis_id, kind, cost_per_month DESC, position)`.execute(db);
  // INCLUDE status: the screen's category select keeps the preset's status, and that count stays index-only.
  await sql`CREATE INDEX analysis_suggestions_category_idx ON analysis_suggestions (analysis_id, category, cost_per_month DESC, position) INCLUDE (status) WHERE category IS NOT NULL`.execute(db);
  await sql`CREATE INDEX analysis_suggestions_status_idx ON analysis_suggestions (analysis_id, status, cost_per_month DESC, position) WHERE status IS NOT NULL`.execute(db);
  await sql`CREATE INDEX analysis_suggestions_campaign_idx ON analysis_suggestions (analysis_id, campaign_key, cost_per_month DESC, position)`.execute(db);
  // The expression is results-pages.ts's `severityRank`, character for character (else the planner does not match it).
  await sql`CREATE INDEX analysis_findings_severity_idx ON analysis_findings (analysis_id, (CASE severity WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END), money_per_month DESC, position)`.execute(db);

  // A failed CREATE EXTENSION would abort the migration's transaction: the block's own savepoint keeps it.
  await sql`
    DO $$
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN OTHERS THEN
      RAISE WARNING 'pg_trgm is not available (%): the results text search works without its index', SQLERRM;
    END
    $$`.execute(db);
  await sql`
    DO $$
    BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        CREATE INDEX analysis_suggestions_search_idx ON analysis_suggestions USING gin (search gin_trgm_ops);
        CREATE INDEX analysis_findings_search_idx ON analysis_findings USING gin (search gin_trgm_ops);
      END IF;
    END
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['analysis_suggestions_search_idx', 'analysis_findings_search_idx', 'analysis_findings_severity_idx', 'analysis_suggestions_status_idx', 'analysis_suggestions_category_idx', 'analysis_suggestions_kind_idx', 'analysis_suggestions_campaign_idx']) {
    await sql`DROP INDEX IF EXISTS ${sql.table(index)}`.execute(db);
  }
  await sql`CREATE INDEX analysis_suggestions_kind_idx ON analysis_suggestions (analysis_id, kind, category, cost_per_month DESC)`.execute(db);
  await sql`CREATE INDEX analysis_suggestions_campaign_idx ON analysis_suggestions (analysis_id, campaign_key)`.execute(db);
}

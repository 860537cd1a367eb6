import { sql, type Kysely } from 'kysely';

/**
 * Results as rows (issue 9): findings, their items, suggestions, decisions, per-entity scores and the
 * semantic sections each get a table keyed by the analysis (deleting an analysis or its project
 * cascades); the analysis keeps a small summary document (`report`) and a failure reason code.
 *
 * Analyses stored before this migration (the whole result in `analyses.result`, decisions in
 * `analyses.decisions`) are set aside in `analysis_legacy_results` and both columns are dropped. A
 * migration runs no live code (the writer of today writes today's schema, not this one's): the server
 * converts what is set aside once the schema is up to date (`server/analysis/legacy-results.ts`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE analyses ADD COLUMN report jsonb, ADD COLUMN error_code text, ADD COLUMN result_rows integer`.execute(db);

  await sql`
    CREATE TABLE analysis_findings (
      analysis_id uuid NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
      id text NOT NULL,
      position integer NOT NULL,
      check_id text NOT NULL,
      severity text NOT NULL,
      family text NOT NULL,
      level text NOT NULL,
      campaign_key text,
      group_key text,
      money_per_month double precision NOT NULL DEFAULT 0,
      count integer NOT NULL DEFAULT 1,
      search text NOT NULL DEFAULT '',
      document jsonb NOT NULL,
      PRIMARY KEY (analysis_id, id)
    )`.execute(db);
  await sql`CREATE INDEX analysis_findings_money_idx ON analysis_findings (analysis_id, money_per_month DESC, position)`.execute(db);
  await sql`CREATE INDEX analysis_findings_check_idx ON analysis_findings (analysis_id, check_id, money_per_month DESC)`.execute(db);
  await sql`CREATE INDEX analysis_findings_campaign_idx ON analysis_findings (analysis_id, campaign_key, money_per_month DESC)`.execute(db);
  await sql`CREATE INDEX analysis_findings_group_idx ON analysis_findings (analysis_id, group_key)`.execute(db);

  await sql`
    CREATE TABLE analysis_finding_items (
      analysis_id uuid NOT NULL,
      finding_id text NOT NULL,
      position integer NOT NULL,
      money_per_month double precision NOT NULL DEFAULT 0,
      -- Items in the row (a chunk, 0070): the conversion below writes them with today's code.
      count integer NOT NULL DEFAULT 1,
      document jsonb NOT NULL,
      PRIMARY KEY (analysis_id, finding_id, position),
      FOREIGN KEY (analysis_id, finding_id) REFERENCES analysis_findings(analysis_id, id) ON DELETE CASCADE
    )`.execute(db);

  await sql`
    CREATE TABLE analysis_suggestions (
      analysis_id uuid NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
      id text NOT NULL,
      position integer NOT NULL,
      kind text NOT NULL,
      category text,
      status text,
      level text NOT NULL,
      campaign_key text,
      group_key text,
      cost_per_month double precision NOT NULL DEFAULT 0,
      search text NOT NULL DEFAULT '',
      document jsonb NOT NULL,
      PRIMARY KEY (analysis_id, id)
    )`.execute(db);
  await sql`CREATE INDEX analysis_suggestions_money_idx ON analysis_suggestions (analysis_id, cost_per_month DESC, position)`.execute(db);
  await sql`CREATE INDEX analysis_suggestions_kind_idx ON analysis_suggestions (analysis_id, kind, category, cost_per_month DESC)`.execute(db);
  // The export reads accepted suggestions in the engine's order, batch by batch.
  await sql`CREATE INDEX analysis_suggestions_position_idx ON analysis_suggestions (analysis_id, position)`.execute(db);
  await sql`CREATE INDEX analysis_suggestions_campaign_idx ON analysis_suggestions (analysis_id, campaign_key)`.execute(db);
  await sql`CREATE INDEX analysis_suggestions_group_idx ON analysis_suggestions (analysis_id, group_key)`.execute(db);

  await sql`
    CREATE TABLE analysis_decisions (
      analysis_id uuid NOT NULL,
      suggestion_id text NOT NULL,
      decision text NOT NULL CHECK (decision IN ('accepted', 'rejected')),
      value text,
      decided_by uuid REFERENCES users(id) ON DELETE SET NULL,
      decided_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (analysis_id, suggestion_id),
      FOREIGN KEY (analysis_id, suggestion_id) REFERENCES analysis_suggestions(analysis_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX analysis_decisions_decision_idx ON analysis_decisions (analysis_id, decision)`.execute(db);

  await sql`
    CREATE TABLE analysis_scores (
      analysis_id uuid NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
      level text NOT NULL,
      key text NOT NULL,
      position integer NOT NULL,
      campaign_key text,
      group_key text,
      score double precision NOT NULL,
      money_per_month double precision NOT NULL DEFAULT 0,
      document jsonb NOT NULL,
      PRIMARY KEY (analysis_id, level, key)
    )`.execute(db);
  await sql`CREATE INDEX analysis_scores_score_idx ON analysis_scores (analysis_id, level, score, position)`.execute(db);
  await sql`CREATE INDEX analysis_scores_money_idx ON analysis_scores (analysis_id, level, money_per_month DESC, position)`.execute(db);

  await sql`
    CREATE TABLE analysis_semantic (
      analysis_id uuid NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
      section text NOT NULL,
      position integer NOT NULL,
      campaign_key text,
      group_key text,
      count integer NOT NULL DEFAULT 1,
      document jsonb NOT NULL,
      PRIMARY KEY (analysis_id, section, position)
    )`.execute(db);

  await sql`
    CREATE TABLE analysis_legacy_results AS
      SELECT id AS analysis_id, result, decisions FROM analyses WHERE result IS NOT NULL`.execute(db);
  await sql`ALTER TABLE analysis_legacy_results ADD PRIMARY KEY (analysis_id)`.execute(db);
  await sql`ALTER TABLE analyses DROP COLUMN result, DROP COLUMN decisions`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE analyses ADD COLUMN result jsonb, ADD COLUMN decisions jsonb NOT NULL DEFAULT '{"accepted": [], "rejected": []}'::jsonb`.execute(db);
  await sql`
    UPDATE analyses a SET result = l.result, decisions = COALESCE(l.decisions, a.decisions)
      FROM analysis_legacy_results l WHERE l.analysis_id = a.id`.execute(db);
  await sql`DROP TABLE analysis_legacy_results`.execute(db);
  for (const table of ['analysis_decisions', 'analysis_finding_items', 'analysis_findings', 'analysis_suggestions', 'analysis_scores', 'analysis_semantic']) {
    await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
  }
  await sql`ALTER TABLE analyses DROP COLUMN report, DROP COLUMN error_code, DROP COLUMN result_rows`.execute(db);
}

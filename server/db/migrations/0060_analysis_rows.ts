import { sql, type Kysely } from 'kysely';
import type { AuditResult } from '../../../contract/analysis.js';
import { buildResultsSummary, resultRowBatches } from '../../analysis/result-rows.js';
import { insertRowBatch } from '../../analysis/row-writer.js';

/**
 * Results as rows (issue 9): findings, their items, suggestions, decisions, per-entity scores and the
 * semantic sections each get a table keyed by the analysis (deleting an analysis or its project
 * cascades); the analysis keeps a small summary document (`report`) and a failure reason code.
 *
 * Analyses stored before this migration (the whole result in `analyses.result`, decisions in
 * `analyses.decisions`) are converted here, one at a time, by the same code the worker stores new
 * results with; then both columns are dropped. Such a blob is at most 256 MB (PostgreSQL's jsonb
 * limit), so one at a time fits in memory.
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

  await convertStoredResults(db);
  await sql`ALTER TABLE analyses DROP COLUMN result, DROP COLUMN decisions`.execute(db);
}

/** Old blobs → rows, one analysis at a time, with their decisions. */
async function convertStoredResults(db: Kysely<any>): Promise<void> {
  const stored = await sql<{ id: string }>`SELECT id FROM analyses WHERE result IS NOT NULL ORDER BY created_at`.execute(db);
  for (const { id } of stored.rows) {
    const row = await sql<{ result: string; decisions: { accepted?: string[]; rejected?: string[]; values?: Record<string, string> } }>`
      SELECT result::text AS result, decisions FROM analyses WHERE id = ${id}`.execute(db);
    const result = JSON.parse(row.rows[0]!.result) as AuditResult;
    const batches = resultRowBatches(result);
    let rows = 0;
    for (let next = batches.next(); !next.done; next = batches.next()) {
      await insertRowBatch(db, id, next.value);
      rows += next.value.rows;
    }
    const decisions = row.rows[0]!.decisions ?? {};
    await sql`
      INSERT INTO analysis_decisions (analysis_id, suggestion_id, decision, value, decided_at)
      SELECT ${id}::uuid, d.id, d.decision, ${JSON.stringify(decisions.values ?? {})}::jsonb ->> d.id, a.updated_at
        FROM (SELECT jsonb_array_elements_text(${JSON.stringify(decisions.accepted ?? [])}::jsonb) AS id, 'accepted' AS decision
              UNION ALL
              SELECT jsonb_array_elements_text(${JSON.stringify(decisions.rejected ?? [])}::jsonb), 'rejected') d
        JOIN analyses a ON a.id = ${id}::uuid
        JOIN analysis_suggestions s ON s.analysis_id = a.id AND s.id = d.id
      ON CONFLICT DO NOTHING`.execute(db);
    await sql`UPDATE analyses SET report = ${JSON.stringify(buildResultsSummary(result))}::jsonb, result_rows = ${rows} WHERE id = ${id}`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE analyses ADD COLUMN result jsonb, ADD COLUMN decisions jsonb NOT NULL DEFAULT '{"accepted": [], "rejected": []}'::jsonb`.execute(db);
  for (const table of ['analysis_decisions', 'analysis_finding_items', 'analysis_findings', 'analysis_suggestions', 'analysis_scores', 'analysis_semantic']) {
    await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
  }
  await sql`ALTER TABLE analyses DROP COLUMN report, DROP COLUMN error_code, DROP COLUMN result_rows`.execute(db);
}

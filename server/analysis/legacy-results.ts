import { sql } from 'kysely';
import type { AuditResult } from '../../contract/analysis.js';
import type { DB } from '../db/database.js';
import { buildResultsSummary, resultRowBatches } from './result-rows.js';
import { insertRowBatch } from './row-writer.js';

interface LegacyDecisions {
  accepted?: string[];
  rejected?: string[];
  values?: Record<string, string>;
}

/**
 * Results stored as one blob before migration 0060, which set them aside in `analysis_legacy_results`:
 * each becomes rows with the writer of today (the schema is up to date when this runs), with its
 * decisions and summary, in one transaction per analysis that also deletes the blob. Two processes
 * starting at once share the work (`SKIP LOCKED`). A blob is at most 256 MB (jsonb's limit), so one at a
 * time fits in memory. Answers how many were converted.
 */
export async function convertLegacyResults(db: DB): Promise<number> {
  let converted = 0;
  for (;;) {
    const done = await db.transaction().execute(async (trx) => {
      const taken = await sql<{ analysis_id: string; result: string | null; decisions: LegacyDecisions | null }>`
        DELETE FROM analysis_legacy_results
         WHERE analysis_id = (SELECT analysis_id FROM analysis_legacy_results LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING analysis_id, result::text AS result, decisions`.execute(trx);
      const row = taken.rows[0];
      if (!row) return false;
      // An analysis deleted since (by hand or with its project) leaves nothing to convert.
      const exists = await trx.selectFrom('analyses').select('id').where('id', '=', row.analysis_id).executeTakeFirst();
      if (exists && row.result) await writeLegacyResult(trx, row.analysis_id, JSON.parse(row.result) as AuditResult, row.decisions ?? {});
      return true;
    });
    if (!done) return converted;
    converted += 1;
  }
}

async function writeLegacyResult(trx: DB, id: string, result: AuditResult, decisions: LegacyDecisions): Promise<void> {
  let rows = 0;
  const batches = resultRowBatches(result);
  for (let next = batches.next(); !next.done; next = batches.next()) {
    await insertRowBatch(trx, id, next.value);
    rows += next.value.rows;
  }
  await sql`
    INSERT INTO analysis_decisions (analysis_id, suggestion_id, decision, value, decided_at)
    SELECT ${id}::uuid, d.id, d.decision, ${JSON.stringify(decisions.values ?? {})}::jsonb ->> d.id, a.updated_at
      FROM (SELECT jsonb_array_elements_text(${JSON.stringify(decisions.accepted ?? [])}::jsonb) AS id, 'accepted' AS decision
            UNION ALL
            SELECT jsonb_array_elements_text(${JSON.stringify(decisions.rejected ?? [])}::jsonb), 'rejected') d
      JOIN analyses a ON a.id = ${id}::uuid
      JOIN analysis_suggestions s ON s.analysis_id = a.id AND s.id = d.id
    ON CONFLICT DO NOTHING`.execute(trx);
  await sql`UPDATE analyses SET report = ${JSON.stringify(buildResultsSummary(result))}::jsonb, result_rows = ${rows}, decision_counts = NULL, decided_positions = NULL, accepted_positions = NULL WHERE id = ${id}`.execute(trx);
}

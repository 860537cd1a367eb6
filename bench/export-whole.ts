/**
 * The export as it was before it read the rows campaign by campaign (main up to 2026-11-24), kept for
 * the results-at-scale bench to measure against in the same run: the API read every accepted
 * suggestion's document and every analysed campaign's JSON into strings, handed them all to an export
 * thread (a copy), which parsed the whole account, applied the changes to a copy of all of it and wrote
 * the CSV of the touched campaigns. Here the thread hashes the file instead of streaming it.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Suggestion } from '../contract/analysis-results.js';
import { applyChanges, collectChanges } from '../server/engines/export/changes.js';
import { yandexCsvPieces } from '../server/engines/export/yandex.js';
import { campaignDataOf } from '../server/analysis/run-audit.js';
import type { DB } from '../server/db/database.js';
import { exportPool } from '../server/lib/worker-pool.js';

interface WholeInput {
  campaigns: string[];
  suggestions: string[];
  accepted: { id: string; value?: string }[];
}

/** In the export pool's thread: the whole account parsed and changed, the CSV of the touched campaigns hashed. */
export async function exportWhole(input: WholeInput): Promise<{ bytes: number; sha256: string }> {
  const data = campaignDataOf({ platform: 'yandex_direct', period: null, campaigns: input.campaigns, searchQueries: [] });
  const suggestions = input.suggestions.map((text) => JSON.parse(text) as Suggestion);
  const changes = collectChanges(suggestions, input.accepted);
  const changed = applyChanges(data, changes);
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const piece of yandexCsvPieces(changes.campaignIndexes.map((index) => changed.campaigns[index]!))) {
    const buffer = Buffer.from(piece, 'utf8');
    bytes += buffer.byteLength;
    hash.update(buffer);
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** In the server process: main's reads (every accepted document, every campaign), then the thread. */
export async function runWholeExport(db: DB, analysisId: string): Promise<{ bytes: number; sha256: string }> {
  const analysis = await db.selectFrom('analyses').select(['project_id', 'options']).where('id', '=', analysisId).executeTakeFirstOrThrow();
  const suggestions: string[] = [];
  const accepted: WholeInput['accepted'] = [];
  const { n } = await db.selectFrom('analysis_suggestions').select(sql<number>`coalesce(max(position) + 1, 0)::int`.as('n')).where('analysis_id', '=', analysisId).executeTakeFirstOrThrow();
  for (let from = 0; from < n; from += 5_000) {
    const batch = await sql<{ id: string; document: string; value: string | null }>`
      SELECT s.id, s.document::text AS document, d.value
        FROM (SELECT id, position, document FROM analysis_suggestions
               WHERE analysis_id = ${analysisId} AND position >= ${from} AND position < ${from + 5_000} OFFSET 0) s
        JOIN analysis_decisions d ON d.analysis_id = ${analysisId} AND d.suggestion_id = s.id AND d.decision = 'accepted'
       ORDER BY s.position`.execute(db);
    for (const item of batch.rows) {
      suggestions.push(item.document);
      accepted.push(item.value !== null ? { id: item.id, value: item.value } : { id: item.id });
    }
  }
  const campaignIds = (analysis.options as { campaign_ids: string[] }).campaign_ids;
  const campaigns = await db.selectFrom('campaigns').select(sql<string>`data::text`.as('data')).where('id', 'in', campaignIds).orderBy('position').execute();
  const input: WholeInput = { campaigns: campaigns.map((c) => c.data), suggestions, accepted };
  return exportPool().run(new URL('./export-whole.js', import.meta.url), 'exportWhole', [input]);
}

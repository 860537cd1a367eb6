import { resultRowBatches } from '../server/analysis/result-rows.js';
import { runCampaignAnalysis } from '../server/analysis/scoring/run-analysis.js';
import { generateAccount } from './analysis.js';
const data = generateAccount();
const out = await runCampaignAnalysis(data);
const result = { scoring: out.scoring, semantic: out.semantic, money: out.money };
const per: Record<string, { rows: number; bytes: number; search: number; doc: number; sample?: string }> = {};
for (const b of resultRowBatches(result as any, undefined, { encoding: { kind: 'copy', analysisId: '00000000-0000-0000-0000-000000000000' }, compactRefs: true })) {
  if (b.kind !== 'copy') continue;
  for (const line of b.text.split('\n')) {
    if (!line) continue;
    const cols = line.split('\t');
    const key = b.table === 'analysis_suggestions' ? 'sugg:' + cols[3] : b.table === 'analysis_semantic' ? 'sem:' + cols[1] : b.table === 'analysis_scores' ? 'score:' + cols[1] : b.table;
    const t = (per[key] ??= { rows: 0, bytes: 0, search: 0, doc: 0 });
    t.rows++; t.bytes += Buffer.byteLength(line);
    if (b.table === 'analysis_suggestions') { t.search += Buffer.byteLength(cols[10]!); t.doc += Buffer.byteLength(cols[11]!); }
    if (!t.sample) t.sample = line.slice(0, 900);
  }
}
for (const [k, v] of Object.entries(per)) console.log(k, v.rows, (v.bytes / 1e6).toFixed(1) + ' MB', (v.bytes / v.rows).toFixed(0) + ' B/row', 'search', (v.search / 1e6).toFixed(1), 'doc', (v.doc / 1e6).toFixed(1), '\n', v.sample, '\n');

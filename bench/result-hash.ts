/**
 * SHA-256 of everything the engine thread produces for bench/analysis.ts's account (every row batch as
 * the worker gets it, the summary and the report), to check that a change to the engines or the encoding
 * leaves the output byte-identical: run it before and after (e.g. on a `git archive` of main).
 *
 *   npx tsx bench/result-hash.ts [keywords, default 20 000]
 */
import { createHash } from 'node:crypto';
import { MessageChannel } from 'node:worker_threads';
import { benchAccountSize, generateAccount } from './analysis.js';
import { runAuditInThread, type RawAuditInput } from '../server/analysis/run-audit.js';
import { copyText, type ResultRowBatch } from '../server/analysis/result-rows.js';

const keywords = Number(process.argv[2] ?? 20_000);
const data = generateAccount(benchAccountSize(keywords));
const enc = new TextEncoder();
const campaigns = data.campaigns.map((campaign) => enc.encode(JSON.stringify(campaign)));
const searchQueries: Uint8Array[] = [];
for (let start = 0; start < data.searchQueries.length; start += 10_000) searchQueries.push(enc.encode(JSON.stringify(data.searchQueries.slice(start, start + 10_000))));
const raw: RawAuditInput = { analysisId: '00000000-0000-0000-0000-000000000000', platform: 'yandex_direct', period: data.period ?? null, campaigns, searchQueries, settings: {}, targetCpa: null, region: 'Москва' };

const hash = createHash('sha256');
const { port1, port2 } = new MessageChannel();
let batches = 0;
port1.on('message', (message: { type: string; batch?: ResultRowBatch }) => {
  if (message.type === 'progress' || !message.batch) return;
  batches++;
  // A copy batch as its text (the form it had before it became bytes), so hashes stay comparable.
  const batch = message.batch;
  hash.update(JSON.stringify(batch.kind === 'copy' ? { table: batch.table, rows: batch.rows, chars: batch.chars, kind: batch.kind, text: copyText(batch) } : batch));
  port1.postMessage({ type: 'ack' });
});
const output = await runAuditInThread(raw, port2);
hash.update(JSON.stringify({ summary: output.summary, report: output.report, rows: output.rows }));
console.log(`${keywords}: ${batches} batches, ${output.rows} rows, sha256 ${hash.digest('hex')}`);
process.exit(0);

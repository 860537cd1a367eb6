/**
 * The engine thread's work in this process, stage by stage, in CPU time as well as wall time: on the shared
 * machine the wall time moves with the other engineers' load (3–10× the CPU time at a load average of
 * 15–25), the CPU time much less, so two versions run in the same minutes compare by it.
 *
 * bench/analysis.ts's account (or, with `PROBE_E2E=1`, the end-to-end bench's: the same account written
 * as files and read back by the importer, whose CPU is printed too) goes through `runAuditInThread` with
 * a port that notes each progress report and the first row batch as it is posted (no thread, no message
 * latency). With `PROBE_HASH` left at 1, every batch, the summary and the report are hashed as in
 * bench/result-hash.ts, so the run also says whether the output changed.
 *
 *   npx tsx bench/cpu-probe.ts [keywords, default 100 000]
 *   node --cpu-prof --import tsx bench/cpu-probe.ts 100000   # and a profile of the whole run
 *
 * It reads only stable entry points (`runAuditInThread`, the importer, the bench generator), so the same
 * file runs on an older tree (a worktree of the base commit) for a same-minute comparison.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { CampaignData } from '../contract/campaigns.js';
import { runAuditInThread, type RawAuditInput } from '../server/analysis/run-audit.js';
import { copyText, type ResultRowBatch } from '../server/analysis/result-rows.js';
import { importCampaignFiles } from '../server/projects/importers/index.js';
import { accountFiles } from './account-files.js';
import { benchAccountSize, generateAccount } from './analysis.js';

const keywords = Number(process.argv[2] ?? 100_000);
const hashing = process.env.PROBE_HASH !== '0';
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

let data: CampaignData = generateAccount(benchAccountSize(keywords));
if (process.env.PROBE_E2E === '1') {
  const files = accountFiles(data).files.map((file) => ({ name: file.name, bytes: new TextEncoder().encode(file.text) }));
  const cpuBefore = cpuMs();
  const wallBefore = performance.now();
  const imported = await importCampaignFiles(files, { platform: 'yandex_direct' });
  console.log(`  import          wall ${seconds(performance.now() - wallBefore).padStart(8)}  cpu ${seconds(cpuMs() - cpuBefore).padStart(8)}  (${imported.counts.keywords} keywords)`);
  if (!imported.data) throw new Error(`import failed: ${JSON.stringify(imported.problems.slice(0, 3))}`);
  data = imported.data;
}

// The account as the worker hands it over: JSON texts as UTF-8 bytes (the report in chunks).
const encoder = new TextEncoder();
const searchQueries: Uint8Array[] = [];
for (let start = 0; start < data.searchQueries.length; start += 10_000) searchQueries.push(encoder.encode(JSON.stringify(data.searchQueries.slice(start, start + 10_000))));
const raw: RawAuditInput = {
  analysisId: '00000000-0000-0000-0000-000000000000',
  platform: 'yandex_direct',
  period: data.period ?? null,
  campaigns: data.campaigns.map((campaign) => encoder.encode(JSON.stringify(campaign))),
  searchQueries,
  settings: {},
  targetCpa: null,
  region: 'Москва',
};

const marks: { label: string; wall: number; cpu: number }[] = [];
const wallStart = performance.now();
const cpuStart = cpuMs();
const mark = (label: string) => {
  if (marks.at(-1)?.label !== label) marks.push({ label, wall: performance.now() - wallStart, cpu: cpuMs() - cpuStart });
};

const hash = createHash('sha256');
let batches = 0;
type Message = { type: 'progress'; progress: { stage: string; done: number; total: number } } | { type: 'batch'; batch: ResultRowBatch };
/** The thread's port as runAuditInThread uses it: posted messages noted at once, each batch acknowledged on the next turn. */
const port = Object.assign(new EventEmitter(), {
  postMessage(message: Message) {
    if (message.type === 'progress') {
      const { stage, done, total } = message.progress;
      return mark(stage === 'semantic' || stage === 'scoring' ? `${stage} ${done}/${total}` : stage);
    }
    if (batches++ === 0) mark('encoding');
    const batch = message.batch;
    if (hashing) hash.update(JSON.stringify(batch.kind === 'copy' ? { table: batch.table, rows: batch.rows, chars: batch.chars, kind: batch.kind, text: copyText(batch) } : batch));
    setImmediate(() => port.emit('message', { type: 'ack' }));
  },
  close() {},
});
const output = await runAuditInThread(raw, port as never);
mark('done');

for (let i = 0; i < marks.length - 1; i++) {
  const [from, to] = [marks[i]!, marks[i + 1]!];
  console.log(`  ${from.label.padEnd(14)}  wall ${seconds(to.wall - from.wall).padStart(8)}  cpu ${seconds(to.cpu - from.cpu).padStart(8)}`);
}
const encoding = marks.find((entry) => entry.label === 'encoding')!;
const done = marks.at(-1)!;
console.log(`  engines (to the first batch): wall ${seconds(encoding.wall)}, cpu ${seconds(encoding.cpu)}; everything: wall ${seconds(done.wall)}, cpu ${seconds(done.cpu)}${hashing ? ' (hashing included)' : ''}`);
if (hashing) hash.update(JSON.stringify({ summary: output.summary, report: output.report, rows: output.rows }));
console.log(`${keywords}: ${batches} batches, ${output.rows} rows${hashing ? `, sha256 ${hash.digest('hex')}` : ''}`);
process.exit(0);

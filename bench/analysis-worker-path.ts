/**
 * The analysis as the job runs it, in a process of its own (`bench/analysis.ts` starts it, so its
 * peak RSS is the engines' and nothing else's): the account's JSON texts as UTF-8 bytes (what
 * `loadAuditInput` hands over), `runAuditInThread` in a thread of the analysis pool with its heap
 * limit → progress and row batches over the MessagePort (no saving target: the job's thread saves them
 * itself, result-saving.ts), each batch acknowledged and dropped.
 * Prints one JSON line: when each stage started, the first and last batch, rows, the thread's heap at
 * its progress points and the process's peak RSS (the thread included).
 *
 *   tsx bench/analysis-worker-path.ts <dir with campaign-*.json and queries-*.json> <period JSON>
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { StatsPeriod } from '../contract/campaigns.js';
import { MessageChannel } from 'node:worker_threads';
import { analysisStorageLimits } from '../server/analysis/worker.js';
import { analysisPool, closeWorkerPools, workerPoolSettings } from '../server/lib/worker-pool.js';
import { receivePortStream } from '../server/lib/port-stream.js';
import type { AuditOutput, AuditProgressMessage, AuditRowsMessage, AuditSavingMessage, RawAuditInput } from '../server/analysis/run-audit.js';

const [dir, periodJson] = process.argv.slice(2);
const files = readdirSync(dir!).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
// Each file's bytes in a buffer of its own: transferable, as the worker's are.
const read = (name: string) => new Uint8Array(readFileSync(path.join(dir!, name)));
const input: RawAuditInput = {
  platform: 'yandex_direct',
  period: JSON.parse(periodJson!) as StatsPeriod,
  campaigns: files.filter((name) => name.startsWith('campaign-')).map(read),
  searchQueries: files.filter((name) => name.startsWith('queries-')).map(read),
  settings: {},
  targetCpa: null,
  region: 'Москва',
};

const vmHwmKb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
const idleRss = process.memoryUsage.rss();

const started = performance.now();
const at = () => Math.round(performance.now() - started);
const stages: { stage: string; at: number }[] = [];
let firstBatchAt: number | null = null;
let batches = 0;
let batchRows = 0;
const { port1, port2 } = new MessageChannel();
receivePortStream<AuditRowsMessage, AuditProgressMessage | AuditSavingMessage>(port1, {
  handle: ({ batch }) => {
    firstBatchAt ??= at();
    batches++;
    batchRows += batch.rows;
  },
  notice: (message) => {
    if (message.type !== 'progress') return;
    const { progress } = message;
    const label = progress.stage === 'semantic' || progress.stage === 'scoring' ? `${progress.stage} ${progress.done}/${progress.total}` : progress.stage;
    if (stages.at(-1)?.stage === label) return;
    stages.push({ stage: label, at: at() });
    // Live on stderr too: a run that dies still shows how far it got.
    process.stderr.write(`  … ${label} at ${(at() / 1000).toFixed(1)} s, RSS ${Math.round(process.memoryUsage.rss() / 1048576)} MB\n`);
  },
});
const transfer = [...new Set([...input.campaigns, ...input.searchQueries].map((bytes) => (bytes as Uint8Array).buffer as ArrayBuffer))];
const output = await analysisPool().run<AuditOutput>(new URL('../server/analysis/run-audit.js', import.meta.url), 'runAuditInThread', [input, port2, analysisStorageLimits], {
  transferList: [port2, ...transfer],
});
port1.close();
const doneAt = at();
clearInterval(sampler);
peakRss = Math.max(peakRss, vmHwmKb() * 1024);
await closeWorkerPools();
console.log(
  JSON.stringify({
    heapLimitMb: workerPoolSettings.analysisHeapMb,
    stages,
    firstBatchAt,
    doneAt,
    batches,
    rows: output.rows,
    batchRows,
    findings: output.summary.findings_count,
    accountScore: output.summary.account_score,
    threadHeap: output.engineMemory,
    idleRss,
    peakRss,
  }),
);
process.exit(0);

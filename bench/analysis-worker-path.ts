/**
 * The analysis as the job runs it, in a process of its own (`bench/analysis.ts` starts it, so its
 * peak RSS is the engines' and nothing else's): the account's JSON texts as UTF-8 bytes (what
 * `loadAuditInput` hands over), `runAuditInWorkerThread` → a thread of the analysis pool with its heap
 * limit → progress and row batches over the MessagePort, each batch "written" by a sink that drops it.
 * Prints one JSON line: when each stage started, the first and last batch, rows, the thread's heap at
 * its progress points and the process's peak RSS (the thread included).
 *
 *   tsx bench/analysis-worker-path.ts <dir with campaign-*.json and queries-*.json> <period JSON>
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { StatsPeriod } from '../contract/campaigns.js';
import { runAuditInWorkerThread } from '../server/analysis/worker.js';
import { closeWorkerPools, workerPoolSettings } from '../server/lib/worker-pool.js';
import type { RawAuditInput } from '../server/analysis/run-audit.js';

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
const output = await runAuditInWorkerThread(
  input,
  (progress) => {
    const label = progress.stage === 'semantic' || progress.stage === 'scoring' ? `${progress.stage} ${progress.done}/${progress.total}` : progress.stage;
    if (stages.at(-1)?.stage === label) return;
    stages.push({ stage: label, at: at() });
    // Live on stderr too: a run that dies still shows how far it got.
    process.stderr.write(`  … ${label} at ${(at() / 1000).toFixed(1)} s, RSS ${Math.round(process.memoryUsage.rss() / 1048576)} MB\n`);
  },
  new AbortController().signal,
  async (batch) => {
    firstBatchAt ??= at();
    batches++;
    batchRows += batch.rows;
  },
);
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

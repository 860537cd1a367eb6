/**
 * The engine thread's memory on bench/analysis.ts's account, `runAuditInThread` run in this process with
 * the analysis thread's heap limits: the heap and RSS at each engine stage and every 50 row batches (a
 * sink that acknowledges at once), and with `profile`, V8's sampling heap profile at the stage boundaries:
 * the 40 allocation sites (three frames deep) holding the most live memory, also written to
 * /tmp/memprofile-<stage>.txt. Heavy at 1 000 000: run it under `flock /work/wt/heavy.lock`.
 *
 *   node --max-old-space-size=3072 --max-semi-space-size=64 --expose-gc --import tsx bench/engine-memory.ts [keywords] [profile]
 */
import { Session } from 'node:inspector';
import { MessageChannel } from 'node:worker_threads';
import { writeFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { benchAccountSize, generateAccount } from './analysis.js';
import { runAuditInThread, type RawAuditInput } from '../server/analysis/run-audit.js';
import type { CampaignData } from '../contract/campaigns.js';

const keywords = Number(process.argv[2] ?? 1_000_000);
const profile = process.argv[3] === 'profile';
const mb = (bytes: number) => `${Math.round(bytes / 1048576)}`;

let data: CampaignData | null = generateAccount(benchAccountSize(keywords));
const enc = new TextEncoder();
const campaigns = data.campaigns.map((campaign) => enc.encode(JSON.stringify(campaign)));
const searchQueries: Uint8Array[] = [];
for (let start = 0; start < data.searchQueries.length; start += 10_000) searchQueries.push(enc.encode(JSON.stringify(data.searchQueries.slice(start, start + 10_000))));
const raw: RawAuditInput = { analysisId: '00000000-0000-0000-0000-000000000000', platform: 'yandex_direct', period: data.period ?? null, campaigns, searchQueries, settings: {}, targetCpa: null, region: 'Москва' };
data = null;
(globalThis as { gc?: () => void }).gc?.();
console.log(`input ${mb(campaigns.reduce((s, b) => s + b.byteLength, 0) + searchQueries.reduce((s, b) => s + b.byteLength, 0))} MB; heap ${mb(process.memoryUsage().heapUsed)} MB, rss ${mb(process.memoryUsage.rss())}`);

const session = new Session();
session.connect();
const post = <T>(method: string, params?: object): T => {
  let out: T | undefined;
  let failed: unknown;
  session.post(method, params, (error, result) => {
    if (error) failed = error;
    out = result as T;
  });
  if (failed) throw failed;
  return out as T;
};
if (profile) post('HeapProfiler.startSampling', { samplingInterval: 64 * 1024 });

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}
function summarise(label: string): void {
  const { profile: tree } = post<{ profile: { head: Node } }>('HeapProfiler.getSamplingProfile');
  const bySite = new Map<string, number>();
  const walk = (node: Node, path: string[]) => {
    const frame = `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.replace(/.*\/memory\//, '')}:${node.callFrame.lineNumber + 1}`;
    const here = [...path, frame];
    if (node.selfSize > 0) {
      const key = here.slice(-3).reverse().join(' < ');
      bySite.set(key, (bySite.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(tree.head, []);
  const total = [...bySite.values()].reduce((a, b) => a + b, 0);
  const lines = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([site, size]) => `  ${mb(size).padStart(5)} MB  ${site}`);
  const text = `== ${label}: live sampled ${mb(total)} MB\n${lines.join('\n')}\n`;
  writeFileSync(`/tmp/memprofile-${label.replace(/\W+/g, '_')}.txt`, text);
  console.log(text);
}

const started = performance.now();
/** Full collections asked for (collect-garbage.ts) and V8's own major ones: count and pause, ms. */
const collections = { forced: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { detail } = entry as PerformanceEntry & { detail: { kind: number; flags: number } };
    if (detail.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
    const kind = detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED ? collections.forced : collections.major;
    kind.count++;
    kind.ms += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });
let peak = 0;
const sample = (label: string) => {
  const heap = process.memoryUsage().heapUsed;
  peak = Math.max(peak, heap);
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s ${label}: heap ${mb(heap)} MB, rss ${mb(process.memoryUsage.rss())} MB`);
};

const { port1, port2 } = new MessageChannel();
let batches = 0;
let firstBatch = true;
port1.on('message', (message: { type: string }) => {
  if (message.type === 'progress') return;
  batches++;
  if (firstBatch) {
    firstBatch = false;
    sample('first batch');
    if (profile) summarise('first batch');
  }
  if (batches % 50 === 0) sample(`batch ${batches}`);
  port1.postMessage({ type: 'ack' });
});

// Progress is posted by the thread synchronously during the engines: sample the heap in the same call.
const originalPost = port2.postMessage.bind(port2);
let lastLabel = '';
port2.postMessage = ((message: { type: string; progress?: { stage: string; done: number; total: number } }) => {
  if (message.type === 'progress') {
    const p = message.progress!;
    const label = p.stage === 'semantic' || p.stage === 'scoring' ? `${p.stage} ${p.done}/${p.total}` : p.stage;
    if (label !== lastLabel) {
      lastLabel = label;
      sample(label);
      if (profile && /^(semantic [1234]|scoring|rollup)/.test(label)) summarise(label);
    } else {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
  }
  return originalPost(message);
}) as typeof port2.postMessage;

const output = await runAuditInThread(raw, port2);
sample('done');
console.log(`full collections: forced ${collections.forced.count} (${(collections.forced.ms / 1000).toFixed(1)} s), V8's own ${collections.major.count} (${(collections.major.ms / 1000).toFixed(1)} s)`);
console.log(`rows ${output.rows}, batches ${batches}, engineMemory peak ${mb(output.engineMemory!.peakHeapUsed)} MB; sampled peak ${mb(peak)} MB; maxRSS ${mb(process.resourceUsage().maxRSS * 1024)} MB; ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(0);

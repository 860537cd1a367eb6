/**
 * What the user waits for, end to end, on the real server: a generated account (ads, statistics and a
 * search-query report, bench/analysis.ts's vocabulary) uploaded as files through the API and analysed
 * by the job worker, then read the way the results screen reads it:
 *
 *   upload → preview → save → audit → first results answer → a findings page → bulk accept → export
 *
 * The server runs in its own process (bench/end-to-end-server.ts: the production build with its job
 * workers, on an embedded PostgreSQL), so its peak RSS is its own, not the generator's. Printed per
 * size: each stage's time, the server's peak RSS, rows written per table, findings per check, and the
 * bytes of the first results answer raw and compressed (asked with `Accept-Encoding: br, gzip`; when
 * the server does not compress, the bench compresses the body with node's zlib to show what it would be).
 *
 * Sizes: BENCH_E2E_SIZES (keywords, comma separated; default 10000,100000). An account over
 * 150 000 keywords is several files of at most 150 000 rows (the search-query report in files of
 * 250 000), the way Commander splits large accounts, uploaded together as one preview. The upload is
 * timed apart from the parse: «upload» ends when the last byte of the request is written, «preview»
 * when the answer arrives. BENCH_E2E_IMPORT_ONLY=1 stops after the save (the import stages alone).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import pg from 'pg';
import { accountFiles } from './account-files.js';
import { generateAccount } from './analysis.js';

const DEFAULT_SIZES = [10_000, 100_000];
const KEYWORDS_PER_GROUP = 20;
const GROUPS_PER_CAMPAIGN = 500;

// ------------------------------------------------------------------------------------ server

export interface ServerHandle {
  url: string;
  token: string;
  databaseUrl: string;
  source: string;
  child: ChildProcess;
  /** Peak resident memory of the server process so far (VmHWM), bytes. */
  peakRss: () => number;
  /** Starts a new peak measurement (the kernel's VmHWM is reset to the current RSS). */
  resetPeak: () => void;
  /** A command for a server script that takes them on stdin (one JSON line), answered by a `{"reply": …}` line. */
  command: (command: Record<string, unknown>) => Promise<Record<string, unknown>>;
  stop: () => Promise<void>;
}

/** The bench server in its own process: `script` (default bench/end-to-end-server.ts), its stdin open to the caller. */
export async function startServer(script = './end-to-end-server.ts'): Promise<ServerHandle> {
  const entry = fileURLToPath(new URL(script, import.meta.url));
  // BENCH_SERVER_NODE_ARGS: node options for the server process alone (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, which NODE_OPTIONS refuses).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', entry], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'warn' } });
  const lines = createInterface({ input: child.stdout! });
  const replies: ((line: Record<string, unknown>) => void)[] = [];
  const ready = await new Promise<{ url: string; token: string; databaseUrl: string; source: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    lines.on('line', (text) => {
      if (text.startsWith('{"ready"')) resolve(JSON.parse(text));
      else if (text.startsWith('{"reply"')) replies.shift()?.(JSON.parse(text));
      else if (text.trim()) console.log(`  [server] ${text.slice(0, 300)}`);
    });
  });
  const peakRss = () => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      return 0;
    }
  };
  const resetPeak = () => {
    try {
      writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
    } catch {
      // Not Linux, or not allowed: the peak then covers every stage so far.
    }
  };
  return {
    ...ready,
    child,
    peakRss,
    resetPeak,
    command: (command) =>
      new Promise((resolve) => {
        replies.push(resolve);
        child.stdin!.write(`${JSON.stringify(command)}\n`);
      }),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// ------------------------------------------------------------------------------------ CPU

/** CPU seconds so far of each thread of the server (by thread id) and of each of its PostgreSQL's processes (by pid). */
interface CpuSample {
  threads: Map<string, { name: string; ms: number }>;
  /** Every descendant process of the server (the postmaster and its backends). */
  postgres: Map<number, number>;
  /** CPU of each descendant's exited children it has waited for (the postmaster's: every backend that ended), ms. */
  reaped: Map<number, number>;
}

/** utime + stime of a /proc stat line, ms (clock ticks of 10 ms), and its name and parent. */
function parseStat(text: string): { name: string; ppid: number; ms: number; childrenMs: number } {
  const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { name, ppid: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12])) * 10, childrenMs: (Number(fields[13]) + Number(fields[14])) * 10 };
}

function cpuSample(serverPid: number): CpuSample {
  const threads = new Map<string, { name: string; ms: number }>();
  const read = (file: string) => {
    try {
      return parseStat(readFileSync(file, 'utf8'));
    } catch {
      return null;
    }
  };
  for (const tid of readdirSync(`/proc/${serverPid}/task`)) {
    const stat = read(`/proc/${serverPid}/task/${tid}/stat`);
    if (stat) threads.set(tid, { name: stat.name, ms: stat.ms });
  }
  // PostgreSQL's processes: the postmaster is the server's child, its backends the postmaster's.
  const processes = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map((pid) => ({ pid: Number(pid), stat: read(`/proc/${pid}/stat`) }));
  const descendants = new Set([serverPid]);
  const postgres = new Map<number, number>();
  const reaped = new Map<number, number>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const { pid, stat } of processes) {
      if (!stat || descendants.has(pid) || !descendants.has(stat.ppid)) continue;
      descendants.add(pid);
      postgres.set(pid, stat.ms);
      reaped.set(pid, stat.childrenMs);
      grew = true;
    }
  }
  return { threads, postgres, reaped };
}

/**
 * PostgreSQL's CPU between two samples: each live process's growth (a backend started since counts
 * whole), plus the backends that exited in between. Those are in no later sample, but the postmaster
 * waits for each, and the kernel adds an exited child's whole CPU to its parent's children's time: the
 * growth of that, less what the exited ones had already spent at the first sample. (Without it the
 * saving connections, closed when saving ends, were missed: «PostgreSQL 0.6 s» for 5–8 s of work.)
 */
function postgresMsBetween(from: CpuSample, to: CpuSample): number {
  let ms = 0;
  for (const [pid, now] of to.postgres) ms += Math.max(0, now - (from.postgres.get(pid) ?? 0));
  for (const [pid, now] of to.reaped) ms += Math.max(0, now - (from.reaped.get(pid) ?? 0));
  for (const [pid, then] of from.postgres) if (!to.postgres.has(pid)) ms -= then;
  return Math.max(0, ms);
}

/** The server's CPU (every thread) and PostgreSQL's between two samples, ms. */
function cpuBetween(from: CpuSample, to: CpuSample): { serverMs: number; postgresMs: number } {
  let serverMs = 0;
  for (const [tid, { ms }] of to.threads) serverMs += ms - (from.threads.get(tid)?.ms ?? 0);
  return { serverMs, postgresMs: postgresMsBetween(from, to) };
}

/** «server 61.2 s (main 3.1, thread 55.0, …), PostgreSQL 40.3 s»: the busiest threads between two samples. */
function describeCpu(from: CpuSample, to: CpuSample): string {
  const used = [...to.threads].map(([tid, { name, ms }]) => ({ name: `${name}#${tid}`, ms: ms - (from.threads.get(tid)?.ms ?? 0) })).sort((a, b) => b.ms - a.ms);
  const total = used.reduce((sum, thread) => sum + thread.ms, 0);
  const busiest = used.slice(0, 4).map((thread) => `${thread.name} ${(thread.ms / 1000).toFixed(1)}`).join(', ');
  return `server ${(total / 1000).toFixed(1)} s (${busiest}), PostgreSQL ${(postgresMsBetween(from, to) / 1000).toFixed(1)} s`;
}

// ------------------------------------------------------------------------------------ requests

export async function api<T>(server: ServerHandle, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${path}: HTTP ${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** GET with `Accept-Encoding: br, gzip`, counting the bytes as they come off the socket. */
function getOnTheWire(server: ServerHandle, path: string): Promise<{ wireBytes: number; encoding: string | null; body: Buffer; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${server.token}`, 'accept-encoding': 'br, gzip' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = (response.headers['content-encoding'] as string | undefined) ?? null;
        const body = encoding === 'br' ? zlib.brotliDecompressSync(raw) : encoding === 'gzip' ? zlib.gunzipSync(raw) : raw;
        if ((response.statusCode ?? 500) >= 300) return reject(new Error(`GET ${path}: HTTP ${response.statusCode} ${body.toString().slice(0, 300)}`));
        resolve({ wireBytes: raw.length, encoding, body, ms: performance.now() - started });
      });
    });
    request.on('error', reject);
  });
}

// ------------------------------------------------------------------------------------ one size

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const importOnly = process.env.BENCH_E2E_IMPORT_ONLY === '1';

/** A line in the server's memory trace (BENCH_MEMORY_TRACE, see end-to-end-server.ts) where a stage starts. */
function traceMark(text: string): void {
  if (process.env.BENCH_MEMORY_TRACE) appendFileSync(process.env.BENCH_MEMORY_TRACE, `--- ${text}\n`);
}

type Timer = <T>(name: string, action: () => Promise<T>) => Promise<T>;

/**
 * POST /projects/import-preview with every file as one multipart request, written by hand on an http
 * request so the end of the upload (the last byte written) is seen apart from the end of the preview.
 */
async function uploadPreview(server: ServerHandle, files: { name: string; text: string }[], time: Timer) {
  const form = new FormData();
  form.append('platform', 'yandex_direct');
  for (const file of files) form.append('files', new Blob([file.text], { type: 'text/csv' }), file.name);
  const encoded = new Response(form);
  const contentType = encoded.headers.get('content-type')!;
  const body = Buffer.from(await encoded.arrayBuffer());
  let uploaded!: () => void;
  const uploadDone = new Promise<void>((resolve) => (uploaded = resolve));
  const answer = time('upload + preview', () =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        `${server.url}/api/v1/projects/import-preview`,
        { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'content-type': contentType, 'content-length': body.length } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        },
      );
      request.on('error', reject);
      request.on('finish', () => uploaded());
      request.end(body);
    }),
  );
  const started = performance.now();
  await Promise.race([uploadDone, answer]);
  const uploadMs = performance.now() - started;
  const { status, text } = await answer;
  const previewMs = performance.now() - started - uploadMs;
  if (status !== 200) throw new Error(`import-preview: HTTP ${status} ${text.slice(0, 400)}`);
  console.log(`  of which upload (${mb(body.length)} sent) ${seconds(uploadMs)}, parse → draft rows → preview answer ${seconds(previewMs)}`);
  return { body: JSON.parse(text) as { draft_id: string; counts: Record<string, number> }, bytes: text.length };
}

/** A timed stage: its name, wall ms, the server's peak RSS in it, and the CPU the server and PostgreSQL spent in it. */
type Stage = [name: string, ms: number, peak: number, cpu: { serverMs: number; postgresMs: number }];

/**
 * Each stage's wall time beside its CPU (the server's threads, PostgreSQL's processes): on this shared
 * machine the wall time moves with the other engineers' load, the CPU much less.
 */
function printStages(server: ServerHandle, stages: Stage[], overallPeak: number): void {
  console.log(`  server: ${server.source}, peak RSS ${mb(overallPeak)} (the job worker and the engines' thread run in the server process)`);
  const merged = new Map<string, { ms: number; peak: number; times: number; serverMs: number; postgresMs: number }>();
  for (const [name, ms, peak, cpu] of stages) {
    const entry = merged.get(name) ?? { ms: 0, peak: 0, times: 0, serverMs: 0, postgresMs: 0 };
    merged.set(name, { ms: entry.ms + ms, peak: Math.max(entry.peak, peak), times: entry.times + 1, serverMs: entry.serverMs + cpu.serverMs, postgresMs: entry.postgresMs + cpu.postgresMs });
  }
  for (const [name, { ms, peak, times, serverMs, postgresMs }] of merged) {
    console.log(`  ${(times > 1 ? `${name} ×${times}` : name).padEnd(30)} ${seconds(ms).padStart(8)}   peak RSS ${mb(peak)}   CPU: server ${seconds(serverMs)}, PostgreSQL ${seconds(postgresMs)}`);
  }
}

async function runSize(keywords: number): Promise<void> {
  const groupsTotal = Math.ceil(keywords / KEYWORDS_PER_GROUP);
  const campaigns = Math.max(1, Math.ceil(groupsTotal / GROUPS_PER_CAMPAIGN));
  const data = generateAccount({ campaigns, groupsPerCampaign: Math.ceil(groupsTotal / campaigns) });
  const generated = accountFiles(data);
  data.campaigns = [];
  data.searchQueries = [];
  const uploadBytes = generated.files.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);
  console.log(
    `\n${generated.keywords.toLocaleString('en-US')} keywords, ${generated.ads.toLocaleString('en-US')} ads, ${generated.queries.toLocaleString('en-US')} search queries, ${campaigns} campaigns: ${generated.files.length} files, ${mb(uploadBytes)}`,
  );

  const server = await startServer();
  const stages: Stage[] = [];
  let overallPeak = 0;
  /** Times a stage, and the server's peak RSS and the CPU of the server and its PostgreSQL during it. */
  const time = async <T>(name: string, action: () => Promise<T>): Promise<T> => {
    traceMark(`${name} starts`);
    server.resetPeak();
    const cpuBefore = cpuSample(server.child.pid!);
    const started = performance.now();
    try {
      return await action();
    } finally {
      const ms = performance.now() - started;
      const peak = server.peakRss();
      overallPeak = Math.max(overallPeak, peak);
      stages.push([name, ms, peak, cpuBetween(cpuBefore, cpuSample(server.child.pid!))]);
    }
  };
  let savingStartedAt = 0;
  let auditStartedAt = 0;
  /** CPU of the server's threads and of PostgreSQL at the audit's start, when saving started, and at its end; the peak RSS of the engines' part. */
  const auditCpu: CpuSample[] = [];
  let enginesPeakRss = 0;
  let printed = false;
  try {
    const uploadStarted = performance.now();
    const uploadCpu = cpuSample(server.child.pid!);
    // Every file in one preview, as a user uploads Commander's split export of a big account.
    const preview = await uploadPreview(server, generated.files, time);
    generated.files = [];
    console.log(`  preview answer: ${kb(preview.bytes)}, counts ${JSON.stringify(preview.body.counts)}`);
    const project = await time('save project', () =>
      api<{ id: string; campaigns: { id: string }[] }>(server, 'POST', '/projects', { name: 'Бенч', site_url: 'bench.example.ru', platform: 'yandex_direct', draft_id: preview.body.draft_id }),
    );
    if (importOnly) {
      // BENCH_E2E_HOLD_SECONDS: the server stays up that long after the save (its memory trace shows what the idle threads give back).
      await new Promise((resolve) => setTimeout(resolve, Number(process.env.BENCH_E2E_HOLD_SECONDS ?? 0) * 1000));
      printed = true;
      printStages(server, stages, overallPeak);
      console.log(`  upload → saved project           ${seconds(performance.now() - uploadStarted)}`);
      return;
    }
    const analysis = await time('audit (start → completed)', async () => {
      auditStartedAt = performance.now();
      auditCpu.push(cpuSample(server.child.pid!));
      const started = await api<{ analysis: { id: string } }>(server, 'POST', `/projects/${project.id}/analyses`, {
        campaign_ids: project.campaigns.map((c) => c.id),
        idempotency_key: `bench-${keywords}-${Date.now()}`,
      });
      for (;;) {
        const { analysis } = await api<{ analysis: { id: string; status: string; stage: string | null; error: string | null; error_code?: string | null } }>(
          server,
          'GET',
          `/analyses/${started.analysis.id}`,
        );
        if (!savingStartedAt && (analysis.stage === 'saving' || analysis.status === 'completed')) {
          savingStartedAt = performance.now();
          auditCpu.push(cpuSample(server.child.pid!));
          enginesPeakRss = server.peakRss();
          traceMark('saving starts');
        }
        if (analysis.status === 'completed') {
          auditCpu.push(cpuSample(server.child.pid!));
          return analysis;
        }
        if (analysis.status === 'failed' || analysis.status === 'cancelled') throw new Error(`analysis ${analysis.status}: ${analysis.error_code ?? ''} ${analysis.error ?? ''}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });
    const first = await time('first results answer', () => getOnTheWire(server, `/analyses/${analysis.id}/results`));
    const uploadToResultsMs = performance.now() - uploadStarted;
    const uploadToResultsCpu = cpuBetween(uploadCpu, cpuSample(server.child.pid!));
    const results = JSON.parse(first.body.toString()) as {
      summary: { findingsTotal: number; byCheck: { checkId: string; findings: number; entities: number }[]; suggestions: { total: number } };
      findings: { total: number };
    };
    const pageTimes: number[] = [];
    for (let page = 2; page <= 6; page++) pageTimes.push((await getOnTheWire(server, `/analyses/${analysis.id}/findings?page=${page}&page_size=50`)).ms);
    const filtered = await getOnTheWire(server, `/analyses/${analysis.id}/suggestions?kind=negative_keyword&category=query&page_size=50`);
    const bulk = await time('bulk accept (all negatives)', () =>
      api<{ updated: number }>(server, 'POST', `/analyses/${analysis.id}/decisions/bulk`, { filter: { kind: 'negative_keyword' }, decision: 'accepted' }),
    );
    const exported = await time('export CSV', async () => {
      const answer = await fetch(`${server.url}/api/v1/analyses/${analysis.id}/export?format=csv`, { headers: { authorization: `Bearer ${server.token}` } });
      const bytes = (await answer.arrayBuffer()).byteLength;
      if (!answer.ok && answer.status !== 409) throw new Error(`export: HTTP ${answer.status}`);
      return { status: answer.status, bytes };
    });

    // Rows the result was stored as, per table.
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    const tables = ['analysis_findings', 'analysis_finding_items', 'analysis_suggestions', 'analysis_scores', 'analysis_semantic', 'analysis_decisions'];
    const rows: Record<string, number> = {};
    for (const table of tables) rows[table] = Number((await client.query(`SELECT count(*) AS n FROM ${table} WHERE analysis_id = $1`, [analysis.id])).rows[0].n);
    await client.end();

    const raw = first.body.length;
    const compressed = first.encoding
      ? { br: first.encoding === 'br' ? first.wireBytes : zlib.brotliCompressSync(first.body).length, gzip: first.encoding === 'gzip' ? first.wireBytes : zlib.gzipSync(first.body).length }
      : { br: zlib.brotliCompressSync(first.body).length, gzip: zlib.gzipSync(first.body).length };
    const sortedPages = [...pageTimes].sort((a, b) => a - b);
    printed = true;
    printStages(server, stages, overallPeak);
    console.log(`    of the audit: engines ${seconds(savingStartedAt - auditStartedAt)}, saving the rows ${seconds(stages.find(([name]) => name.startsWith('audit'))![1] - (savingStartedAt - auditStartedAt))}`);
    if (auditCpu.length === 3) {
      const [start, saving, end] = auditCpu as [CpuSample, CpuSample, CpuSample];
      console.log(`    CPU of the engines' part: ${describeCpu(start, saving)}; server peak RSS ${mb(enginesPeakRss)}`);
      console.log(`    CPU of saving: ${describeCpu(saving, end)}`);
    }
    console.log(`  upload → first results answer   ${seconds(uploadToResultsMs)}   CPU: server ${seconds(uploadToResultsCpu.serverMs)}, PostgreSQL ${seconds(uploadToResultsCpu.postgresMs)}`);
    console.log(`  findings page (50), 5 pages:    median ${sortedPages[2]!.toFixed(0)} ms, max ${sortedPages[4]!.toFixed(0)} ms; a filtered suggestions page ${filtered.ms.toFixed(0)} ms`);
    console.log(
      `  first results answer: ${kb(raw)} raw, on the wire ${kb(first.wireBytes)} (${first.encoding ?? 'not compressed by the server'}); brotli ${kb(compressed.br)}, gzip ${kb(compressed.gzip)}`,
    );
    console.log(`  findings ${results.summary.findingsTotal.toLocaleString('en-US')}, suggestions ${results.summary.suggestions.total.toLocaleString('en-US')}, bulk-accepted ${bulk.updated.toLocaleString('en-US')}, export ${exported.status === 200 ? kb(exported.bytes) : `HTTP ${exported.status}`}`);
    console.log(`  rows written: ${Object.entries(rows).map(([table, n]) => `${table.replace('analysis_', '')} ${n.toLocaleString('en-US')}`).join(', ')}`);
    console.log(`  findings per check (findings / entities): ${results.summary.byCheck.map((check) => `${check.checkId} ${check.findings}/${check.entities}`).join(', ')}`);
  } catch (error) {
    // The stages that did finish (the import of an account whose audit fails) are figures too.
    if (!printed) printStages(server, stages, overallPeak);
    throw error;
  } finally {
    await server.stop();
  }
}

export async function run(): Promise<void> {
  const sizes = (process.env.BENCH_E2E_SIZES ?? DEFAULT_SIZES.join(','))
    .split(',')
    .map((value) => Number(value.trim()))
    .filter((value) => Number.isFinite(value) && value > 0);
  console.log('End-to-end bench: upload → preview → save → audit → results → findings page → bulk accept → export, on the real server');
  for (const size of sizes) {
    try {
      await runSize(size);
    } catch (error) {
      console.log(`  ${size} keywords FAILED: ${(error as Error).message}`);
    }
  }
}

// `npx tsx bench/end-to-end.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}

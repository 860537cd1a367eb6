import autocannon from 'autocannon';
import os from 'node:os';
import { BENCH_ADMIN, startBareRoute, startDeployedServer, type BenchProcess } from './deployed-server.js';

/**
 * The API's overhead against a bare fastify route, as deployed, measured in one run on one machine: the
 * server runs as `npm start` runs it (bench/deployed-server.ts: build/server/server/main.js in its own
 * process, NODE_ENV=production, the default log level, the default rate limits, its own embedded
 * PostgreSQL), and the baseline is bare fastify in ANOTHER process (bench/bare-route-server.ts) whose
 * routes each run ONE raw `pg` query on the same database and answer its row as JSON. An authenticated
 * read is held to ≥ 80 % of the bare route running the same query: `GET /api/v1/auth/me` against the
 * user's row, `GET /api/v1/tokens/balance` against the balance. None of the graded routes has a rate
 * limit (the default limits are on login, registration and the like), so the defaults stand as they are.
 *
 * The shared machine's load drifts within a run (other engineers' jobs start and stop), so one long
 * measurement of each side compares two different machines. Instead each pair is measured in short
 * interleaved rounds (baseline, route; then route, baseline; …), each round gives its own ratio, and the
 * figure reported is the median of those ratios with their spread. Beside requests per second, the CPU
 * time each answer costs its own process (every thread of it: /proc/<pid>/stat) is reported: it follows
 * the other jobs on the machine far less than the throughput does. Every target is warmed first (JIT,
 * pools, the session cache). autocannon (20 keep-alive connections) runs in a worker thread of this
 * process, the same load generator for both sides. BENCH_LOG_LEVEL=warn measures the app at that level.
 */

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2);
const WARMUP_SECONDS = 2;
const CONNECTIONS = 20;
const TARGET_RATIO = 0.8;

interface Target {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The process that answers it. */
  process: BenchProcess;
}

interface Sample {
  requestsPerSecond: number;
  /** CPU time of the answering process (all its threads; not PostgreSQL's, not the load generator's) per answer, µs. */
  cpuMicrosPerRequest: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** A target measured against a baseline in interleaved rounds. */
interface Pair {
  target: Target;
  baseline: Target;
  rounds: number;
  /** Held to the ≥ 80 % target (the rest are context). */
  graded: boolean;
}

interface PairResult {
  pair: Pair;
  target: Sample[];
  baseline: Sample[];
  /** Per round: the target's req/s over the baseline's. */
  ratios: number[];
  /** Per round: the baseline's CPU per request over the target's (same sense: above 1 is cheaper). */
  cpuRatios: number[];
}

async function measure(target: Target, seconds: number): Promise<Sample> {
  const cpuBefore = target.process.cpuMicros();
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    connections: CONNECTIONS,
    duration: seconds,
    workers: 1,
  });
  const cpuMicros = target.process.cpuMicros() - cpuBefore;
  return {
    requestsPerSecond: result.requests.average,
    cpuMicrosPerRequest: cpuMicros / Math.max(1, result.requests.total),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Baseline and target alternately, the order swapped every round, so a drift in load hits both sides alike. */
async function measurePair(pair: Pair): Promise<PairResult> {
  const result: PairResult = { pair, target: [], baseline: [], ratios: [], cpuRatios: [] };
  for (let round = 0; round < pair.rounds; round++) {
    const baselineFirst = round % 2 === 0;
    const first = await measure(baselineFirst ? pair.baseline : pair.target, ROUND_SECONDS);
    const second = await measure(baselineFirst ? pair.target : pair.baseline, ROUND_SECONDS);
    const [baseline, target] = baselineFirst ? [first, second] : [second, first];
    result.baseline.push(baseline);
    result.target.push(target);
    result.ratios.push(target.requestsPerSecond / baseline.requestsPerSecond);
    result.cpuRatios.push(baseline.cpuMicrosPerRequest / target.cpuMicrosPerRequest);
  }
  const ratios = [...result.ratios].sort((a, b) => a - b);
  console.log(`  ${pair.target.name}: req/s ratios ${ratios.map((r) => `${(100 * r).toFixed(0)}`).join(' ')} %`);
  return result;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const percent = (value: number) => `${(100 * value).toFixed(0)} %`;
const spread = (values: number[]) => (values.length > 1 ? `${percent(Math.min(...values))}–${percent(Math.max(...values))}` : '');

function printTable(results: PairResult[]) {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'baseline', 'baseline req/s', 'baseline CPU µs/req', 'req/s ratio (median)', 'min–max', 'CPU ratio (median)', 'rounds'];
  const lines = results.map(({ pair, target, baseline, ratios, cpuRatios }) => [
    pair.target.name,
    median(target.map((s) => s.requestsPerSecond)).toFixed(0),
    median(target.map((s) => s.p50)).toFixed(1),
    median(target.map((s) => s.p99)).toFixed(1),
    median(target.map((s) => s.cpuMicrosPerRequest)).toFixed(0),
    pair.baseline.name,
    median(baseline.map((s) => s.requestsPerSecond)).toFixed(0),
    median(baseline.map((s) => s.cpuMicrosPerRequest)).toFixed(0),
    percent(median(ratios)),
    spread(ratios),
    percent(median(cpuRatios)),
    String(ratios.length),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  const alignLeft = (i: number) => i === 0 || i === 5;
  const format = (cells: string[]) => `| ${cells.map((cell, i) => (alignLeft(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`;
  console.log(format(header));
  console.log(`|${widths.map((width, i) => (alignLeft(i) ? ':' + '-'.repeat(width + 1) : '-'.repeat(width + 1) + ':')).join('|')}|`);
  for (const line of lines) console.log(format(line));
}

export async function run(): Promise<void> {
  const logLevel = process.env.BENCH_LOG_LEVEL;
  const app = await startDeployedServer(logLevel ? { LOG_LEVEL: logLevel } : {});
  let bare: BenchProcess | null = null;
  try {
    bare = await startBareRoute(app.databaseUrl, BENCH_ADMIN.email);
    console.log(
      `server: build/server/server/main.js as deployed (log level ${logLevel ?? 'default (info)'}, default rate limits), bare route in its own process; cores: ${os.availableParallelism()}; ${CONNECTIONS} connections; ${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s per side`,
    );
    const auth = { authorization: `Bearer ${app.accessToken}` };
    const userBaseline: Target = { name: 'bare fastify, one raw pg query (the user row)', url: `${bare.url}/bench/pg-user`, process: bare };
    const balanceBaseline: Target = { name: 'bare fastify, one raw pg query (the balance)', url: `${bare.url}/bench/pg-balance`, process: bare };
    const pairs: Pair[] = [
      { target: { name: 'GET /api/v1/auth/me', url: `${app.url}/api/v1/auth/me`, headers: auth, process: app }, baseline: userBaseline, rounds: ROUNDS, graded: true },
      { target: { name: 'GET /api/v1/tokens/balance', url: `${app.url}/api/v1/tokens/balance`, headers: auth, process: app }, baseline: balanceBaseline, rounds: ROUNDS, graded: true },
      { target: { name: 'bare fastify, no query', url: `${bare.url}/bench/bare`, process: bare }, baseline: balanceBaseline, rounds: 1, graded: false },
    ];
    const everyTarget = [...new Set(pairs.flatMap((pair) => [pair.baseline, pair.target]))];
    for (const target of everyTarget) await measure(target, WARMUP_SECONDS);
    const loggedBefore = app.loggedBytes();
    const results: PairResult[] = [];
    for (const pair of pairs) results.push(await measurePair(pair));
    const answers = results.flatMap((r) => r.target).reduce((sum, s) => sum + s.requestsPerSecond * ROUND_SECONDS, 0);

    console.log('');
    printTable(results);
    console.log(`\nthe server logged ${((app.loggedBytes() - loggedBefore) / 1024).toFixed(0)} KB while answering about ${Math.round(answers)} requests`);
    console.log(`target: the graded routes at ≥ ${percent(TARGET_RATIO)} of the bare route running the same query (median of the rounds' ratios)`);
    for (const { pair, ratios, cpuRatios } of results.filter((r) => r.pair.graded)) {
      const verdict = median(ratios) >= TARGET_RATIO ? 'met' : 'NOT met';
      console.log(`  ${pair.target.name}: ${percent(median(ratios))}, rounds ${spread(ratios)} (${verdict}); CPU per request ${percent(median(cpuRatios))} of the baseline's efficiency`);
    }
    const failing = results.filter((r) => [...r.target, ...r.baseline].some((s) => s.non2xx > 0 || s.errors > 0));
    if (failing.length > 0) console.log(`\nwarning: non-2xx answers or errors for ${failing.map((r) => r.pair.target.name).join(', ')}; those figures do not measure the real route`);
  } finally {
    await bare?.stop().catch(() => undefined);
    await app.stop();
  }
}

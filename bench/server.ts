import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { startBenchApp } from './bench-app.js';

/**
 * The API's overhead against bare fastify routes, measured in one run on one machine: the production app
 * on an embedded PostgreSQL (see bench-app.ts) beside a bare fastify server in the same process whose
 * routes each run ONE raw `pg` query on the same database and answer its row as JSON (fastify's default
 * JSON.stringify). An authenticated read is held to ≥ 80 % of the bare route running the same query:
 * `GET /api/v1/auth/me` against the user's row, `GET /api/v1/tokens/balance` against the balance.
 *
 * The shared machine's load drifts within a run (other engineers' jobs start and stop), so one long
 * measurement of each side compares two different machines. Instead each pair is measured in short
 * interleaved rounds (baseline, route; then route, baseline; …), each round gives its own ratio, and the
 * figure reported is the median of those ratios with their spread. Every target is warmed first (JIT,
 * pools, the session cache). autocannon (20 keep-alive connections) runs in a worker thread, so the load
 * generator does not share the servers' event loop; both servers live in this process and get the same
 * load generator, connections and payload handling.
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
}

interface Sample {
  requestsPerSecond: number;
  /** CPU time of the main thread (both servers' JavaScript; not the load generator's thread) per answer, µs. */
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

/**
 * CPU time the main thread has used, in µs (/proc: user + system clock ticks). Requests per second
 * follow whatever CPU the other jobs of the machine leave; the CPU a request costs hardly does.
 */
function mainThreadCpuMicros(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // After the command name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_SECOND;
}
const CLOCK_TICKS_PER_SECOND = 100;

async function measure(target: Target, seconds: number): Promise<Sample> {
  const cpuBefore = mainThreadCpuMicros();
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    connections: CONNECTIONS,
    duration: seconds,
    workers: 1,
  });
  const cpuMicros = mainThreadCpuMicros() - cpuBefore;
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

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
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
  const bench = await startBenchApp();
  console.log(
    `server: ${bench.source}; cores: ${os.availableParallelism()}; ${CONNECTIONS} connections; ${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s per side`,
  );
  // The same pool size as the app's (server/db/database.ts), on the same database.
  const pool = new pg.Pool({ connectionString: bench.databaseUrl, max: 20 });
  // The very queries the two API routes run (the columns /auth/me shows; the balance), as plain SQL.
  const userQuery = 'SELECT id, email, first_name, last_name, role, is_verified FROM users WHERE id = $1';
  const balanceQuery = 'SELECT balance FROM token_balances WHERE user_id = $1';
  const sessionQuery =
    'SELECT u.id, u.role, u.is_verified, u.email, m.role AS organization_role FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id = $1 AND m.organization_id = $2';
  const bare = Fastify();
  bare.get('/bench/bare', async () => ({ ok: true }));
  bare.get('/bench/pg-user', async () => {
    const { rows } = await pool.query(userQuery, [bench.user.id]);
    return rows[0];
  });
  bare.get('/bench/pg-balance', async () => {
    const { rows } = await pool.query(balanceQuery, [bench.user.id]);
    return { balance: rows[0]?.balance ?? 0 };
  });
  bare.get('/bench/pg-twice', async () => {
    await pool.query(sessionQuery, [bench.user.id, bench.user.organizationId]);
    const { rows } = await pool.query(balanceQuery, [bench.user.id]);
    return { balance: rows[0]?.balance ?? 0 };
  });

  try {
    const apiUrl = bench.url;
    const bareUrl = await listen(bare);

    // A token from a real login (a session token, as the PWA holds); the signed one if login fails.
    const loginBody = JSON.stringify({ email: bench.user.email, password: bench.user.password });
    const jsonHeaders = { 'content-type': 'application/json' };
    const login = await fetch(`${apiUrl}/api/v1/auth/login`, { method: 'POST', headers: jsonHeaders, body: loginBody });
    let accessToken = bench.accessToken;
    if (login.ok) accessToken = ((await login.json()) as { tokens: { access_token: string } }).tokens.access_token;
    else console.log(`note: POST /api/v1/auth/login answered ${login.status}; measuring with a signed access token`);
    const auth = { authorization: `Bearer ${accessToken}` };

    const userBaseline: Target = { name: 'bare fastify, one raw pg query (the user row)', url: `${bareUrl}/bench/pg-user` };
    const balanceBaseline: Target = { name: 'bare fastify, one raw pg query (the balance)', url: `${bareUrl}/bench/pg-balance` };
    const pairs: Pair[] = [
      { target: { name: 'GET /api/v1/auth/me', url: `${apiUrl}/api/v1/auth/me`, headers: auth }, baseline: userBaseline, rounds: ROUNDS, graded: true },
      { target: { name: 'GET /api/v1/tokens/balance', url: `${apiUrl}/api/v1/tokens/balance`, headers: auth }, baseline: balanceBaseline, rounds: ROUNDS, graded: true },
      { target: { name: 'bare fastify, no query', url: `${bareUrl}/bench/bare` }, baseline: balanceBaseline, rounds: 1, graded: false },
      { target: { name: 'bare fastify, two raw pg queries', url: `${bareUrl}/bench/pg-twice` }, baseline: balanceBaseline, rounds: 1, graded: false },
      {
        target: { name: 'POST /api/v1/auth/login', url: `${apiUrl}/api/v1/auth/login`, method: 'POST', headers: jsonHeaders, body: loginBody },
        baseline: balanceBaseline,
        rounds: 1,
        graded: false,
      },
    ];
    const everyTarget = [...new Set(pairs.flatMap((pair) => [pair.baseline, pair.target]))];
    for (const target of everyTarget) await measure(target, WARMUP_SECONDS);
    const results: PairResult[] = [];
    for (const pair of pairs) results.push(await measurePair(pair));

    console.log('');
    printTable(results);
    console.log(`\ntarget: the graded routes at ≥ ${percent(TARGET_RATIO)} of the bare route running the same query (median of the rounds' ratios)`);
    for (const { pair, ratios, cpuRatios } of results.filter((r) => r.pair.graded)) {
      const verdict = median(ratios) >= TARGET_RATIO ? 'met' : 'NOT met';
      console.log(`  ${pair.target.name}: ${percent(median(ratios))}, rounds ${spread(ratios)} (${verdict}); CPU per request ${percent(median(cpuRatios))} of the baseline's efficiency`);
    }
    const failing = results.filter((r) => [...r.target, ...r.baseline].some((s) => s.non2xx > 0 || s.errors > 0));
    if (failing.length > 0) console.log(`\nwarning: non-2xx answers or errors for ${failing.map((r) => r.pair.target.name).join(', ')}; those figures do not measure the real route`);
  } finally {
    await bare.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await bench.close();
  }
}

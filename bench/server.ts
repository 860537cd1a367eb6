import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import os from 'node:os';
import pg from 'pg';
import { startBenchApp } from './bench-app.js';

/**
 * The API's overhead against bare fastify routes, measured in one run on one machine: the production app
 * on an embedded PostgreSQL (see bench-app.ts) beside a bare fastify server in the same process whose
 * routes answer with nothing, with ONE raw `pg` query on the same database (the baseline an authenticated
 * read is held to: ≥ 80 %), and with two (what an authenticated read cost before the session cache: the
 * session check, then the data). Loaded by autocannon (20 connections, 5 s per target after a 1 s warm-up
 * of every target), which runs in a worker thread so the load generator does not share the server's event
 * loop. Each authenticated read is compared with a baseline measured just before it (the shared machine's
 * load drifts within a run).
 */

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP_SECONDS = 1;
const CONNECTIONS = 20;

interface Target {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(target: Target, seconds: number): Promise<Measurement> {
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    connections: CONNECTIONS,
    duration: seconds,
    workers: 1,
  });
  return {
    name: target.name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

const percent = (value: number) => `${value >= 10 ? value.toFixed(0) : value.toPrecision(2)} %`;

function printTable(rows: Measurement[], baselineOf: (row: Measurement) => Measurement) {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'req/s vs one raw pg query'];
  const lines = rows.map((row) => [
    row.name,
    row.requestsPerSecond.toFixed(0),
    row.p50.toFixed(1),
    row.p99.toFixed(1),
    String(row.non2xx),
    String(row.errors),
    percent((100 * row.requestsPerSecond) / baselineOf(row).requestsPerSecond),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  const format = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`;
  console.log(format(header));
  console.log(`|${widths.map((width, i) => (i === 0 ? ':' : '') + '-'.repeat(width + 1) + (i === 0 ? '' : ':')).join('|')}|`);
  for (const line of lines) console.log(format(line));
}

export async function run(): Promise<void> {
  const bench = await startBenchApp();
  console.log(`server: ${bench.source}; cores: ${os.availableParallelism()}; ${CONNECTIONS} connections, ${DURATION_SECONDS} s per target`);
  // The same pool size as the app's (server/db/database.ts), on the same database.
  const pool = new pg.Pool({ connectionString: bench.databaseUrl, max: 20 });
  const balanceQuery = 'SELECT balance FROM token_balances WHERE user_id = $1';
  const sessionQuery =
    'SELECT u.id, u.role, u.is_verified, u.email, m.role AS organization_role FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id = $1 AND m.organization_id = $2';
  const bare = Fastify();
  bare.get('/bench/bare', async () => ({ ok: true }));
  bare.get('/bench/pg', async () => {
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

    // Prefer a token from a real login (a session token, as the PWA holds); keep the signed one if login is not there.
    const loginBody = JSON.stringify({ email: bench.user.email, password: bench.user.password });
    const jsonHeaders = { 'content-type': 'application/json' };
    const login = await fetch(`${apiUrl}/api/v1/auth/login`, { method: 'POST', headers: jsonHeaders, body: loginBody });
    let accessToken = bench.accessToken;
    if (login.ok) accessToken = ((await login.json()) as { tokens: { access_token: string } }).tokens.access_token;
    else console.log(`note: POST /api/v1/auth/login answered ${login.status}; measuring with a signed access token`);
    const auth = { authorization: `Bearer ${accessToken}` };

    const targets: Target[] = [
      { name: 'bare fastify, one raw pg query', url: `${bareUrl}/bench/pg` },
      { name: 'bare fastify, no query', url: `${bareUrl}/bench/bare` },
      { name: 'bare fastify, two raw pg queries', url: `${bareUrl}/bench/pg-twice` },
      { name: 'GET /api/v1/auth/me', url: `${apiUrl}/api/v1/auth/me`, headers: auth },
      { name: 'GET /api/v1/tokens/balance', url: `${apiUrl}/api/v1/tokens/balance`, headers: auth },
      { name: 'POST /api/v1/auth/login', url: `${apiUrl}/api/v1/auth/login`, method: 'POST', headers: jsonHeaders, body: loginBody },
    ];
    // Every route is warmed first, so the first one measured is as warm (JIT, pools) as the last. The
    // machine's load drifts during a run (other engineers' jobs start and stop), so each authenticated
    // read is measured right after its own measurement of the one-query baseline and compared with that.
    for (const target of targets) await measure(target, WARMUP_SECONDS);
    const baselineTarget = targets[0];
    const pairedWithBaseline = new Set(['GET /api/v1/auth/me', 'GET /api/v1/tokens/balance']);
    const results: Measurement[] = [];
    const baselineOf = new Map<Measurement, Measurement>();
    let latestBaseline: Measurement | null = null;
    for (const target of targets) {
      if (target !== baselineTarget && pairedWithBaseline.has(target.name)) {
        latestBaseline = { ...(await measure(baselineTarget, DURATION_SECONDS)), name: `${baselineTarget.name} (just before ${target.name})` };
        results.push(latestBaseline);
        console.log(`  ${latestBaseline.name}: ${latestBaseline.requestsPerSecond.toFixed(0)} req/s`);
      }
      const result = await measure(target, DURATION_SECONDS);
      results.push(result);
      if (pairedWithBaseline.has(target.name) && latestBaseline) baselineOf.set(result, latestBaseline);
      console.log(`  ${target.name}: ${result.requestsPerSecond.toFixed(0)} req/s`);
    }
    console.log('');
    printTable(results, (row) => baselineOf.get(row) ?? results[0]);
    console.log('\ntarget: GET /api/v1/auth/me and GET /api/v1/tokens/balance at ≥ 80 % of the one-raw-pg-query route measured just before each');
    const failing = results.filter((r) => r.non2xx > 0 || r.errors > 0);
    if (failing.length > 0) console.log(`\nwarning: non-2xx answers or errors for ${failing.map((r) => r.name).join(', ')}; those figures do not measure the real route`);
  } finally {
    await bare.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await bench.close();
  }
}

import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import os from 'node:os';
import { startBenchApp } from './bench-app.js';

/**
 * The API's overhead against a bare fastify route, measured in one run on one machine:
 * the production app on an embedded PostgreSQL (see bench-app.ts), loaded by autocannon (20 connections,
 * 5 s per target after a 1 s warm-up). autocannon runs in a worker thread so the load generator does not
 * share the server's event loop.
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

function printTable(rows: Measurement[], bare: Measurement) {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'req/s vs bare route'];
  const lines = rows.map((row) => [
    row.name,
    row.requestsPerSecond.toFixed(0),
    row.p50.toFixed(1),
    row.p99.toFixed(1),
    String(row.non2xx),
    String(row.errors),
    row === bare ? '100 %' : `${((100 * row.requestsPerSecond) / bare.requestsPerSecond).toPrecision(2)} %`,
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
  const bare = Fastify();
  bare.get('/bench/bare', async () => ({ ok: true }));

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
      { name: 'bare fastify GET /bench/bare', url: `${bareUrl}/bench/bare` },
      { name: 'GET /api/v1/auth/me', url: `${apiUrl}/api/v1/auth/me`, headers: auth },
      { name: 'GET /api/v1/tokens/balance', url: `${apiUrl}/api/v1/tokens/balance`, headers: auth },
      { name: 'POST /api/v1/auth/login', url: `${apiUrl}/api/v1/auth/login`, method: 'POST', headers: jsonHeaders, body: loginBody },
    ];
    const results: Measurement[] = [];
    for (const target of targets) {
      await measure(target, WARMUP_SECONDS);
      const result = await measure(target, DURATION_SECONDS);
      results.push(result);
      console.log(`  ${target.name}: ${result.requestsPerSecond.toFixed(0)} req/s`);
    }
    console.log('');
    printTable(results, results[0]);
    const failing = results.filter((r) => r.non2xx > 0 || r.errors > 0);
    if (failing.length > 0) console.log(`\nwarning: non-2xx answers or errors for ${failing.map((r) => r.name).join(', ')}; those figures do not measure the real route`);
  } finally {
    await bare.close().catch(() => undefined);
    await bench.close();
  }
}

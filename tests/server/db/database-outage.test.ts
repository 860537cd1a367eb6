import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../../contract/messages.js';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { createDatabase, migrateToLatest, type DB } from '../../../server/db/database.js';
import { findFreePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../../server/db/embedded.js';
import { startJobQueue } from '../../../server/jobs/boss.js';
import { jobWorkers } from '../../../server/job-workers.js';
import type { JobQueue } from '../../../server/jobs/queue.js';
import { call, memoryMailer } from '../helpers/app.js';
import { createUser } from '../helpers/fixtures.js';

/**
 * An external PostgreSQL (DATABASE_URL) that dies and comes back: the API answers 503 in the error
 * format while it is gone, never crashes, and is whole again once it returns, without a restart. The
 * "external" server is an embedded cluster of this test, killed with SIGKILL and started again by the
 * test on the same port (the app does not know it is embedded).
 */

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function killPostmaster(dir: string): Promise<void> {
  const pid = Number.parseInt((await readFile(path.join(dir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]!, 10);
  process.kill(pid, 'SIGKILL');
  await expect.poll(() => alive(pid), { timeout: 10_000, interval: 20 }).toBe(false);
}

describe('an external PostgreSQL that dies and comes back', () => {
  let dir: string;
  let embedded: EmbeddedDatabase;
  let db: DB;
  let jobs: JobQueue;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'reklama-outage-'));
    await chmod(dir, 0o755);
    embedded = await startEmbeddedPostgres(dir);
    await embedded.createDatabase('reklama');
    const url = embedded.url('reklama');
    db = createDatabase(url);
    await migrateToLatest(db);
    const config = loadConfig({ NODE_ENV: 'test' }, { dataDir: dir, jwtSecret: new Uint8Array(randomBytes(32)), secretsKey: new Uint8Array(randomBytes(32)), publicUrl: 'http://localhost:5173' });
    // The job workers run too: their polls fail while the database is gone, and must not take the process down.
    jobs = await startJobQueue({ db, connectionString: url, config, workers: jobWorkers, runWorkers: true });
    app = await buildApp({ config, db, mailer: memoryMailer([]), jobs, databaseUrl: url });
    await app.ready();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await jobs?.stop();
    await db?.destroy();
    await embedded?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('answers 503 with Retry-After while it is gone, keeps the process alive, and recovers with nothing half-written', { timeout: 90_000 }, async () => {
    const user = await createUser(app, { balance: 500 });
    expect((await call(app, 'GET', '/api/v1/tokens/balance', { token: user.token })).body.balance).toBe(500);

    // A transaction holds a pooled connection when PostgreSQL dies: its socket's death arrives as an
    // 'error' event on a client checked out of the pool, which crashed the process before.
    let killed!: () => void;
    const afterKill = new Promise<void>((resolve) => (killed = resolve));
    const interrupted = db.transaction().execute(async (trx) => {
      await trx.updateTable('token_balances').set({ balance: 0 }).where('user_id', '=', user.id).execute();
      await afterKill;
      await trx.selectNoFrom((eb) => eb.val(1).as('one')).execute();
    });
    const outcome = interrupted.then(
      () => 'committed',
      () => 'failed',
    );
    await killPostmaster(dir);
    killed();
    expect(await outcome).toBe('failed');

    const balance = await call(app, 'GET', '/api/v1/tokens/balance', { token: user.token });
    expect(balance.status).toBe(503);
    expect(balance.headers['retry-after']).toBe('5');
    expect(balance.body).toEqual({ error: apiMessages.databaseUnavailable, code: 'DATABASE_UNAVAILABLE' });
    const write = await call(app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: 'whatever-it-is' } });
    expect(write.status).toBe(503);
    const health = await call(app, 'GET', '/api/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'unavailable', database: 'down', code: 'DATABASE_UNAVAILABLE' });
    expect(app.sessionCache.active).toBe(false);

    // It comes back (the same port, as an external server restarted by its operator would).
    await embedded.restart();
    const back = Date.now();
    await expect.poll(async () => (await call(app, 'GET', '/api/health')).status, { timeout: 10_000, interval: 50 }).toBe(200);
    const again = await call(app, 'GET', '/api/v1/tokens/balance', { token: user.token });
    expect(again.status).toBe(200);
    // The transaction cut off by the crash left nothing behind.
    expect(again.body.balance).toBe(500);
    // The listening connections (session cache, job announcements) are back by themselves.
    await expect.poll(() => app.sessionCache.active, { timeout: 10_000, interval: 50 }).toBe(true);
    const listening = async () => {
      const { rows } = await sql<{ name: string }>`SELECT DISTINCT application_name AS name FROM pg_stat_activity WHERE application_name LIKE 'reklama-lab-%' ORDER BY 1`.execute(db);
      return rows.map((row) => row.name);
    };
    await expect.poll(listening, { timeout: 10_000, interval: 100 }).toEqual(['reklama-lab-jobs', 'reklama-lab-sessions']);
    expect(Date.now() - back).toBeLessThan(10_000);
  });
});

/**
 * The acceptance test of issue 27: `npm start`'s own embedded PostgreSQL (the real postmaster, SIGKILL)
 * killed under requests. The server (one node process over real HTTP on 127.0.0.1) answers 503 while
 * it is gone, does not crash, starts it again itself, and answers normally within 10 s of its return,
 * with the token ledger as it was.
 */
describe('the embedded PostgreSQL of npm start killed under requests', () => {
  let dataDir: string;
  let server: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-outage-server-'));
    await chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** pid, port and status of the running postmaster, from its lock file. */
  const postmaster = async () => {
    try {
      const lines = (await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n');
      return { pid: Number.parseInt(lines[0]!, 10), port: Number.parseInt(lines[3]!, 10), status: lines[7]?.trim() };
    } catch {
      return null;
    }
  };
  /** The ledger and the balances, read straight from PostgreSQL. */
  const ledger = async () => {
    const { port } = (await postmaster())!;
    const password = (await readFile(path.join(dataDir, 'pg-password'), 'utf8')).trim();
    const client = new pg.Client({ connectionString: `postgres://postgres:${password}@127.0.0.1:${port}/reklama` });
    await client.connect();
    try {
      const rows = (await client.query('SELECT * FROM token_ledger ORDER BY id')).rows;
      const balances = (await client.query('SELECT * FROM token_balances ORDER BY user_id')).rows;
      return JSON.stringify({ rows, balances });
    } finally {
      await client.end();
    }
  };

  it('answers 503 (never 500, never a crash), restarts it, and is back within 10 s of its return with the ledger intact', { timeout: 240_000 }, async () => {
    const port = await findFreePort();
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, WEB_ROOT: path.join(dataDir, 'no-web'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    for (const name of ['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'SMTP_URL', 'REDIS_URL', 'JWT_SECRET']) delete env[name];
    server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    await expect.poll(() => (server!.exitCode !== null ? `exited: ${output}` : /Reklama Lab: http/.test(output)), { timeout: 120_000, interval: 50 }).toBe(true);
    const baseUrl = `http://127.0.0.1:${port}`;
    const email = output.match(/Email:\s+(\S+)/)![1]!;
    const password = output.match(/Пароль:\s+(\S+)/)![1]!;
    const login = await fetch(`${baseUrl}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { tokens: { access_token: string } }).tokens.access_token;
    const before = await fetch(`${baseUrl}/api/v1/tokens/balance`, { headers: { authorization: `Bearer ${token}` } });
    expect(before.status).toBe(200);
    const balanceBefore = await before.json();
    const ledgerBefore = await ledger();

    // Requests keep coming the whole time, with and without a session (writes are the first test's).
    const statuses = new Map<string, number>();
    const unavailable: { status: number; retryAfter: string | null; body: unknown }[] = [];
    let loading = true;
    const requests: [string, RequestInit][] = [
      ['/api/health', {}],
      ['/api/v1/auth/me', { headers: { authorization: `Bearer ${token}` } }],
      ['/api/v1/tokens/balance', { headers: { authorization: `Bearer ${token}` } }],
      ['/api/v1/projects', { headers: { authorization: `Bearer ${token}` } }],
    ];
    const load = Array.from({ length: 4 }, async (_, worker) => {
      for (let i = worker; loading; i++) {
        const [url, init] = requests[i % requests.length]!;
        const response = await fetch(`${baseUrl}${url}`, init).catch(() => null);
        const key = response ? String(response.status) : 'no answer';
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (response?.status === 503 && unavailable.length < 5) unavailable.push({ status: 503, retryAfter: response.headers.get('retry-after'), body: await response.json() });
        else await response?.arrayBuffer();
      }
    });
    await expect.poll(() => statuses.get('200') ?? 0, { timeout: 10_000, interval: 20 }).toBeGreaterThan(20);

    const killed = (await postmaster())!;
    expect(killed.status).toBe('ready');
    process.kill(killed.pid, 'SIGKILL');
    await expect.poll(() => statuses.get('503') ?? 0, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);

    // The server starts it again by itself; from its return on, the API is whole within 10 s.
    await expect.poll(async () => {
      const now = await postmaster();
      return now !== null && now.pid !== killed.pid && now.status === 'ready';
    }, { timeout: 60_000, interval: 20 }).toBe(true);
    const returned = Date.now();
    const answered = async () => {
      const health = await fetch(`${baseUrl}/api/health`);
      const balance = await fetch(`${baseUrl}/api/v1/tokens/balance`, { headers: { authorization: `Bearer ${token}` } });
      return health.status === 200 && balance.status === 200;
    };
    await expect.poll(answered, { timeout: 10_000, interval: 50 }).toBe(true);
    expect(Date.now() - returned).toBeLessThan(10_000);
    loading = false;
    await Promise.all(load);

    expect(server.exitCode).toBeNull();
    expect(output).not.toMatch(/Unhandled|uncaught/i);
    expect(output).toContain(`embedded PostgreSQL: exited unexpectedly (signal SIGKILL); starting it again`);
    expect([...statuses.keys()].sort()).toEqual(['200', '503']);
    expect(unavailable[0]).toEqual({ status: 503, retryAfter: '5', body: expect.objectContaining({ error: apiMessages.databaseUnavailable, code: 'DATABASE_UNAVAILABLE' }) });
    expect(await (await fetch(`${baseUrl}/api/v1/tokens/balance`, { headers: { authorization: `Bearer ${token}` } })).json()).toEqual(balanceBefore);
    expect(await ledger()).toBe(ledgerBefore);
  });
});

import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../../src/contract/messages.js';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { createDatabase, migrateToLatest, type DB } from '../../../server/db/database.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../../server/db/embedded.js';
import { startJobQueue } from '../../../server/jobs/boss.js';
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
    jobs = await startJobQueue({ db, connectionString: url, config, runWorkers: true });
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

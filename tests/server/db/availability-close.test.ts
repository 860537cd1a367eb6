import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { availabilityOf } from '../../../server/db/database.js';
import { openDatabase } from '../../../server/db/connect.js';
import { PROBE_INTERVAL_MS, watchAvailability } from '../../../server/db/availability.js';
import { findFreePort } from '../../../server/db/embedded.js';
import { memoryMailer } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';

/**
 * The outage watch (server/db/availability.ts) stands down when what it serves closes: a database that
 * stops because the server stops is no outage. The end-to-end bench's server logged «database:
 * connection lost» at every end, because its cluster stopped while the app was still draining requests.
 */

afterEach(() => {
  vi.useRealTimers();
});

describe('the outage watch closed', () => {
  it('stops probing a database it saw go, lets its waiters go, and reports nothing more', async () => {
    // A pool whose database is gone: nothing listens on the port, so each probe is refused.
    const pool = new pg.Pool({ connectionString: `postgres://nobody@127.0.0.1:${await findFreePort()}/gone`, connectionTimeoutMillis: 5_000 });
    const query = vi.spyOn(pool, 'query');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const watch = watchAvailability(pool);
    const changes: boolean[] = [];
    watch.onChange((up) => changes.push(up));

    watch.markDown();
    expect(watch.up).toBe(false);
    expect(changes).toEqual([false]);
    const waiter = watch.whenUp();
    // The first probe starts at once and is refused; the next waits PROBE_INTERVAL_MS.
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(query).toHaveBeenCalledTimes(1));
    await vi.waitFor(async () => {
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(1);
    });

    watch.close();
    // Whoever waited for the database (a job handler) goes on instead of waiting for ever.
    await expect(waiter).resolves.toBeUndefined();
    await expect(watch.whenUp()).resolves.toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(PROBE_INTERVAL_MS * 10);
    expect(query).toHaveBeenCalledTimes(1);

    // Later signs change nothing and start no probe; an error of the lost connection is still explained as such.
    watch.markDown();
    expect(await watch.explain(new Error('Connection terminated unexpectedly'))).toBe(true);
    await vi.advanceTimersByTimeAsync(PROBE_INTERVAL_MS * 10);
    expect(query).toHaveBeenCalledTimes(1);
    expect(changes).toEqual([false]);
    await pool.end();
  });

  it("is closed with the database handle, before the pool: the handle's own end reports no outage", { timeout: 60_000 }, async () => {
    const test = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-watch-'));
    try {
      const handle = await openDatabase({ databaseUrl: test.url, dataDir });
      const watch = availabilityOf(handle.db);
      const changes: boolean[] = [];
      watch.onChange((up) => changes.push(up));
      await handle.close();
      // What the embedded cluster's supervisor does when PostgreSQL exits after the handle closed.
      watch.markDown();
      expect(watch.up).toBe(true);
      expect(changes).toEqual([]);
    } finally {
      await test.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the app closing', () => {
  it('stops reporting the database as lost as soon as it starts closing, while its last requests drain', { timeout: 60_000 }, async () => {
    const test = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-watch-'));
    try {
      const config = loadConfig({ NODE_ENV: 'test' }, { dataDir, jwtSecret: new Uint8Array(randomBytes(32)), secretsKey: new Uint8Array(randomBytes(32)), publicUrl: 'http://localhost:5173' });
      const app = await buildApp({ config, db: test.db, mailer: memoryMailer([]), jobs: null, databaseUrl: test.url });
      const warn = vi.spyOn(app.log, 'warn');
      const changes: boolean[] = [];
      availabilityOf(test.db).onChange((up) => changes.push(up));
      let markedDown = false;
      // The moment the bench's cluster stopped: the app closing, its last requests not yet answered.
      app.addHook('preClose', (done) => {
        availabilityOf(test.db).markDown();
        markedDown = true;
        done();
      });
      await app.ready();
      await app.close();
      expect(markedDown).toBe(true);
      expect(warn.mock.calls.flat().map(String)).not.toContain('database: connection lost, the API answers 503 until it is back');
      // The database itself is still watched (another app on it, the job workers): the outage was noticed there.
      expect(changes[0]).toBe(false);
    } finally {
      await test.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

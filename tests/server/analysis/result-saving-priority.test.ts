import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResultSaving } from '../../../server/analysis/result-saving.js';
import { createDatabase, markEmbedded, poolOf, type DB } from '../../../server/db/database.js';
import { BACKGROUND_NICENESS } from '../../../server/lib/background-priority.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/** Saves nothing, and reports the backend the completion ran on and its niceness meanwhile. */
async function saveOnce(db: DB): Promise<{ pid: number; niceness: number }> {
  const saving = openResultSaving(db, randomUUID());
  let seen = { pid: 0, niceness: Number.NaN };
  const committed = await saving.commit(async (trx) => {
    const pid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx)).rows[0]!.pid;
    seen = { pid, niceness: os.getPriority(pid) };
    return true;
  });
  expect(committed).toBe(true);
  return seen;
}

/** The backend pids of every connection the pool holds. */
async function pooledBackends(db: DB): Promise<number[]> {
  const pool = poolOf(db);
  const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
  const pids = await Promise.all(clients.map(async (client) => (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid));
  for (const client of clients) client.release();
  return pids;
}

// The test run's own embedded PostgreSQL: its backends are processes of this machine (with
// TEST_DATABASE_URL the server may be another user's, whose processes this one may not renice).
describe.runIf(process.platform === 'linux' && !process.env.TEST_DATABASE_URL)('saving a result beside the API', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('copies on backends at background priority when PostgreSQL is the embedded one, and closes them after', async () => {
    const db = createDatabase(database.url);
    markEmbedded(db);
    try {
      const { pid, niceness } = await saveOnce(db);
      expect(niceness).toBe(BACKGROUND_NICENESS);
      // Never handed back to the pool, where an API query would run at that priority.
      expect(await pooledBackends(db)).not.toContain(pid);
    } finally {
      await db.destroy();
    }
  });

  it('leaves the backends of another PostgreSQL as they are, and gives the connection back', async () => {
    const db = createDatabase(database.url);
    try {
      const { pid, niceness } = await saveOnce(db);
      expect(niceness).toBeLessThan(BACKGROUND_NICENESS);
      expect(await pooledBackends(db)).toContain(pid);
    } finally {
      await db.destroy();
    }
  });
});

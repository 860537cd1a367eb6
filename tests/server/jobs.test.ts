import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { loadConfig } from '../../server/config.js';
import { startJobQueue } from '../../server/jobs/boss.js';
import { jobWorkers } from '../../server/job-workers.js';
import type { JobQueue } from '../../server/jobs/queue.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';

describe('job queue (pg-boss on the app database)', () => {
  let database: TestDatabase;
  let jobs: JobQueue;
  beforeAll(async () => {
    database = await createTestDatabase();
    jobs = await startJobQueue({ db: database.db, connectionString: database.url, config: loadConfig({ NODE_ENV: 'test' }, { dataDir: '/tmp', jwtSecret: new Uint8Array(32), secretsKey: new Uint8Array(32) }), workers: jobWorkers, runWorkers: false });
  });
  afterAll(async () => {
    await jobs.stop();
    await database.drop();
  });

  const jobCount = async () => Number((await sql<{ n: string }>`select count(*) as n from pgboss.job where name = 'probe'`.execute(database.db)).rows[0].n);

  it('enqueues inside a caller transaction only when it commits', async () => {
    await jobs.createQueue('probe');
    const before = await jobCount();
    await database.db
      .transaction()
      .execute(async (trx) => {
        await jobs.send('probe', { n: 1 }, { transaction: trx });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await jobCount()).toBe(before);
    await database.db.transaction().execute(async (trx) => {
      await jobs.send('probe', { n: 2 }, { transaction: trx });
    });
    expect(await jobCount()).toBe(before + 1);
  });

  it('starts a job committed while its worker waits between polls at once, not at the next poll', async () => {
    await jobs.createQueue('wake');
    const handled: number[] = [];
    const waiters = new Map<number, () => void>();
    const handledOnce = (n: number) => new Promise<void>((resolve) => waiters.set(n, resolve));
    const first = handledOnce(1);
    const second = handledOnce(2);
    // A polling interval far longer than the test's time limit: only the announcement can start the second job.
    await jobs.work<{ n: number }>('wake', async (job) => {
      handled.push(job.data.n);
      waiters.get(job.data.n)?.();
    }, { pollingIntervalSeconds: 600 });
    await database.db.transaction().execute(async (trx) => {
      await jobs.send('wake', { n: 1 }, { transaction: trx });
    });
    await first;
    await database.db.transaction().execute(async (trx) => {
      await jobs.send('wake', { n: 2 }, { transaction: trx });
    });
    await second;
    expect(handled).toEqual([1, 2]);
  });
});

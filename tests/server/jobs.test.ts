import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { loadConfig } from '../../server/config.js';
import { startJobQueue } from '../../server/jobs/boss.js';
import type { JobQueue } from '../../server/jobs/queue.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';

describe('job queue (pg-boss on the app database)', () => {
  let database: TestDatabase;
  let jobs: JobQueue;
  beforeAll(async () => {
    database = await createTestDatabase();
    jobs = await startJobQueue({ db: database.db, connectionString: database.url, config: loadConfig({ NODE_ENV: 'test' }, { dataDir: '/tmp', jwtSecret: new Uint8Array(32), secretsKey: new Uint8Array(32) }), runWorkers: false });
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
});

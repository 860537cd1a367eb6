import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { JobQueue, SendJobOptions } from './queue.js';
import { jobWorkers } from './workers.js';

/**
 * pg-boss 10 (the last line that runs on Node 20) in its own `pgboss` schema of the app's database, so
 * workers scale out as extra processes (`npm run worker`) with nothing else to run.
 */
export async function startJobQueue(options: {
  db: DB;
  connectionString: string;
  config: AppConfig;
  runWorkers: boolean;
  log?: { error: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
}): Promise<JobQueue> {
  const boss = new PgBoss({ connectionString: options.connectionString, schema: 'pgboss', max: 5 });
  boss.on('error', (error) => options.log?.error({ err: error }, 'job queue error'));
  await boss.start();

  const queue: JobQueue = {
    async send(name, data, sendOptions: SendJobOptions = {}) {
      const { transaction, retryDelaySeconds, ...rest } = sendOptions;
      return boss.send(name, data, {
        ...rest,
        ...(retryDelaySeconds !== undefined ? { retryDelay: retryDelaySeconds } : {}),
        ...(transaction
          ? { db: { executeSql: async (text: string, values: unknown[]) => ({ rows: (await transaction.executeQuery(CompiledQuery.raw(text, values))).rows as unknown[] }) } }
          : {}),
      });
    },
    async work(name, handler, workOptions = {}) {
      const concurrency = workOptions.concurrency ?? 1;
      for (let i = 0; i < concurrency; i++) {
        await boss.work(name, { batchSize: 1, pollingIntervalSeconds: workOptions.pollingIntervalSeconds ?? 1, includeMetadata: true }, async (jobs) => {
          for (const job of jobs) {
            await handler({ id: job.id, name: job.name, data: job.data as never, retryCount: (job as { retryCount?: number }).retryCount ?? 0 });
          }
        });
      }
    },
    cancel: (name, id) => boss.cancel(name, id),
    createQueue: async (name) => {
      if (!(await boss.getQueue(name))) await boss.createQueue(name, { name });
    },
    stop: () => boss.stop({ graceful: true, timeout: 10_000, wait: true } as PgBoss.StopOptions),
  };

  for (const worker of jobWorkers) {
    if (!(await boss.getQueue(worker.queue))) await boss.createQueue(worker.queue, { name: worker.queue, ...worker.queueOptions });
  }
  if (options.runWorkers) {
    for (const worker of jobWorkers) await worker.start(queue, { db: options.db, config: options.config });
  }
  return queue;
}

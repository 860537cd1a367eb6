import { CompiledQuery, sql } from 'kysely';
import PgBoss from 'pg-boss';
import type { AppConfig } from '../config.js';
import { availabilityOf, type DB } from '../db/database.js';
import { createPgListener, type PgListener } from '../lib/pg-listener.js';
import type { JobQueue, SendJobOptions } from './queue.js';
import type { JobWorker } from './workers.js';

/**
 * The channel a sent job is announced on (payload: the queue's name). pg-boss 10 only polls, so a job sent
 * just after a worker looked would wait up to the polling interval (1 s) for its start; the NOTIFY is sent in
 * the sender's transaction, so PostgreSQL delivers it when the job is committed (never for a rolled-back one),
 * to every process that runs workers, and their workers of that queue look at once.
 */
const JOB_SENT_CHANNEL = 'reklama_job_sent';

/**
 * pg-boss 10 (the last line that runs on Node 20) in its own `pgboss` schema of the app's database, so
 * workers scale out as extra processes (`npm run worker`) with nothing else to run.
 */
export async function startJobQueue(options: {
  db: DB;
  connectionString: string;
  config: AppConfig;
  /** Every kind of background work (server/job-workers.ts): its queue is created, and run here if runWorkers. */
  workers: readonly JobWorker[];
  runWorkers: boolean;
  log?: { error: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
}): Promise<JobQueue> {
  const database = availabilityOf(options.db);
  const boss = new PgBoss({ connectionString: options.connectionString, schema: 'pgboss', max: 5 });
  boss.on('error', (error) => {
    // While the database is down every poll fails; the outage is logged once (by the app), not per poll.
    if (database.up) options.log?.error({ err: error }, 'job queue error');
  });
  await boss.start();
  /** Aborted by `stop`: handlers waiting for the database give up. */
  const stopping = new AbortController();

  /** This process's pg-boss workers by queue, for the announcements to wake. */
  const workersOf = new Map<string, string[]>();
  let listener: PgListener | null = null;
  /** Listens for sent jobs once this process has a worker; while the connection is down (it comes back by itself) the workers still poll. */
  const listen = () => {
    listener ??= createPgListener({
      connectionString: options.connectionString,
      channels: [JOB_SENT_CHANNEL],
      applicationName: 'reklama-lab-jobs',
      onNotification: (_channel, queueName) => {
        for (const id of workersOf.get(queueName) ?? []) boss.notifyWorker(id);
      },
      log: { warn: (obj, msg) => options.log?.error(obj, msg) },
    });
    return listener.start();
  };
  /**
   * pg-boss records a job's end (complete, or fail for a retry) in the database right after the handler,
   * without waiting for the answer: with the database down that write is lost (and its rejection goes
   * unhandled). So a handler that met a lost database, or ended while it was down, waits for it to be
   * back (the workers' polls fail meanwhile: they are paused), and the job is then retried or completed.
   */
  const settleWithDatabase = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      const result = await run();
      await database.whenUp(stopping.signal);
      return result;
    } catch (error) {
      if (await database.explain(error)) await database.whenUp(stopping.signal);
      throw error;
    }
  };

  const queue: JobQueue = {
    async send(name, data, sendOptions: SendJobOptions = {}) {
      const { transaction, retryDelaySeconds, ...rest } = sendOptions;
      const id = await boss.send(name, data, {
        ...rest,
        ...(retryDelaySeconds !== undefined ? { retryDelay: retryDelaySeconds } : {}),
        ...(transaction
          ? { db: { executeSql: async (text: string, values: unknown[]) => ({ rows: (await transaction.executeQuery(CompiledQuery.raw(text, values))).rows as unknown[] }) } }
          : {}),
      });
      await sql`SELECT pg_notify(${JOB_SENT_CHANNEL}, ${name})`.execute(transaction ?? options.db);
      return id;
    },
    async work(name, handler, workOptions = {}) {
      await listen();
      const concurrency = workOptions.concurrency ?? 1;
      for (let i = 0; i < concurrency; i++) {
        const id = await boss.work(name, { batchSize: 1, pollingIntervalSeconds: workOptions.pollingIntervalSeconds ?? 1, includeMetadata: true }, async (jobs) => {
          for (const job of jobs) {
            await settleWithDatabase(() => handler({ id: job.id, name: job.name, data: job.data as never, retryCount: (job as { retryCount?: number }).retryCount ?? 0 }));
          }
        });
        workersOf.set(name, [...(workersOf.get(name) ?? []), id]);
      }
    },
    cancel: (name, id) => boss.cancel(name, id),
    createQueue: async (name) => {
      if (!(await boss.getQueue(name))) await boss.createQueue(name, { name });
    },
    stop: async () => {
      stopping.abort();
      await listener?.close();
      await boss.stop({ graceful: true, timeout: 10_000, wait: true } as PgBoss.StopOptions);
    },
  };

  for (const worker of options.workers) {
    if (!(await boss.getQueue(worker.queue))) await boss.createQueue(worker.queue, { name: worker.queue, ...worker.queueOptions });
  }
  if (options.runWorkers) {
    for (const worker of options.workers) await worker.start(queue, { db: options.db, config: options.config });
  }
  return queue;
}

import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { JobQueue, SendJobOptions } from './queue.js';
import { jobWorkers } from './workers.js';

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
  runWorkers: boolean;
  log?: { error: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
}): Promise<JobQueue> {
  const boss = new PgBoss({ connectionString: options.connectionString, schema: 'pgboss', max: 5 });
  boss.on('error', (error) => options.log?.error({ err: error }, 'job queue error'));
  await boss.start();

  /** This process's pg-boss workers by queue, for the announcements to wake. */
  const workersOf = new Map<string, string[]>();
  let listener: Promise<pg.Client> | null = null;
  /** Listens for sent jobs once this process has a worker; if the connection fails, the workers still poll. */
  const listen = () =>
    (listener ??= (async () => {
      const client = new pg.Client({ connectionString: options.connectionString });
      client.on('error', (error) => options.log?.error({ err: error }, 'job announcements lost: workers poll'));
      client.on('notification', (message) => {
        for (const id of workersOf.get(message.payload ?? '') ?? []) boss.notifyWorker(id);
      });
      await client.connect();
      await client.query(`LISTEN ${JOB_SENT_CHANNEL}`);
      return client;
    })());

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
      await listen().catch((error: unknown) => options.log?.error({ err: error }, 'job announcements unavailable: workers poll'));
      const concurrency = workOptions.concurrency ?? 1;
      for (let i = 0; i < concurrency; i++) {
        const id = await boss.work(name, { batchSize: 1, pollingIntervalSeconds: workOptions.pollingIntervalSeconds ?? 1, includeMetadata: true }, async (jobs) => {
          for (const job of jobs) {
            await handler({ id: job.id, name: job.name, data: job.data as never, retryCount: (job as { retryCount?: number }).retryCount ?? 0 });
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
      const client = await listener?.catch(() => null);
      await client?.end().catch(() => undefined);
      await boss.stop({ graceful: true, timeout: 10_000, wait: true } as PgBoss.StopOptions);
    },
  };

  for (const worker of jobWorkers) {
    if (!(await boss.getQueue(worker.queue))) await boss.createQueue(worker.queue, { name: worker.queue, ...worker.queueOptions });
  }
  if (options.runWorkers) {
    for (const worker of jobWorkers) await worker.start(queue, { db: options.db, config: options.config });
  }
  return queue;
}

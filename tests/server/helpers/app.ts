import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../../server/app.js';
import { loadConfig, type AppConfig } from '../../../server/config.js';
import { TEST_SELLER } from './seller.js';
import type { Mailer, OutgoingMail } from '../../../server/email/mailer.js';
import type { JobQueue } from '../../../server/jobs/queue.js';
import { startJobQueue } from '../../../server/jobs/boss.js';
import { jobWorkers } from '../../../server/job-workers.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  database: TestDatabase;
  /** Mails "sent" by the app when no real mailer is given. */
  outbox: OutgoingMail[];
  close: () => Promise<void>;
}

/** Mailer that keeps mails in memory; the SMTP round trip has its own test with a real server. */
export function memoryMailer(outbox: OutgoingMail[]): Mailer {
  return { send: async (mail) => void outbox.push(mail) };
}

interface TestAppOptions {
  config?: Partial<AppConfig>;
  mailer?: Mailer;
  jobs?: JobQueue | null;
  /** Start the real job queue (pg-boss) on the test database, with workers when `runWorkers`; stopped by `close`. */
  jobQueue?: { runWorkers: boolean };
}

/**
 * Builds the real app on a fresh database and a fresh data folder. One per test file (beforeAll), closed in
 * afterAll; `close` drops the database and removes the folder, whatever the tests did.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-test-data-'));
  const removeData = () => rm(dataDir, { recursive: true, force: true });
  try {
    return await startOn(database, dataDir, removeData, options);
  } catch (error) {
    // A failed start-up leaves no database and no data folder behind either.
    await database.drop().catch(() => undefined);
    await removeData();
    throw error;
  }
}

async function startOn(database: TestDatabase, dataDir: string, removeData: () => Promise<void>, options: TestAppOptions): Promise<TestApp> {
  const config = loadConfig(
    // Invoices are refused while the seller's requisites are placeholders: the tests' seller is real-looking.
    { NODE_ENV: 'test', SELLER_REQUISITES_JSON: JSON.stringify(TEST_SELLER) },
    {
      dataDir,
      jwtSecret: new Uint8Array(randomBytes(32)),
      secretsKey: new Uint8Array(randomBytes(32)),
      publicUrl: 'http://localhost:5173',
      // Generous by default so ordinary tests never trip it; the rate-limit test sets its own.
      rateLimit: { max: 1000, timeWindowMs: 60_000 },
      registerRateLimit: { max: 1000, timeWindowMs: 60_000 },
      loginAccountRateLimit: { max: 1000, timeWindowMs: 60_000 },
      ...options.config,
    },
  );
  const outbox: OutgoingMail[] = [];
  const jobs = options.jobQueue ? await startJobQueue({ db: database.db, connectionString: database.url, config, workers: jobWorkers, runWorkers: options.jobQueue.runWorkers }) : (options.jobs ?? null);
  const app = await buildApp({ config, db: database.db, mailer: options.mailer ?? memoryMailer(outbox), jobs, databaseUrl: database.url });
  await app.ready();
  return {
    app,
    config,
    database,
    outbox,
    close: async () => {
      try {
        await app.close();
        if (options.jobQueue) await jobs?.stop();
        await database.drop();
      } finally {
        await removeData();
      }
    },
  };
}

/**
 * A second server on the database of `first`, as another process of the same deployment would be: the
 * same configuration (secrets included), its own app, pools and listening connections. Closing it leaves
 * the database to `first`.
 */
export async function createSiblingApp(first: TestApp, options: { config?: Partial<AppConfig> } = {}): Promise<TestApp> {
  const config = { ...first.config, ...options.config };
  const outbox: OutgoingMail[] = [];
  const app = await buildApp({ config, db: first.database.db, mailer: memoryMailer(outbox), jobs: null, databaseUrl: first.database.url });
  await app.ready();
  return { app, config, database: first.database, outbox, close: () => app.close() };
}

/** Injects a JSON request, with a bearer token when given, and parses the answer. */
export async function call<T = any>(app: FastifyInstance, method: InjectOptions['method'], url: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const response = await app.inject({
    method,
    url,
    payload: options.body === undefined ? undefined : (options.body as InjectOptions['payload']),
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
  });
  const isJson = String(response.headers['content-type'] ?? '').includes('application/json');
  return { status: response.statusCode, body: (isJson ? response.json() : response.body) as T, headers: response.headers };
}

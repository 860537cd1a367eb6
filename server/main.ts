import path from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { convertLegacyResults } from './analysis/legacy-results.js';
import { openDatabase } from './db/connect.js';
import { takeOverShutdownSignals } from './db/embedded.js';
import { surviveDroppedConnectionErrors } from './db/availability.js';
import { ensureFirstAdmin } from './auth/first-admin.js';
import { startJobQueue } from './jobs/boss.js';
import { jobWorkers } from './job-workers.js';
import { recoverAllRuns, startRunRecoverySweep } from './runs/kinds.js';
import { startImportJobRecoverySweep } from './projects/import-jobs.js';
import { startChangeSetRecoverySweep } from './changes/recovery.js';
import { startMonitoring } from './monitoring/start.js';
import { describeStartupFailure, StartupFailure, startupStep } from './startup-error.js';

/** How long a SIGTERM/SIGINT may take before the process gives up waiting and exits. */
const SHUTDOWN_TIMEOUT_MS = 30_000;

/** What a failed start has to let go of before the process exits (the embedded PostgreSQL above all). */
const startedSoFar: { close: () => Promise<void> }[] = [];

/** `npm start`: one process serves the PWA and the API on one port, with job workers inside. */
async function main() {
  surviveDroppedConnectionErrors(console);
  const config = await startupStep('reading the configuration (environment variables)', () =>
    loadConfig(process.env, {
      webRoot: process.env.WEB_ROOT ?? path.resolve('build/web'),
    }),
  );
  const database = await startupStep(config.databaseUrl ? 'opening and migrating the database of DATABASE_URL' : `starting the embedded PostgreSQL in ${config.dataDir} and migrating it`, () =>
    openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log: embeddedPostgresLog }),
  );
  startedSoFar.unshift(database);
  // Results stored before migration 0060 become rows with today's writer, now that the schema is today's.
  await startupStep('converting results stored before version 0060', () => convertLegacyResults(database.db));
  const jobs = await startupStep('starting the job queue (pg-boss)', () =>
    startJobQueue({ db: database.db, connectionString: database.url, config, workers: jobWorkers, runWorkers: config.inProcessWorkers, log: console as never }),
  );
  startedSoFar.unshift({ close: () => jobs.stop() });
  // Paid runs a previous run of the server left half-done start over or fail and refund, by their kind's policy.
  await startupStep('recovering interrupted runs', () => recoverAllRuns(database.db, { jobs, log: console }));
  // …and those whose worker died so recently that its heartbeat still looked alive, a minute later.
  const stopRecoverySweep = startRunRecoverySweep(database.db, { jobs, log: console });
  startedSoFar.unshift({ close: async () => stopRecoverySweep() });
  // Direct API imports whose worker died are failed with a message (their start-up recovery runs in the worker).
  const stopImportSweep = startImportJobRecoverySweep(database.db, { log: console });
  startedSoFar.unshift({ close: async () => stopImportSweep() });
  // Change sets whose apply job was lost end with what was applied, not «Применяется» for ever.
  const stopChangeSetSweep = startChangeSetRecoverySweep(database.db, { log: console });
  startedSoFar.unshift({ close: async () => stopChangeSetSweep() });
  const app = await startupStep('building the application', () => buildApp({ config, db: database.db, jobs, databaseUrl: database.url }));
  startedSoFar.unshift({ close: () => app.close() });
  // Scheduled re-audits and alerts, where the workers run (server/monitoring/sweep.ts: exactly once per slot across processes).
  const stopMonitoring = config.inProcessWorkers ? startMonitoring(database.db, { jobs, config, mailer: app.mailer, log: console }) : () => undefined;
  startedSoFar.unshift({ close: async () => stopMonitoring() });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // A stuck connection or job must not keep a stopped server half-alive for ever.
    const deadline = setTimeout(() => {
      app.log.error({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'shutdown took too long, exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    let exitCode = 0;
    try {
      // Stop taking requests, let running ones finish (open SSE streams are ended), then stop the
      // workers (running jobs finish or are picked up again after the next start) and the database.
      await app.close();
      stopMonitoring();
      stopRecoverySweep();
      stopImportSweep();
      await jobs.stop();
      await database.close();
      app.log.info('stopped');
    } catch (error) {
      exitCode = 1;
      app.log.error({ err: error }, 'shutdown failed');
    } finally {
      clearTimeout(deadline);
      process.exit(exitCode);
    }
  };
  // From here on this handler alone decides when the embedded PostgreSQL stops: after the requests.
  takeOverShutdownSignals();
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await startupStep(`listening on ${config.host}:${config.port}`, () => app.listen({ port: config.port, host: config.host }));
  await ensureFirstAdmin({ db: database.db, config, print: (text) => console.log(text) });
  console.log(`Reklama Lab: ${config.publicUrl} (API docs: ${config.publicUrl}/api/docs)`);
}

/** The embedded PostgreSQL's own messages that say something went wrong or changed (its routine log stays out of the server's). */
function embeddedPostgresLog(line: string) {
  if (/left-over|password was replaced|exited unexpectedly|started again|could not start it again|shut down from outside/.test(line)) console.log(line.trim());
}

main().catch(async (error: unknown) => {
  console.error(error instanceof StartupFailure ? error.message : describeStartupFailure(error, 'start-up'));
  // Let go of what did start (the embedded PostgreSQL above all), but never hang on it.
  const giveUp = setTimeout(() => process.exit(1), 10_000);
  giveUp.unref();
  for (const started of startedSoFar) await started.close().catch(() => undefined);
  process.exit(1);
});

import { loadConfig } from './config.js';
import { describeStartupFailure } from './startup-error.js';
import { openDatabase } from './db/connect.js';
import { surviveDroppedConnectionErrors } from './db/availability.js';
import { startJobQueue } from './jobs/boss.js';
import { jobWorkers } from './job-workers.js';
import { recoverAllRuns, startRunRecoverySweep } from './runs/kinds.js';
import { startImportJobRecoverySweep } from './projects/import-jobs.js';
import { startChangeSetRecoverySweep } from './changes/recovery.js';
import { createMailer } from './email/mailer.js';
import { startMonitoring } from './monitoring/start.js';

/**
 * `npm run worker`: an extra process that only runs jobs, for scaling out. It needs the same database
 * as the API: set DATABASE_URL (an embedded PostgreSQL belongs to the one process that started it).
 */
async function main() {
  surviveDroppedConnectionErrors(console);
  const config = loadConfig();
  if (!config.databaseUrl) {
    console.error('npm run worker needs DATABASE_URL: the embedded PostgreSQL is private to `npm start`, whose in-process workers already run the jobs.');
    process.exit(1);
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const jobs = await startJobQueue({ db: database.db, connectionString: database.url, config, workers: jobWorkers, runWorkers: true, log: console as never });
  // A worker process that died mid-run is usually restarted by its supervisor: recover its runs.
  await recoverAllRuns(database.db, { jobs, log: console });
  const stopRecoverySweep = startRunRecoverySweep(database.db, { jobs, log: console });
  const stopImportSweep = startImportJobRecoverySweep(database.db, { log: console });
  const stopChangeSetSweep = startChangeSetRecoverySweep(database.db, { log: console });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log: console as never });
  const stopMonitoring = startMonitoring(database.db, { jobs, config, mailer, log: console });
  console.log('Worker started');
  const shutdown = async () => {
    stopRecoverySweep();
    stopImportSweep();
    stopChangeSetSweep();
    stopMonitoring();
    await jobs.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(describeStartupFailure(error, 'starting the worker'));
  process.exit(1);
});

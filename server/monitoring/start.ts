/** Starts what monitoring runs in the background of a process with workers: the minute sweep and the Telegram poller. */
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { Mailer } from '../email/mailer.js';
import type { JobQueue } from '../jobs/queue.js';
import { startMonitoringSweep } from './sweep.js';
import { createTelegramBot, startTelegramPolling } from './telegram.js';

export function startMonitoring(db: DB, options: { jobs: JobQueue | null; config: AppConfig; mailer: Mailer; log?: { error: (obj: object, msg: string) => void } }): () => void {
  const telegram = options.config.telegram ? createTelegramBot(options.config.telegram) : null;
  const stopSweep = startMonitoringSweep({ db, jobs: options.jobs, config: options.config, mailer: options.mailer, telegram, log: options.log });
  const stopPolling = telegram ? startTelegramPolling(db, telegram, options.log) : () => undefined;
  return () => {
    stopSweep();
    stopPolling();
  };
}

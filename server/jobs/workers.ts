import type PgBoss from 'pg-boss';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { JobQueue } from './queue.js';

export interface WorkerDependencies {
  db: DB;
  config: AppConfig;
}

/** A kind of background work: its queue (created at start-up) and how a process consumes it. */
export interface JobWorker {
  queue: string;
  queueOptions?: Omit<PgBoss.Queue, 'name'>;
  start: (queue: JobQueue, deps: WorkerDependencies) => Promise<void>;
}


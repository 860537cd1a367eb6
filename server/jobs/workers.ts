import type PgBoss from 'pg-boss';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { JobQueue } from './queue.js';
import { analysisJobWorker } from '../analysis/worker.js';
import { relevanceJobWorker } from '../relevance/worker.js';
import { aiPlanJobWorker } from '../ai-plan/worker.js';
import { directImportJobWorker } from '../projects/import-job-worker.js';
import { notificationCheckJobWorker } from '../payments/notification-check.js';

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

/** Every worker of the app. Domains add theirs here. */
export const jobWorkers: JobWorker[] = [analysisJobWorker, relevanceJobWorker, aiPlanJobWorker, directImportJobWorker, notificationCheckJobWorker];

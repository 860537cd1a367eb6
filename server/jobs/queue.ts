import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface SendJobOptions {
  /** Enqueue inside this transaction: the job exists only if the transaction commits. */
  transaction?: Kysely<Database>;
  singletonKey?: string;
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** A job still active after this long counts as dead (its worker crashed) and is retried. */
  expireInSeconds?: number;
}

export interface QueuedJob<T> {
  id: string;
  name: string;
  data: T;
  /** How many times this job was tried before this run (0 on the first). */
  retryCount: number;
}

export type JobHandler<T> = (job: QueuedJob<T>) => Promise<void>;

/** The job queue (pg-boss on the app's PostgreSQL) as the rest of the app sees it. */
export interface JobQueue {
  send(name: string, data: object, options?: SendJobOptions): Promise<string | null>;
  /** Starts consuming a queue in this process. */
  work<T>(name: string, handler: JobHandler<T>, options?: { concurrency?: number; pollingIntervalSeconds?: number }): Promise<void>;
  cancel(name: string, id: string): Promise<void>;
  /** Declares a queue (pg-boss 10 needs one before `send`); harmless when it exists. */
  createQueue(name: string): Promise<void>;
  stop(): Promise<void>;
}

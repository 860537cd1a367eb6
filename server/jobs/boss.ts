import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { JobQueue } from './queue.js';

// Placeholder: the analysis domain starts pg-boss here.
export async function startJobQueue(_options: { db: DB; connectionString: string; config: AppConfig; runWorkers: boolean }): Promise<JobQueue> {
  return { send: async () => null, stop: async () => {} };
}

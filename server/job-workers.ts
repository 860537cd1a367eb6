import type { JobWorker } from './jobs/workers.js';
import { analysisJobWorker } from './analysis/worker.js';
import { pageCheckJobWorker } from './page-check/worker.js';
import { aiPlanJobWorker } from './ai-plan/worker.js';
import { directImportJobWorker } from './projects/import-job-worker.js';
import { notificationCheckJobWorker } from './payments/notification-check.js';
import { applyChangesJobWorker } from './changes/worker.js';

/**
 * Every kind of background work of the app, handed to the queue by main.ts and worker.ts (the queue
 * imports no domain). A domain with a new job adds its worker here.
 */
export const jobWorkers: readonly JobWorker[] = [analysisJobWorker, pageCheckJobWorker, aiPlanJobWorker, directImportJobWorker, notificationCheckJobWorker, applyChangesJobWorker];

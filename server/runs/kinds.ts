/**
 * Every kind of paid run, for what concerns them all: start-up recovery, the recovery sweep, and
 * cancelling or resuming a run by kind and id (the admin area).
 */
import { aiPlanRun } from '../ai-plan/lifecycle.js';
import { auditRun } from '../analysis/lifecycle.js';
import type { DB } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import { startSweep } from '../jobs/sweep.js';
import { pageCheckRun } from '../page-check/lifecycle.js';
import { cancelRun, recoverRuns, resumeRun, type CancelOutcome, type PaidRunKind, type RecoveryReport } from './paid-run.js';

export const paidRunKinds = { audit: auditRun, 'page-check': pageCheckRun, 'ai-plan': aiPlanRun } satisfies Record<PaidRunKind['name'], PaidRunKind>;
export type PaidRunKindName = keyof typeof paidRunKinds;

/** Cancels (and refunds once) a run of any kind by id, e.g. a stuck one from the admin area. */
export const cancelRunOf = (db: DB, jobs: JobQueue | null, kind: PaidRunKindName, id: string): Promise<CancelOutcome> => cancelRun(db, jobs, paidRunKinds[kind], id);

/** Starts a stuck run of any kind over on a new job (charged nothing more). */
export const resumeRunOf = (db: DB, jobs: JobQueue, kind: PaidRunKindName, id: string): Promise<boolean> => resumeRun(db, jobs, paidRunKinds[kind], id);

type Log = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/**
 * Called at start-up of every process that runs the API or workers: each kind's interrupted runs are
 * resumed or failed and refunded, by the kind's crash policy.
 */
export async function recoverAllRuns(db: DB, options: { jobs: JobQueue | null; log?: Log }): Promise<Record<PaidRunKindName, RecoveryReport>> {
  const reports = {} as Record<PaidRunKindName, RecoveryReport>;
  for (const [name, kind] of Object.entries(paidRunKinds) as [PaidRunKindName, PaidRunKind][]) reports[name] = await recoverRuns(db, kind, options);
  return reports;
}

/**
 * Recovery again every `everyMs` while the process runs. Start-up recovery leaves alone a run whose
 * heartbeat is still fresh (its worker might be alive in another process); when that worker in fact
 * died in the restart, the next sweep after the heartbeat went stale handles the run, minutes before
 * pg-boss would expire its job. Returns the function that stops the sweeps.
 */
export function startRunRecoverySweep(db: DB, options: { jobs: JobQueue | null; everyMs?: number; log?: Log }): () => void {
  return startSweep(() => recoverAllRuns(db, options), {
    everyMs: options.everyMs,
    onError: (error) => options.log?.error({ err: error }, 'run recovery sweep failed'),
  });
}

/**
 * The states an analysis moves through and the money that moves with them:
 *
 *   queued → running → completed
 *          ↘        ↘ failed | cancelled   (the debit is refunded, once: ledger key `refund:<id>`)
 *
 * Every change is a conditional UPDATE (only from an unfinished state), so a cancel racing a failure,
 * two workers, or a recovery after a restart can never refund twice or bring a finished run back.
 * Each change also sends `NOTIFY analysis_progress, '<id>'`; inside a transaction PostgreSQL delivers
 * it at commit, so listeners never see a state that was rolled back.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AnalysisErrorCode } from '../../src/contract/analysis.js';
import { analysisMessages } from '../../src/contract/messages.js';
import type { DB } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { JobQueue } from '../jobs/queue.js';
import { applyLedgerEntry } from '../tokens/ledger.js';

export const ANALYSIS_QUEUE = 'analysis.run';
export const PROGRESS_CHANNEL = 'analysis_progress';
/** Runs started for one analysis (first try, pg-boss retries, resumes after restarts) before it fails for good. */
export const MAX_ATTEMPTS = 3;
/** Job options of every analysis run: a job still active after 15 minutes counts as dead and is retried. */
export const analysisJobOptions = { retryLimit: 2, expireInSeconds: 900 } as const;
/** A running analysis whose worker has not written a heartbeat for this long is treated as interrupted. */
export const STALE_HEARTBEAT_SECONDS = 60;

export interface AnalysisJobData {
  analysisId: string;
}

type Executor = Kysely<Database> | Transaction<Database>;

export async function notifyProgress(db: Executor, analysisId: string): Promise<void> {
  await sql`SELECT pg_notify(${PROGRESS_CHANNEL}, ${analysisId})`.execute(db);
}

/**
 * Ends an unfinished analysis as failed or cancelled and refunds its cost to whoever paid for it.
 * Returns false (and changes nothing) when it had already finished. Runs in the given transaction,
 * or in one of its own.
 */
export async function finishUnsuccessfully(
  db: Executor,
  analysisId: string,
  status: 'failed' | 'cancelled',
  error: string | null,
  errorCode: AnalysisErrorCode | null = null,
): Promise<boolean> {
  if (!db.isTransaction) return (db as DB).transaction().execute((trx) => finishUnsuccessfully(trx, analysisId, status, error, errorCode));
  const row = await db
    .updateTable('analyses')
    .set({ status, error, error_code: errorCode, finished_at: sql`now()`, updated_at: sql`now()`, heartbeat_at: null })
    .where('id', '=', analysisId)
    .where('status', 'in', ['queued', 'running'])
    .returning(['id', 'created_by', 'organization_id', 'cost'])
    .executeTakeFirst();
  if (!row) return false;
  await refundAnalysis(db, row);
  await notifyProgress(db, analysisId);
  return true;
}

/**
 * Gives the debit of a paid run (an audit, a page check, an AI plan) back. Idempotent: the same run is
 * refunded at most once, whoever calls it.
 */
export async function refundAnalysis(
  db: Executor,
  analysis: { id: string; created_by: string | null; organization_id: string; cost: number },
  reason = 'Возврат за анализ',
): Promise<void> {
  // A free run (a pricing table at 0) was never charged; a deleted payer has no balance left.
  if (analysis.cost <= 0 || !analysis.created_by) return;
  await applyLedgerEntry(db, {
    userId: analysis.created_by,
    organizationId: analysis.organization_id,
    type: 'analysis_refund',
    amount: analysis.cost,
    idempotencyKey: `refund:${analysis.id}`,
    referenceId: analysis.id,
    reason,
  });
}

export const failAnalysis = (db: Executor, analysisId: string, error: string, errorCode: AnalysisErrorCode) => finishUnsuccessfully(db, analysisId, 'failed', error, errorCode);

// ------------------------------------------------------------------------------------ recovery

export interface RecoveryReport {
  /** Enqueued again to run from the start. */
  resumed: string[];
  /** Failed and refunded (no queue to resume them, or no attempts left). */
  failed: string[];
}

/**
 * Unfinished analyses whose run can no longer finish: the job is gone or over (archived, failed,
 * cancelled, completed without finishing the analysis), or it is still "active" but its worker stopped
 * writing heartbeats (the process died: a restart, a crash, an out-of-memory kill).
 */
async function interruptedAnalyses(db: DB, staleSeconds: number): Promise<{ id: string; job_id: string | null }[]> {
  const queue = await sql<{ exists: boolean }>`SELECT to_regclass('pgboss.job') IS NOT NULL AS exists`.execute(db);
  if (!queue.rows[0]?.exists) {
    return db.selectFrom('analyses').select(['id', 'job_id']).where('status', 'in', ['queued', 'running']).execute();
  }
  const rows = await sql<{ id: string; job_id: string | null }>`
    SELECT a.id, a.job_id
      FROM analyses a
      LEFT JOIN pgboss.job j ON j.name = ${ANALYSIS_QUEUE} AND j.id::text = a.job_id
     WHERE a.status IN ('queued', 'running')
       AND (j.id IS NULL
            OR j.state IN ('completed', 'cancelled', 'failed')
            OR (j.state = 'active' AND coalesce(a.heartbeat_at, j.started_on, a.created_at) < now() - make_interval(secs => ${staleSeconds})))`.execute(db);
  return rows.rows;
}

/**
 * Called at start-up of every process that runs the API or workers: an analysis a dead process left
 * behind starts over on a new job (when a queue is given and it has attempts left), otherwise it fails
 * and its tokens go back. Safe to run from several processes at once: each analysis is re-checked
 * under a row lock, and one that another process already handled is left alone.
 */
export async function recoverInterruptedAnalyses(
  db: DB,
  options: { jobs?: JobQueue | null; staleAfterSeconds?: number; log?: { warn: (obj: object, msg: string) => void } } = {},
): Promise<RecoveryReport> {
  const report: RecoveryReport = { resumed: [], failed: [] };
  const candidates = await interruptedAnalyses(db, options.staleAfterSeconds ?? STALE_HEARTBEAT_SECONDS);
  for (const candidate of candidates) {
    const outcome = await db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('analyses').select(['id', 'status', 'job_id', 'attempts']).where('id', '=', candidate.id).forUpdate().executeTakeFirst();
      // Handled meanwhile (finished, or picked up again by a live worker under a new job).
      if (!row || (row.status !== 'queued' && row.status !== 'running') || row.job_id !== candidate.job_id) return null;
      if (options.jobs && row.attempts < MAX_ATTEMPTS) {
        const jobId = await options.jobs.send(ANALYSIS_QUEUE, { analysisId: row.id } satisfies AnalysisJobData, { transaction: trx, ...analysisJobOptions });
        await trx
          .updateTable('analyses')
          .set({ status: 'queued', stage: 'queued', progress: 0, progress_detail: null, heartbeat_at: null, job_id: jobId, updated_at: sql`now()` })
          .where('id', '=', row.id)
          .execute();
        await notifyProgress(trx, row.id);
        return 'resumed' as const;
      }
      return (await failAnalysis(trx, row.id, analysisMessages.interrupted, 'INTERRUPTED')) ? ('failed' as const) : null;
    });
    if (!outcome) continue;
    report[outcome].push(candidate.id);
    options.log?.warn({ analysisId: candidate.id, outcome }, 'interrupted analysis recovered');
    // The old job, if pg-boss still holds it, must not run later: its handler would skip it anyway
    // (the analysis now names another job), cancelling just saves the trip.
    if (candidate.job_id && options.jobs) await options.jobs.cancel(ANALYSIS_QUEUE, candidate.job_id).catch(() => undefined);
  }
  return report;
}

/**
 * Recovery again every `everyMs` while the process runs. Start-up recovery leaves alone a run whose
 * heartbeat is still fresh (its worker might be alive in another process); when that worker in fact
 * died in the restart, the next sweep after the heartbeat went stale resumes the run, minutes before
 * pg-boss would expire its job. Sweeps never overlap. Returns the function that stops them.
 */
export function startRecoverySweep(
  db: DB,
  options: { jobs: JobQueue | null; everyMs?: number; log?: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void } },
): () => void {
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    recoverInterruptedAnalyses(db, { jobs: options.jobs, log: options.log })
      .catch((error: unknown) => options.log?.error({ err: error }, 'analysis recovery sweep failed'))
      .finally(() => {
        sweeping = false;
      });
  }, options.everyMs ?? STALE_HEARTBEAT_SECONDS * 1000);
  // Never the reason a process stays alive.
  timer.unref();
  return () => clearInterval(timer);
}

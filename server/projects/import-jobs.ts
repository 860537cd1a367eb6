/**
 * Yandex Direct API imports as jobs: a large account takes minutes to read, so the start answers at
 * once (202) with an import job, a pg-boss job does the reading (server/projects/import-job-worker.ts),
 * and the client follows its progress until the preview is ready.
 *
 *   queued → running → completed (preview stored, the same draft the synchronous import made)
 *          ↘        ↘ failed    (a Russian message: the Direct API's documented errors, or why it stopped)
 *
 * Every change is a conditional UPDATE from an unfinished state, so a worker, the recovery sweep and a
 * late pg-boss delivery can never bring a finished job back. A job is the user's own: another member of
 * the organization, or another organization, gets 404. At most one unfinished Direct import per user
 * (a partial unique index): a second start answers 429 instead of reading a second account at once.
 */
import { EventEmitter } from 'node:events';
import { sql, type Kysely, type Transaction } from 'kysely';
import { projectMessages as m } from '../../contract/messages.js';
import { DIRECT_IMPORT_STAGES, type DirectImportStageProgress, type ImportJob, type ImportJobProgress } from '../../contract/projects.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { SealedDirectConnection } from '../db/tables/import-jobs.js';
import type { JobQueue } from '../jobs/queue.js';
import { STALE_HEARTBEAT_SECONDS, startSweep } from '../jobs/sweep.js';
import { HttpError, notFound } from '../lib/errors.js';
import { initialStages } from '../direct/api/progress.js';
import type { DirectUnits } from '../direct/api/units.js';
import { iso } from '../lib/api-values.js';

export const DIRECT_IMPORT_QUEUE = 'projects.direct-import';
/** Every change of a job is announced here with its id (the progress stream of server/lib/progress-stream.ts follows it). */
export const IMPORT_JOB_CHANNEL = 'import_job_progress';
/**
 * No pg-boss retry: a second run would spend the account's API points again without the user asking.
 * A dead run is failed by the recovery below (the user starts again); pg-boss expiry is the last resort.
 */
export const directImportJobOptions = { retryLimit: 0, expireInSeconds: 30 * 60 } as const;
/** A job no worker has taken for this long will not be taken (no worker process runs); long enough for a busy queue. */
export const STALE_QUEUED_SECONDS = 60 * 60;
/** Finished jobs are kept as long as the preview they made. */
const FINISHED_JOB_TTL_HOURS = 24;

export interface DirectImportJobData {
  importJobId: string;
}

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Emits `'changed'` with the job id after every write of this process (progress, the end), and
 * `'ended'` when a run of this process is over whatever it did. Tests wait on them instead of
 * sleeping; nothing in the app depends on them.
 */
export const importJobEvents = new EventEmitter();
importJobEvents.setMaxListeners(0);

/** `NOTIFY` of a change of the job; inside a transaction PostgreSQL delivers it at commit. */
export async function notifyImportJob(db: Executor, id: string): Promise<void> {
  await sql`SELECT pg_notify(${IMPORT_JOB_CHANNEL}, ${id})`.execute(db);
}

export const importJobNotFound = () => notFound(m.importJobNotFound, 'IMPORT_JOB_NOT_FOUND');


const noUnits = { spent: 0, available: null, daily: null };

/**
 * The job's progress from the stages: `stage` (with its `done`/`total`) is the first one not over yet,
 * `saving` when all are over and the preview is being stored.
 */
export function progressOf(stages: DirectImportStageProgress[], units: Pick<DirectUnits, 'spent' | 'available' | 'daily'> = noUnits): ImportJobProgress {
  const current = DIRECT_IMPORT_STAGES.map((name) => stages.find((entry) => entry.stage === name)).find((entry) => entry && (entry.status === 'pending' || entry.status === 'running'));
  return {
    stage: current ? current.stage : 'saving',
    done: current?.done ?? 0,
    total: current ? current.total : null,
    stages,
    units: { spent: units.spent, available: units.available, daily: units.daily },
  };
}

export const queuedProgress = (): ImportJobProgress => ({ ...progressOf(initialStages()), stage: 'queued' });

// ------------------------------------------------------------------------------------------ reading

const columns = ['id', 'project_id', 'status', 'progress', 'preview', 'error', 'error_code', 'created_at', 'started_at', 'finished_at'] as const;

type JobRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectJobs>['executeTakeFirst']>>>;

function selectJobs(db: Executor, caller: Caller) {
  return db.selectFrom('import_jobs').select(columns).where('organization_id', '=', caller.organizationId).where('user_id', '=', caller.userId);
}

function toApi(row: JobRow): ImportJob {
  return {
    id: row.id,
    source: 'direct_api',
    project_id: row.project_id,
    status: row.status,
    progress: row.progress,
    ...(row.status === 'completed' && row.preview ? { preview: row.preview } : {}),
    ...(row.status === 'failed' ? { error: row.error ?? m.directApiFailed, error_code: row.error_code ?? 'DIRECT_API_ERROR' } : {}),
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

/** The caller's own import job; a dead one is failed first (someone looking at it is the cheapest sweep). */
export async function getImportJob(db: DB, caller: Caller, id: string): Promise<ImportJob> {
  const row = await selectJobs(db, caller).where('id', '=', id).executeTakeFirst();
  if (!row) throw importJobNotFound();
  if ((row.status === 'queued' || row.status === 'running') && (await recoverInterruptedImportJobs(db, { jobId: id })).length > 0) {
    return toApi((await selectJobs(db, caller).where('id', '=', id).executeTakeFirst())!);
  }
  return toApi(row);
}

// ------------------------------------------------------------------------------------------ start

const isUniqueViolation = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';

/**
 * Enqueues a Direct import of `connection` (its token already sealed: the job row and the pg-boss
 * payload never hold it in clear; the payload holds only the job's id). The row and the pg-boss job
 * are written in one transaction, so neither exists without the other.
 */
export async function startDirectImport(db: DB, jobs: JobQueue | null, caller: Caller, connection: SealedDirectConnection, projectId: string | null): Promise<ImportJob> {
  if (!jobs) throw new HttpError(503, 'JOBS_UNAVAILABLE', m.importQueueUnavailable);
  // A run of this user that died must not hold the one-import slot.
  await recoverInterruptedImportJobs(db, { userId: caller.userId });
  await db
    .deleteFrom('import_jobs')
    .where('status', 'in', ['completed', 'failed'])
    .where('created_at', '<', new Date(Date.now() - FINISHED_JOB_TTL_HOURS * 3600_000))
    .execute();
  let id: string;
  try {
    id = await db.transaction().execute((trx) => enqueueDirectImportJob(trx, jobs, caller, connection, projectId));
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(429, 'IMPORT_ALREADY_RUNNING', m.directImportRunning);
    throw error;
  }
  return getImportJob(db, caller, id);
}

/**
 * The import job row and its pg-boss job, in the caller's transaction. `agency`: one client of an agency's
 * many-clients import (agency-imports.ts), which bounds its own jobs, so the one-import-per-user rule skips it.
 */
export async function enqueueDirectImportJob(
  trx: Transaction<Database>,
  jobs: JobQueue,
  owner: Pick<Caller, 'organizationId' | 'userId'>,
  connection: SealedDirectConnection,
  projectId: string | null,
  agency = false,
): Promise<string> {
  const row = await trx
    .insertInto('import_jobs')
    .values({
      organization_id: owner.organizationId,
      user_id: owner.userId,
      project_id: projectId,
      connection: JSON.stringify(connection),
      progress: JSON.stringify(queuedProgress()),
      agency,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const jobId = await jobs.send(DIRECT_IMPORT_QUEUE, { importJobId: row.id } satisfies DirectImportJobData, { transaction: trx, ...directImportJobOptions });
  await trx.updateTable('import_jobs').set({ job_id: jobId }).where('id', '=', row.id).execute();
  await notifyImportJob(trx, row.id);
  return row.id;
}

// ------------------------------------------------------------------------------------------ ending

/** Ends an unfinished job as failed; false (nothing changed) when it had already ended. The sealed token goes. */
export async function failImportJob(db: Executor, id: string, message: string, code = 'DIRECT_API_ERROR'): Promise<boolean> {
  const row = await db
    .updateTable('import_jobs')
    .set({ status: 'failed', error: message, error_code: code, connection: JSON.stringify(null), heartbeat_at: null, finished_at: sql`now()` })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  await notifyImportJob(db, id);
  importJobEvents.emit('changed', id);
  return true;
}

// ------------------------------------------------------------------------------------------ recovery

/**
 * Fails the jobs whose run can no longer finish: running with a heartbeat older than
 * `STALE_HEARTBEAT_SECONDS` (the worker's process died: a restart, a crash, the OOM killer), or queued
 * while their pg-boss job is gone or over, or queued for longer than `STALE_QUEUED_SECONDS`. Returns
 * the ids it failed. Safe from several processes at once: each failure is a conditional UPDATE.
 */
export async function recoverInterruptedImportJobs(db: DB, scope: { userId?: string; jobId?: string } = {}): Promise<string[]> {
  const queue = await sql<{ exists: boolean }>`SELECT to_regclass('pgboss.job') IS NOT NULL AS exists`.execute(db);
  const hasQueue = Boolean(queue.rows[0]?.exists);
  const rows = await sql<{ id: string; status: string }>`
    SELECT i.id, i.status
      FROM import_jobs i
      ${hasQueue ? sql`LEFT JOIN pgboss.job j ON j.name = ${DIRECT_IMPORT_QUEUE} AND j.id::text = i.job_id` : sql``}
     WHERE i.status IN ('queued', 'running')
       ${scope.userId ? sql`AND i.user_id = ${scope.userId}` : sql``}
       ${scope.jobId ? sql`AND i.id = ${scope.jobId}` : sql``}
       AND ((i.status = 'running' AND coalesce(i.heartbeat_at, i.started_at, i.created_at) < now() - make_interval(secs => ${STALE_HEARTBEAT_SECONDS}))
            OR (i.status = 'queued' AND (i.created_at < now() - make_interval(secs => ${STALE_QUEUED_SECONDS})
                 ${hasQueue ? sql`OR j.id IS NULL OR j.state IN ('completed', 'cancelled', 'failed')` : sql``})))`.execute(db);
  const failed: string[] = [];
  for (const row of rows.rows) {
    const message = row.status === 'running' ? m.directImportInterrupted : m.directImportNotStarted;
    if (await failImportJob(db, row.id, message, 'IMPORT_INTERRUPTED')) failed.push(row.id);
  }
  return failed;
}

/** The recovery every `everyMs` while the process runs, so a job whose worker died is failed even when nobody asks about it. */
export function startImportJobRecoverySweep(db: DB, options: { everyMs?: number; log?: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void } } = {}): () => void {
  const recover = async () => {
    const failed = await recoverInterruptedImportJobs(db);
    if (failed.length > 0) options.log?.warn({ importJobIds: failed }, 'interrupted import jobs failed');
  };
  return startSweep(recover, { everyMs: options.everyMs, onError: (error) => options.log?.error({ err: error }, 'import job recovery sweep failed') });
}

/**
 * The one lifecycle of a paid run (an audit, a page check, an AI plan) and the money that moves with it:
 *
 *   start: row + debit + job in ONE transaction, idempotent per (user, key)
 *   queued → running → completed
 *          ↘        ↘ failed | cancelled   (the debit is refunded once: ledger key `refund:<id>`)
 *
 * Every change is a conditional UPDATE from an unfinished state (and, after the claim, of this very
 * attempt), so a cancel racing a failure, two workers, a retried job or a recovery can never refund
 * twice or bring a finished run back. Each change also sends `NOTIFY <channel>, '<id>'`; inside a
 * transaction PostgreSQL delivers it at commit, so listeners never see a state that was rolled back.
 *
 * A running run writes a heartbeat every `runTiming.heartbeatMs`; one whose heartbeat is older than
 * `STALE_HEARTBEAT_SECONDS` (or whose job pg-boss no longer runs) was left by a dead process, and the
 * recovery applies its kind's policy: `resume` (start over on a new job while attempts remain) or
 * `fail` (fail and refund at once).
 *
 * What differs between kinds (table, queue, price, messages, crash policy) is a `PaidRunKind`.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { JobQueue, QueuedJob, SendJobOptions } from '../jobs/queue.js';
import { STALE_HEARTBEAT_SECONDS } from '../jobs/sweep.js';
import { apiMessages } from '../../contract/messages.js';
import { formatTokens } from '../../contract/format.js';
import { conflict, forbidden, HttpError } from '../lib/errors.js';
import { requireSameRequest } from '../lib/idempotency.js';
import { applyLedgerEntry, getBalance } from '../tokens/ledger.js';

export type Executor = Kysely<Database> | Transaction<Database>;

/** How often a running run proves its worker alive (and learns whether it was cancelled); tests shorten it. */
export const runTiming = { heartbeatMs: 2_000 };

/** What to do with a run a dead process left behind. */
export type CrashPolicy = 'resume' | 'fail';
type EndStatus = 'failed' | 'cancelled';

export interface PaidRunKind<JobData extends object = object> {
  /** How the run is named in logs and by `cancelRun(kind, id)`. */
  name: 'audit' | 'page-check' | 'ai-plan';
  table: 'analyses' | 'page_checks' | 'ai_plans';
  queue: string;
  /** Every change of a run is announced here, with the run's id. */
  channel: string;
  jobData: (runId: string) => JobData;
  runIdOf(data: JobData): string;
  /** pg-boss options of a run's job (a start may pass its own). */
  jobOptions: Pick<SendJobOptions, 'retryLimit' | 'expireInSeconds'>;
  /** Claims of one run (first try, retries, resumes) before it fails for good as interrupted. */
  maxAttempts: number;
  onCrash: CrashPolicy;
  /** The debit's ledger key is `<debitKeyPrefix>:<idempotency key>`. */
  debitKeyPrefix: string;
  messages: {
    /** Stored on a run recovery (or a claim out of attempts) fails. */
    interrupted: string;
    keyReused: string;
    refundReason: (status: EndStatus) => string;
    /** 403 to someone who may not cancel the run (see `mayCancel`). */
    cancelForbidden: string;
  };
  /** The audit stores a machine-readable code beside the error. */
  interruptedCode?: string;
  /** The stored error of a run that failed and was refunded (the AI plan says the tokens went back). */
  refundedError?: (error: string) => string;
  insufficient: (required: number, balance: number) => HttpError;
  queueUnavailable: () => HttpError;
  /** Columns a claim resets (a retried run starts over: a dead attempt's progress means nothing now). */
  claimSet?: Record<string, unknown>;
  /** Columns a resume resets when the run goes back to the queue. */
  requeueSet?: Record<string, unknown>;
  /** Columns written with every change (the audit keeps `updated_at`). */
  touch?: Record<string, unknown>;
}

// The columns every paid-run table has; the kind's table is read and written through this shape.
interface PaidRunTable {
  id: string;
  organization_id: string;
  created_by: string | null;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  cost: number;
  idempotency_key: string;
  request_hash: string | null;
  job_id: string | null;
  attempts: number;
  heartbeat_at: Date | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}
type RunsDb = Kysely<{ paid_runs: PaidRunTable }>;

const runs = (db: Executor): RunsDb => db as unknown as RunsDb;
const tableOf = (kind: PaidRunKind) => kind.table as 'paid_runs';
const unfinished = ['queued', 'running'] as const;
const asColumns = (set: Record<string, unknown>) => set as never;

export async function notifyRun(db: Executor, kind: PaidRunKind, id: string): Promise<void> {
  await sql`SELECT pg_notify(${kind.channel}, ${id})`.execute(db);
}

// ------------------------------------------------------------------------------------ start

export interface StartPaidRun {
  caller: Pick<Caller, 'userId' | 'organizationId'>;
  key: string;
  /** Fingerprint of what the start asks for (server/lib/idempotency.ts). */
  requestHash: string;
  /** Columns of the row that name what the run is of (project, audit): a key reused for another is 409. */
  target: Record<string, string>;
  /** Validates and prices the run inside the start's transaction; what it returns goes into the row. */
  prepare: (trx: Transaction<Database>) => Promise<{ values: Record<string, unknown>; cost: number; debitReason: string }>;
  /**
   * The price the person was shown and confirmed (`expected_cost`). When given, a start priced otherwise
   * (tariffs or the account changed since the screen computed it) is refused with 409 and charges nothing.
   */
  expectedCost?: number;
  jobOptions?: SendJobOptions;
}

/** 409: the price computed now is not the one the person confirmed; the body carries both. */
export class PriceChangedError extends HttpError {
  constructor(
    readonly shown: number,
    readonly current: number,
  ) {
    const message = apiMessages.priceChanged.replace('{shown}', formatTokens(shown)).replace('{current}', formatTokens(current));
    super(409, 'PRICE_CHANGED', message, [{ loc: ['body', 'expected_cost'], msg: message }]);
  }

  override toBody() {
    return { ...super.toBody(), expected_cost: this.shown, cost: this.current };
  }
}

/**
 * One transaction: the row (unique per user and idempotency key), the debit, the job. Twenty identical
 * requests at once: the first inserts, the others wait on the unique key, then find its row and return
 * it; nothing is charged or enqueued twice. A short balance rolls all of it back (the kind's 402).
 */
export async function startPaidRun(db: DB, jobs: JobQueue | null, kind: PaidRunKind, start: StartPaidRun): Promise<{ id: string; created: boolean }> {
  const earlier = await reuseByKey(db, kind, start);
  if (earlier) return { id: earlier, created: false };
  if (!jobs) throw kind.queueUnavailable();
  const { caller, key } = start;
  const id = await db.transaction().execute(async (trx) => {
    const { values, cost, debitReason } = await start.prepare(trx);
    // Nothing is charged but the price the person saw: a changed one rolls the whole start back.
    if (start.expectedCost !== undefined && start.expectedCost !== cost) throw new PriceChangedError(start.expectedCost, cost);
    const inserted = await runs(trx)
      .insertInto(tableOf(kind))
      .values(asColumns({ ...values, ...start.target, organization_id: caller.organizationId, created_by: caller.userId, cost, idempotency_key: key, request_hash: start.requestHash }))
      .onConflict((oc) => oc.columns(['created_by', 'idempotency_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    // The same key sent twice at once: the other request won, this one answers with its run.
    if (!inserted) return null;
    if (cost > 0) {
      try {
        await applyLedgerEntry(trx, {
          userId: caller.userId,
          organizationId: caller.organizationId,
          type: 'analysis_debit',
          amount: -cost,
          idempotencyKey: `${kind.debitKeyPrefix}:${key}`,
          referenceId: inserted.id,
          reason: debitReason,
          createdBy: caller.userId,
        });
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 402) throw kind.insufficient(cost, await getBalance(trx, caller.userId));
        throw error;
      }
    }
    const jobId = await jobs.send(kind.queue, kind.jobData(inserted.id), { transaction: trx, ...kind.jobOptions, ...start.jobOptions });
    await runs(trx).updateTable(tableOf(kind)).set({ job_id: jobId }).where('id', '=', inserted.id).execute();
    await notifyRun(trx, kind, inserted.id);
    return inserted.id;
  });
  if (id) return { id, created: true };
  const raced = await reuseByKey(db, kind, start);
  if (!raced) throw new Error(`idempotent start of a ${kind.name}: the conflicting run vanished`);
  return { id: raced, created: false };
}

/** The run started earlier with this key, when it asked for the same; 409 when it asked for something else. */
async function reuseByKey(db: DB, kind: PaidRunKind, start: StartPaidRun): Promise<string | null> {
  const existing = (await runs(db)
    .selectFrom(tableOf(kind))
    .selectAll()
    .where('created_by', '=', start.caller.userId)
    .where('idempotency_key', '=', start.key)
    .executeTakeFirst()) as (PaidRunTable & Record<string, unknown>) | undefined;
  if (!existing) return null;
  const sameTarget = existing.organization_id === start.caller.organizationId && Object.entries(start.target).every(([column, value]) => existing[column] === value);
  if (!sameTarget) throw conflict(kind.messages.keyReused, 'IDEMPOTENCY_KEY_REUSED');
  requireSameRequest(existing.request_hash, start.requestHash);
  return existing.id;
}

// ------------------------------------------------------------------------------------ claim, heartbeat

export interface ClaimedRun {
  id: string;
  /** This claim's attempt: every later write of the run is conditional on it. */
  attempt: number;
}

/** Takes the run for this job, or says why not (finished, replaced by a newer job, out of attempts: then failed). */
export async function claimRun<J extends object>(db: DB, kind: PaidRunKind<J>, job: QueuedJob<J>): Promise<ClaimedRun | null> {
  return db.transaction().execute(async (trx) => {
    const row = await runs(trx)
      .selectFrom(tableOf(kind))
      .select(['id', 'status', 'job_id', 'attempts'])
      .where('id', '=', kind.runIdOf(job.data))
      .forUpdate()
      .executeTakeFirst();
    if (!row || (row.status !== 'queued' && row.status !== 'running') || (row.job_id !== null && row.job_id !== job.id)) return null;
    if (row.attempts >= kind.maxAttempts) {
      await endRun(trx, kind, row.id, { status: 'failed', error: kind.messages.interrupted, errorCode: kind.interruptedCode });
      return null;
    }
    const attempt = row.attempts + 1;
    await runs(trx)
      .updateTable(tableOf(kind))
      .set(asColumns({ ...kind.claimSet, ...kind.touch, status: 'running', attempts: attempt, error: null, heartbeat_at: sql`now()`, started_at: sql`coalesce(started_at, now())` }))
      .where('id', '=', row.id)
      .execute();
    await notifyRun(trx, kind, row.id);
    return { id: row.id, attempt };
  });
}

/**
 * Writes `set` (and a heartbeat) while this attempt still owns the run; false when it does not any more
 * (cancelled, failed by a recovery, taken over by a retry): the caller stops without touching it.
 */
export async function ownedUpdate(db: Executor, kind: PaidRunKind, run: ClaimedRun, set: Record<string, unknown>, notify = true): Promise<boolean> {
  const row = await runs(db)
    .updateTable(tableOf(kind))
    .set(asColumns({ heartbeat_at: sql`now()`, ...kind.touch, ...set }))
    .where('id', '=', run.id)
    .where('status', '=', 'running')
    .where('attempts', '=', run.attempt)
    .returning('id')
    .executeTakeFirst();
  if (row && notify) await notifyRun(db, kind, run.id);
  return Boolean(row);
}

/** Heartbeats every `runTiming.heartbeatMs` until stopped; `onLost` when the run is no longer this attempt's. */
export function startHeartbeat(db: DB, kind: PaidRunKind, run: ClaimedRun, onLost: () => void): () => void {
  const timer = setInterval(() => {
    void ownedUpdate(db, kind, run, {}, false).then((owned) => !owned && onLost(), () => undefined);
  }, runTiming.heartbeatMs);
  return () => clearInterval(timer);
}

// ------------------------------------------------------------------------------------ end, refund, cancel

export interface RunEnding {
  status: EndStatus;
  error: string | null;
  errorCode?: string | null;
  /** Only while this attempt owns the run (a worker failing its own run). */
  attempt?: number;
}

/**
 * Ends an unfinished run as failed or cancelled and refunds it. Returns the run (its job among it), or
 * null (nothing changed) when it had finished already. Runs in the given transaction, or in its own.
 */
export async function endRun(db: Executor, kind: PaidRunKind, id: string, ending: RunEnding): Promise<{ id: string; job_id: string | null } | null> {
  if (!db.isTransaction) return (db as DB).transaction().execute((trx) => endRun(trx, kind, id, ending));
  let update = runs(db)
    .updateTable(tableOf(kind))
    .set(asColumns({ ...kind.touch, status: ending.status, error: ending.error, finished_at: sql`now()`, heartbeat_at: null, ...(ending.errorCode !== undefined ? { error_code: ending.errorCode } : {}) }))
    .where('id', '=', id)
    .where('status', 'in', unfinished);
  if (ending.attempt !== undefined) update = update.where('status', '=', 'running').where('attempts', '=', ending.attempt);
  const row = await update.returning(['id', 'created_by', 'organization_id', 'cost', 'job_id']).executeTakeFirst();
  if (!row) return null;
  const refunded = await refundRun(db, row, kind.messages.refundReason(ending.status));
  if (refunded && ending.error !== null && kind.refundedError) {
    await runs(db).updateTable(tableOf(kind)).set({ error: kind.refundedError(ending.error) }).where('id', '=', id).execute();
  }
  await notifyRun(db, kind, id);
  return { id: row.id, job_id: row.job_id };
}

/** Fails a run from its worker: only the attempt that still owns it may. */
export const failRun = (db: Executor, kind: PaidRunKind, run: ClaimedRun, error: string, errorCode?: string) =>
  endRun(db, kind, run.id, { status: 'failed', error, errorCode, attempt: run.attempt });

/**
 * Gives a run's debit back. Idempotent: a run is refunded at most once (ledger key `refund:<id>`),
 * whoever calls it. False when there was nothing to give back.
 */
export async function refundRun(db: Executor, run: { id: string; created_by: string | null; organization_id: string; cost: number }, reason: string): Promise<boolean> {
  // A free run (a pricing table at 0) was never charged; a deleted payer has no balance left.
  if (run.cost <= 0 || !run.created_by) return false;
  await applyLedgerEntry(db, {
    userId: run.created_by,
    organizationId: run.organization_id,
    type: 'analysis_refund',
    amount: run.cost,
    idempotencyKey: `refund:${run.id}`,
    referenceId: run.id,
    reason,
  });
  return true;
}

export type CancelOutcome = 'cancelled' | 'already-cancelled' | 'finished' | 'not-found';

/** Who asks for a cancel through the API (the admin area cancels as the platform, without one). */
export type Canceller = Pick<Caller, 'userId' | 'organizationId' | 'organizationRole'>;

/**
 * The one rule for every kind of paid run: its author, or the owner or an admin of its organization,
 * may cancel it. A plain member may not stop (and have refunded) a colleague's run.
 */
export function mayCancel(canceller: Canceller, run: { organization_id: string; created_by: string | null }): boolean {
  if (run.organization_id !== canceller.organizationId) return false;
  return run.created_by === canceller.userId || canceller.organizationRole === 'owner' || canceller.organizationRole === 'admin';
}

/**
 * Cancels an unfinished run and refunds it (once, however many times it is cancelled). A queued job is
 * taken off the queue; a running worker notices on its next heartbeat and stops. With a `canceller`
 * (an API request) a run of another organization is not found and one the canceller may not cancel is 403.
 */
export async function cancelRun(db: DB, jobs: JobQueue | null, kind: PaidRunKind, id: string, canceller?: Canceller): Promise<CancelOutcome> {
  if (canceller) {
    const run = await runs(db).selectFrom(tableOf(kind)).select(['organization_id', 'created_by']).where('id', '=', id).executeTakeFirst();
    if (!run || run.organization_id !== canceller.organizationId) return 'not-found';
    if (!mayCancel(canceller, run)) throw forbidden(kind.messages.cancelForbidden, 'FORBIDDEN');
  }
  const ended = await endRun(db, kind, id, { status: 'cancelled', error: null });
  if (ended) {
    if (ended.job_id && jobs) await jobs.cancel(kind.queue, ended.job_id).catch(() => undefined);
    return 'cancelled';
  }
  const row = await runs(db).selectFrom(tableOf(kind)).select('status').where('id', '=', id).executeTakeFirst();
  return !row ? 'not-found' : row.status === 'cancelled' ? 'already-cancelled' : 'finished';
}

// ------------------------------------------------------------------------------------ recovery

export interface RecoveryReport {
  /** Enqueued again to run from the start. */
  resumed: string[];
  /** Failed and refunded (the kind fails on a crash, no queue to resume on, or no attempts left). */
  failed: string[];
}

/**
 * Unfinished runs that can no longer finish: the job is gone or over (archived, failed, cancelled,
 * completed without finishing the run), or the run's worker stopped writing heartbeats (the process
 * died: a restart, a crash, an out-of-memory kill) while the job is active or the run says running.
 */
async function interruptedRuns(db: DB, kind: PaidRunKind, onlyId: string | null): Promise<{ id: string; job_id: string | null }[]> {
  const queue = await sql<{ exists: boolean }>`SELECT to_regclass('pgboss.job') IS NOT NULL AS exists`.execute(db);
  const only = sql`(${onlyId}::uuid IS NULL OR r.id = ${onlyId}::uuid)`;
  if (!queue.rows[0]?.exists) {
    return (await sql<{ id: string; job_id: string | null }>`SELECT r.id, r.job_id FROM ${sql.table(kind.table)} r WHERE r.status IN ('queued', 'running') AND ${only}`.execute(db)).rows;
  }
  const rows = await sql<{ id: string; job_id: string | null }>`
    SELECT r.id, r.job_id
      FROM ${sql.table(kind.table)} r
      LEFT JOIN pgboss.job j ON j.name = ${kind.queue} AND j.id::text = r.job_id
     WHERE r.status IN ('queued', 'running') AND ${only}
       AND (j.id IS NULL
            OR j.state IN ('completed', 'cancelled', 'failed')
            OR ((j.state = 'active' OR r.status = 'running')
                AND coalesce(r.heartbeat_at, j.started_on, r.created_at) < now() - make_interval(secs => ${STALE_HEARTBEAT_SECONDS})))`.execute(db);
  return rows.rows;
}

/**
 * Applies the kind's crash policy to its interrupted runs: `resume` starts one over on a new job (when
 * a queue is given and it has attempts left), otherwise (and always for `fail`) it fails and its tokens
 * go back. Safe to run from several processes at once: each run is re-checked under a row lock, and one
 * another process already handled is left alone.
 */
export async function recoverRuns(
  db: DB,
  kind: PaidRunKind,
  options: { jobs?: JobQueue | null; onlyId?: string; log?: { warn: (obj: object, msg: string) => void } } = {},
): Promise<RecoveryReport> {
  const report: RecoveryReport = { resumed: [], failed: [] };
  for (const candidate of await interruptedRuns(db, kind, options.onlyId ?? null)) {
    const outcome = await db.transaction().execute(async (trx) => {
      const row = await runs(trx).selectFrom(tableOf(kind)).select(['id', 'status', 'job_id', 'attempts']).where('id', '=', candidate.id).forUpdate().executeTakeFirst();
      // Handled meanwhile (finished, or picked up again by a live worker under a new job).
      if (!row || (row.status !== 'queued' && row.status !== 'running') || row.job_id !== candidate.job_id) return null;
      if (kind.onCrash === 'resume' && options.jobs && row.attempts < kind.maxAttempts) {
        await requeue(trx, options.jobs, kind, row.id);
        return 'resumed' as const;
      }
      const failed = await endRun(trx, kind, row.id, { status: 'failed', error: kind.messages.interrupted, errorCode: kind.interruptedCode });
      return failed ? ('failed' as const) : null;
    });
    if (!outcome) continue;
    report[outcome].push(candidate.id);
    options.log?.warn({ run: kind.name, id: candidate.id, outcome }, 'interrupted run recovered');
    // The old job, if pg-boss still holds it, must not run later: its handler would skip it anyway
    // (the run now names another job, or is finished), cancelling just saves the trip.
    if (candidate.job_id && options.jobs) await options.jobs.cancel(kind.queue, candidate.job_id).catch(() => undefined);
  }
  return report;
}

/** Puts an unfinished run back on the queue, on a new job, to start over (its old job is ignored from now on). */
async function requeue(trx: Transaction<Database>, jobs: JobQueue, kind: PaidRunKind, id: string): Promise<void> {
  const jobId = await jobs.send(kind.queue, kind.jobData(id), { transaction: trx, ...kind.jobOptions });
  await runs(trx)
    .updateTable(tableOf(kind))
    .set(asColumns({ ...kind.requeueSet, ...kind.touch, status: 'queued', heartbeat_at: null, job_id: jobId }))
    .where('id', '=', id)
    .execute();
  await notifyRun(trx, kind, id);
}

/**
 * Resumes one stuck run at once (the admin's «retry»), whatever the kind's crash policy: it starts over
 * on a new job, charged nothing more. False when the run is finished (or out of attempts).
 */
export async function resumeRun(db: DB, jobs: JobQueue, kind: PaidRunKind, id: string): Promise<boolean> {
  const oldJob = await db.transaction().execute(async (trx) => {
    const row = await runs(trx).selectFrom(tableOf(kind)).select(['id', 'status', 'job_id', 'attempts']).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row || (row.status !== 'queued' && row.status !== 'running') || row.attempts >= kind.maxAttempts) return false;
    await requeue(trx, jobs, kind, id);
    return { job_id: row.job_id };
  });
  if (!oldJob) return false;
  if (oldJob.job_id) await jobs.cancel(kind.queue, oldJob.job_id).catch(() => undefined);
  return true;
}

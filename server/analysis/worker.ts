/**
 * The `analysis.run` job: claims the analysis, loads the chosen campaigns and the project's search
 * queries, runs the engines in a worker thread (the event loop stays free for the API), writes
 * throttled progress into the row with a NOTIFY, and stores the result.
 *
 * Ownership of a run: the claim increments `attempts`, and every later write is conditional on
 * `status = 'running' AND attempts = <this run's attempt>`. A write that matches no row means the run
 * was cancelled, or another worker took the analysis over (a retry after this process was thought
 * dead): the run stops at once (its thread is terminated) and leaves the outcome to whoever owns it.
 * A heartbeat every few seconds does the same check while the engines are busy, so a cancel stops
 * the work within seconds whatever stage it is in.
 */
import { MessageChannel } from 'node:worker_threads';
import { sql } from 'kysely';
import type { AnalysisProgress } from '../../contract/analysis-results.js';
import type { AnalysisErrorCode, AnalysisOptions } from '../../contract/analysis.js';
import { analysisMessages, analysisPageMessages } from '../../contract/messages.js';
import { isEmbedded, poolOf, type DB } from '../db/database.js';
import { createLogger, type Logger } from '../lib/logger.js';
import type { QueuedJob } from '../jobs/queue.js';
import { createProgressWriter } from '../jobs/progress-writer.js';
import type { JobWorker } from '../jobs/workers.js';
import { receivePortStream } from '../lib/port-stream.js';
import { analysisPool, WorkerLimitError, WorkerTaskError } from '../lib/worker-pool.js';
import { claimRun, failRun, ownedUpdate, startHeartbeat, type ClaimedRun as ClaimedPaidRun } from '../runs/paid-run.js';
import { ANALYSIS_QUEUE, analysisJobOptions, auditRun, type AnalysisJobData } from './lifecycle.js';
import { progressPercent, type AuditOutput, type AuditProgressMessage, type AuditRowsMessage, type AuditSavingMessage, type RawAuditInput } from './run-audit.js';
import { defaultStorageLimits, ResultTooLargeError, type StorageLimits } from './result-rows.js';
import { clearResultRows } from './result-saving.js';
import { CAMPAIGNS_GONE } from './stored-documents.js';
import { recordCompletedAudit } from '../monitoring/audit-changes.js';

const auditModule = new URL('./run-audit.js', import.meta.url);
/** The engines get this long; the job expires at 15 minutes, so a stuck run fails (and refunds) first. */
const RUN_TIMEOUT_MS = 14 * 60_000;

/**
 * Runs the audit of `input` and saves its rows (`input.saving`, result-saving.ts), calling `onSaving` as
 * the saving starts; answers the summaries for the completion.
 */
export type AuditRunner = (input: RawAuditInput, onProgress: (progress: AnalysisProgress) => void, signal: AbortSignal, onSaving: () => void) => Promise<AuditOutput>;

/** Storage limits handed to the engine thread; tests lower them to provoke RESULT_TOO_LARGE. */
export const analysisStorageLimits: StorageLimits = { ...defaultStorageLimits };

/**
 * Runs `runAuditInThread` of run-audit.ts in a thread of the analysis pool (`analysisPool()`), which also
 * saves the rows (result-saving.ts): only progress and the saving's start come back over the MessagePort
 * (server/lib/port-stream.ts), never the rows' bytes, which the event loop handling them stalled the API with.
 */
export const runAuditInWorkerThread: AuditRunner = async (input, onProgress, signal, onSaving) => {
  if (!input.saving) throw new Error('The engine thread saves the rows: the input needs its saving target');
  const { port1, port2 } = new MessageChannel();
  receivePortStream<AuditRowsMessage, AuditProgressMessage | AuditSavingMessage>(port1, {
    // The thread has a saving target, so it never sends batches.
    handle: () => Promise.reject(new Error('Row batches are saved by the engine thread')),
    notice: (message) => (message.type === 'saving' ? onSaving() : onProgress(message.progress)),
  });
  try {
    return await analysisPool().run<AuditOutput>(auditModule, 'runAuditInThread', [input, port2, analysisStorageLimits], {
      transferList: [port2, ...transferablesOf(input)],
      signal,
      timeoutMs: RUN_TIMEOUT_MS,
    });
  } finally {
    port1.close();
  }
};

/** The runner in use. Tests swap it (a failing or a gated run) and put `runAuditInWorkerThread` back. */
export const auditRunner: { run: AuditRunner } = { run: runAuditInWorkerThread };

/** Timings of the progress writes (the heartbeat's is `runTiming` of server/runs/paid-run.ts). */
export const analysisWorkerTiming = { progressIntervalMs: 500, progressStep: 2 };

/** The run no longer owns the analysis (cancelled, or taken over): stop without touching it. */
class RunLostError extends Error {
  constructor() {
    super('The analysis is no longer owned by this run');
  }
}

class CampaignsGoneError extends Error {}

interface ClaimedRun extends ClaimedPaidRun {
  projectId: string;
  options: AnalysisOptions;
}

/** Takes the analysis for this job (server/runs/paid-run.ts) with what the run reads of it. */
async function claimAudit(db: DB, job: QueuedJob<AnalysisJobData>): Promise<ClaimedRun | null> {
  const claimed = await claimRun(db, auditRun, job);
  if (!claimed) return null;
  const row = await db.selectFrom('analyses').select(['project_id', 'options']).where('id', '=', claimed.id).executeTakeFirstOrThrow();
  return { ...claimed, projectId: row.project_id, options: row.options };
}

/** The buffers a raw input moves into the thread (an input that carries its documents, as bench/analysis-worker-path.ts's). */
const transferablesOf = (input: RawAuditInput): ArrayBuffer[] =>
  [...new Set([...input.campaigns, ...input.searchQueries].flatMap((text) => (typeof text === 'string' ? [] : [text.buffer as ArrayBuffer])))];

async function loadAuditInput(db: DB, run: ClaimedRun): Promise<RawAuditInput> {
  const ids = run.options.campaign_ids;
  const [project, campaigns, queries, lastPeriod] = await Promise.all([
    db.selectFrom('projects').select(['platform']).where('id', '=', run.projectId).executeTakeFirstOrThrow(),
    db.selectFrom('campaigns').select('id').where('project_id', '=', run.projectId).where('id', 'in', ids).orderBy('position').execute(),
    // The report is stored in chunks of ≤ 10 000 queries (never one jsonb): imports in order, each import's chunks in order.
    db.selectFrom('project_search_queries').select('id').where('project_id', '=', run.projectId).orderBy('created_at').orderBy('import_id').orderBy('position').execute(),
    db.selectFrom('project_imports').select('period').where('project_id', '=', run.projectId).where('period', 'is not', null).orderBy('created_at', 'desc').limit(1).executeTakeFirst(),
  ]);
  if (campaigns.length !== ids.length) throw new CampaignsGoneError(CAMPAIGNS_GONE);
  const connectionString = poolOf(db).options.connectionString ?? '';
  return {
    analysisId: run.id,
    platform: project.platform,
    period: lastPeriod?.period ?? null,
    // The thread reads the documents itself (stored-documents.ts): the event loop only hands over ids.
    campaigns: [],
    searchQueries: [],
    stored: {
      connectionString,
      lowerBackendPriority: isEmbedded(db),
      campaignIds: campaigns.map((row) => row.id),
      searchQueryIds: queries.map((row) => row.id),
    },
    // The thread saves the rows too (result-saving.ts): the event loop only completes the analysis.
    saving: { connectionString, lowerBackendPriority: isEmbedded(db), analysisId: run.id, attempt: run.attempt },
    settings: run.options.settings,
    targetCpa: run.options.target_cpa,
    region: run.options.region ?? null,
  };
}

/**
 * Engine progress → the row, at most every `progressIntervalMs` unless the percentage moved by
 * `progressStep` or the stage changed; writes run one after another and the last value always lands.
 */
function progressWriter(db: DB, run: ClaimedRun, onLost: () => void) {
  let written = { percent: 0, stage: 'prepare' };
  return createProgressWriter({
    intervalMs: analysisWorkerTiming.progressIntervalMs,
    due: (progress: AnalysisProgress) => progressPercent(progress) - written.percent >= analysisWorkerTiming.progressStep || progress.stage !== written.stage,
    prepare: (progress) => {
      const percent = Math.max(written.percent, progressPercent(progress));
      written = { percent, stage: progress.stage };
      return { stage: progress.stage, progress: percent, progress_detail: JSON.stringify(progress) };
    },
    write: (set) => ownedUpdate(db, auditRun, run, set),
    onLost,
  });
}

/** Where a failed run's error and stack are logged: the app's pino logger (tests swap it to read it). */
export const analysisLog: { logger: Pick<Logger, 'error' | 'warn' | 'info'> | null } = { logger: null };

/**
 * A PostgreSQL error (it has a five-character SQLSTATE): pg's own, or one the engine thread's saving
 * raised, which crosses as a WorkerTaskError with its code and pg's name for it ('error').
 */
const sqlState = (error: unknown): string | null => {
  const code = (error as { code?: unknown } | null)?.code;
  const fromPg = error instanceof WorkerTaskError ? error.originalName === 'error' : 'severity' in ((error ?? {}) as object);
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && fromPg ? code : null;
};

/** A database failure that may pass (connection lost, server shutting down, serialization, deadlock): worth a retry. */
function isTransientDatabaseError(error: unknown): boolean {
  const state = sqlState(error);
  if (state) return /^(08|57P|53|40001|40P01)/.test(state);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND)$/.test(code);
}

/** Why a run failed, as stored on the analysis and shown to the user. Every reason but a transient database error is final. */
function classifyFailure(error: unknown): { code: AnalysisErrorCode; message: string; retry: boolean } {
  const name = (error as { originalName?: string; name?: string } | null)?.originalName ?? (error as Error | null)?.name;
  const text = String((error as Error | null)?.message ?? error);
  // By its message: gone before the thread started (CampaignsGoneError here) or while the thread read them (its error crosses as a plain Error).
  if (text === CAMPAIGNS_GONE) return { code: 'CAMPAIGNS_GONE', message: analysisMessages.campaignsGone, retry: false };
  // 54000 program_limit_exceeded: «total size of jsonb object elements exceeds the maximum…», a field over 1 GB.
  if (error instanceof ResultTooLargeError || name === 'ResultTooLargeError' || sqlState(error)?.startsWith('54')) {
    return { code: 'RESULT_TOO_LARGE', message: analysisPageMessages.resultTooLarge, retry: false };
  }
  // The pool stopped the thread: over the heap limit (ANALYSIS_WORKER_HEAP_MB) or the run's time limit.
  if (error instanceof WorkerLimitError) {
    return error.limit === 'memory'
      ? { code: 'OUT_OF_MEMORY', message: analysisMessages.outOfMemory, retry: false }
      : { code: 'TIMED_OUT', message: analysisMessages.timedOut, retry: false };
  }
  if (/timed out/i.test(text)) return { code: 'TIMED_OUT', message: analysisMessages.timedOut, retry: false };
  if (sqlState(error) || isTransientDatabaseError(error)) return { code: 'DB_ERROR', message: analysisMessages.failed, retry: isTransientDatabaseError(error) };
  return { code: 'ENGINE_FAILED', message: analysisMessages.failed, retry: false };
}

/** Results of at least this many rows refresh the planner's statistics of the row tables. */
const ANALYZE_AFTER_ROWS = 20_000;

/**
 * VACUUM (ANALYZE): fresh statistics, and the new pages marked all-visible so the pages' counts are
 * index-only scans. Only pages changed since the last vacuum are visited, so it stays proportional to
 * the new result, not to every analysis stored.
 */
async function refreshRowStatistics(db: DB): Promise<void> {
  await sql`VACUUM (ANALYZE) analysis_findings, analysis_finding_items, analysis_suggestions, analysis_scores, analysis_semantic`.execute(db);
}

/**
 * The completion: the analysis turns completed with its summaries, only if the run still owns it (a
 * cancel that won the race keeps it cancelled). The rows are in already (committed by the engine thread).
 */
async function completeAudit(db: DB, run: ClaimedRun, output: AuditOutput, log: Pick<Logger, 'error' | 'warn' | 'info'> | null): Promise<boolean> {
  const completed = await ownedUpdate(db, auditRun, run, {
    status: 'completed',
    stage: 'done',
    progress: 100,
    progress_detail: null,
    report: JSON.stringify(output.report),
    summary: JSON.stringify(output.summary),
    score: output.summary.account_score,
    result_rows: output.rows,
    error_code: null,
    finished_at: sql`now()`,
  });
  if (!completed) return false;
  log?.info({ analysisId: run.id, rows: output.rows, engineMemory: output.engineMemory }, 'analysis completed');
  // The board's «новых находок» against the audit before; the results are kept even if this fails.
  await recordCompletedAudit(db, run.id).catch((error: unknown) => log?.warn({ err: error, analysisId: run.id }, 'audit changes not recorded'));
  // A big result changes the tables' statistics at once; without fresh ones the planner may
  // take the new rows for a handful and join them row by row. Autovacuum would come later.
  if (output.rows >= ANALYZE_AFTER_ROWS) await refreshRowStatistics(db).catch((error: unknown) => log?.warn({ err: error }, 'ANALYZE of the result tables failed'));
  return true;
}

export async function runAnalysisJob(db: DB, job: QueuedJob<AnalysisJobData>, log: Pick<Logger, 'error' | 'warn' | 'info'> | null = analysisLog.logger): Promise<void> {
  const run = await claimAudit(db, job);
  if (!run) return;

  const abort = new AbortController();
  const lose = () => abort.abort(new RunLostError());
  const stopHeartbeat = startHeartbeat(db, auditRun, run, lose);
  const progress = progressWriter(db, run, lose);
  // The stage turns to «saving» once, when the engine thread starts saving (a failed write of it only loses the stage).
  let savingStarted: Promise<unknown> | null = null;
  const onSaving = () => {
    savingStarted ??= progress
      .stop()
      .then(() => ownedUpdate(db, auditRun, run, { stage: 'saving', progress: 97, progress_detail: null }))
      .catch(() => undefined);
  };
  // Rows this attempt's thread committed for an analysis it did not complete (result-saving.ts): deleted
  // unless the analysis completed after all or a newer attempt owns it (that one cleared before it wrote).
  const discardRows = () => clearResultRows(db, run.id, { ofAttempt: run.attempt }).catch((error: unknown) => log?.warn({ err: error, analysisId: run.id }, 'rows of an uncompleted analysis not deleted'));

  try {
    // An earlier attempt that died between its commits may have left rows (result-saving.ts).
    if (run.attempt > 1) await clearResultRows(db, run.id);
    const input = await loadAuditInput(db, run);
    const output = await auditRunner.run(input, (p) => progress.report(p), abort.signal, onSaving);
    await progress.stop();
    await savingStarted;
    if (abort.signal.aborted || !(await completeAudit(db, run, output, log))) await discardRows();
  } catch (error) {
    await discardRows();
    if (abort.signal.aborted && abort.signal.reason instanceof RunLostError) return;
    const failure = classifyFailure(error);
    const lastTry = job.retryCount >= analysisJobOptions.retryLimit;
    if (failure.retry && !lastTry) {
      // Database trouble that may pass: pg-boss retries the job (the retry starts over).
      log?.warn({ err: error, analysisId: run.id, errorCode: failure.code, retryCount: job.retryCount }, 'analysis run failed, will be retried');
      throw error;
    }
    // Deterministic (the same data fails the same way) or out of retries: fail once, refund now.
    log?.error({ err: error, analysisId: run.id, errorCode: failure.code, retryCount: job.retryCount }, 'analysis run failed');
    await failRun(db, auditRun, run, failure.message, failure.code).catch((failError: unknown) => log?.error({ err: failError, analysisId: run.id }, 'analysis could not be marked failed'));
  } finally {
    stopHeartbeat();
    await progress.stop();
  }
}

export const analysisJobWorker: JobWorker = {
  queue: ANALYSIS_QUEUE,
  start: async (queue, deps) => {
    analysisLog.logger ??= createLogger(deps.config, 'analysis');
    // Two runs per process: each is a worker thread, and the machine's cores are shared with the API.
    await queue.work<AnalysisJobData>(ANALYSIS_QUEUE, (job) => runAnalysisJob(deps.db, job), { concurrency: 2 });
  },
};

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
import type { AnalysisProgress } from '../../src/contract/analysis-results.js';
import type { AnalysisOptions } from '../../src/contract/analysis.js';
import { analysisMessages } from '../../src/contract/messages.js';
import type { DB } from '../db/database.js';
import type { QueuedJob } from '../jobs/queue.js';
import type { JobWorker } from '../jobs/workers.js';
import { analysisPool, WorkerLimitError } from '../lib/worker-pool.js';
import { ANALYSIS_QUEUE, failAnalysis, MAX_ATTEMPTS, analysisJobOptions, PROGRESS_CHANNEL, type AnalysisJobData } from './lifecycle.js';
import { progressPercent, type AuditOutput, type RawAuditInput } from './run-audit.js';

const auditModule = new URL('./run-audit.js', import.meta.url);
/** The engines get this long; the job expires at 15 minutes, so a stuck run fails (and refunds) first. */
const RUN_TIMEOUT_MS = 14 * 60_000;

export type AuditRunner = (input: RawAuditInput, onProgress: (progress: AnalysisProgress) => void, signal: AbortSignal) => Promise<AuditOutput>;

/** Runs `runAuditInThread` of run-audit.ts in a thread of the analysis pool; progress comes back over a MessagePort. */
export const runAuditInWorkerThread: AuditRunner = async (input, onProgress, signal) => {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (progress: AnalysisProgress) => onProgress(progress));
  try {
    return await analysisPool().run<AuditOutput>(auditModule, 'runAuditInThread', [input, port2], { transferList: [port2], signal, timeoutMs: RUN_TIMEOUT_MS });
  } finally {
    port1.close();
  }
};

/** The runner in use. Tests swap it (a failing or a gated run) and put `runAuditInWorkerThread` back. */
export const auditRunner: { run: AuditRunner } = { run: runAuditInWorkerThread };

/** Timings of a run; tests shorten the heartbeat to see a cancel quickly. */
export const analysisWorkerTiming = { heartbeatMs: 2_000, progressIntervalMs: 500, progressStep: 2 };

/** The run no longer owns the analysis (cancelled, or taken over): stop without touching it. */
class RunLostError extends Error {
  constructor() {
    super('The analysis is no longer owned by this run');
  }
}

class CampaignsGoneError extends Error {}

interface ClaimedRun {
  id: string;
  projectId: string;
  attempt: number;
  options: AnalysisOptions;
}

/** Takes the analysis for this job, or says why not (finished, replaced by a newer job, out of attempts). */
async function claimRun(db: DB, job: QueuedJob<AnalysisJobData>): Promise<ClaimedRun | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('analyses')
      .select(['id', 'project_id', 'status', 'job_id', 'attempts', 'options'])
      .where('id', '=', job.data.analysisId)
      .forUpdate()
      .executeTakeFirst();
    if (!row || (row.status !== 'queued' && row.status !== 'running') || row.job_id !== job.id) return null;
    if (row.attempts >= MAX_ATTEMPTS) {
      await failAnalysis(trx, row.id, analysisMessages.interrupted);
      return null;
    }
    const attempt = row.attempts + 1;
    // A retried run starts over from nothing: progress of a dead attempt means nothing now.
    await trx
      .updateTable('analyses')
      .set({
        status: 'running',
        attempts: attempt,
        stage: 'prepare',
        progress: 0,
        progress_detail: null,
        error: null,
        heartbeat_at: sql`now()`,
        started_at: sql`coalesce(started_at, now())`,
        updated_at: sql`now()`,
      })
      .where('id', '=', row.id)
      .execute();
    await sql`SELECT pg_notify(${PROGRESS_CHANNEL}, ${row.id})`.execute(trx);
    return { id: row.id, projectId: row.project_id, attempt, options: row.options };
  });
}

/** Runs `update` (a conditional UPDATE … RETURNING id of this run) and notifies; false = the run lost the analysis. */
async function ownedUpdate(db: DB, run: ClaimedRun, set: Record<string, unknown>, notify: boolean): Promise<boolean> {
  const result = await db
    .updateTable('analyses')
    .set({ ...set, heartbeat_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', run.id)
    .where('status', '=', 'running')
    .where('attempts', '=', run.attempt)
    .returning('id')
    .executeTakeFirst();
  if (result && notify) await sql`SELECT pg_notify(${PROGRESS_CHANNEL}, ${run.id})`.execute(db);
  return Boolean(result);
}

async function loadAuditInput(db: DB, run: ClaimedRun): Promise<RawAuditInput> {
  const ids = run.options.campaign_ids;
  // data::text: the documents reach the thread as JSON text, parsed there rather than on the event loop.
  const [project, campaigns, queries, lastPeriod] = await Promise.all([
    db.selectFrom('projects').select(['platform']).where('id', '=', run.projectId).executeTakeFirstOrThrow(),
    db.selectFrom('campaigns').select(['id', sql<string>`data::text`.as('data')]).where('project_id', '=', run.projectId).where('id', 'in', ids).orderBy('position').execute(),
    db.selectFrom('project_search_queries').select(sql<string>`data::text`.as('data')).where('project_id', '=', run.projectId).orderBy('created_at').execute(),
    db.selectFrom('project_imports').select('period').where('project_id', '=', run.projectId).where('period', 'is not', null).orderBy('created_at', 'desc').limit(1).executeTakeFirst(),
  ]);
  if (campaigns.length !== ids.length) throw new CampaignsGoneError('Campaigns of the analysis were removed by a new import');
  return {
    platform: project.platform,
    period: lastPeriod?.period ?? null,
    campaigns: campaigns.map((row) => row.data),
    searchQueries: queries.map((row) => row.data),
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
  let pending: AnalysisProgress | null = null;
  let written = { percent: 0, stage: 'prepare' };
  let lastWriteAt = 0;
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const progress = pending;
    pending = null;
    if (!progress || stopped) return chain;
    const percent = Math.max(written.percent, progressPercent(progress));
    written = { percent, stage: progress.stage };
    lastWriteAt = Date.now();
    chain = chain.then(async () => {
      const owned = await ownedUpdate(db, run, { stage: progress.stage, progress: percent, progress_detail: JSON.stringify(progress) }, true).catch(() => true);
      if (!owned) onLost();
    });
    return chain;
  };

  return {
    report(progress: AnalysisProgress) {
      if (stopped) return;
      pending = progress;
      const moved = progressPercent(progress) - written.percent >= analysisWorkerTiming.progressStep || progress.stage !== written.stage;
      if (moved || Date.now() - lastWriteAt >= analysisWorkerTiming.progressIntervalMs) void flush();
      else timer ??= setTimeout(() => void flush(), analysisWorkerTiming.progressIntervalMs);
    },
    /** Writes what is pending, then takes no more. */
    async stop() {
      await flush();
      stopped = true;
    },
  };
}

/** What the user reads about a failed run (it is refunded whatever the reason). */
function failureMessage(error: unknown): string {
  if (error instanceof CampaignsGoneError) return analysisMessages.campaignsGone;
  // The pool stopped the thread: over the heap limit (ANALYSIS_WORKER_HEAP_MB) or the run's time limit.
  if (error instanceof WorkerLimitError) return error.limit === 'memory' ? analysisMessages.outOfMemory : analysisMessages.timedOut;
  return /timed out/.test(String((error as Error)?.message)) ? analysisMessages.timedOut : analysisMessages.failed;
}

export async function runAnalysisJob(db: DB, job: QueuedJob<AnalysisJobData>, log?: { error: (obj: object, msg: string) => void }): Promise<void> {
  const run = await claimRun(db, job);
  if (!run) return;

  const abort = new AbortController();
  const lose = () => abort.abort(new RunLostError());
  const heartbeat = setInterval(() => {
    void ownedUpdate(db, run, {}, false).then((owned) => !owned && lose(), () => undefined);
  }, analysisWorkerTiming.heartbeatMs);
  const progress = progressWriter(db, run, lose);

  try {
    let output: AuditOutput;
    try {
      const input = await loadAuditInput(db, run);
      output = await auditRunner.run(input, (p) => progress.report(p), abort.signal);
    } catch (error) {
      if (abort.signal.aborted) return;
      // The engines are deterministic: the same data fails the same way, so no retry, a refund now.
      log?.error({ err: error, analysisId: run.id }, 'analysis run failed');
      await failAnalysis(db, run.id, failureMessage(error));
      return;
    }
    await progress.stop();
    if (abort.signal.aborted) return;
    await ownedUpdate(db, run, { stage: 'saving', progress: 97, progress_detail: null }, true);
    // Stored only if the run still owns the analysis: a cancel that won the race keeps it cancelled.
    await ownedUpdate(
      db,
      run,
      {
        status: 'completed',
        stage: 'done',
        progress: 100,
        progress_detail: null,
        result: output.resultJson,
        summary: JSON.stringify(output.summary),
        score: output.summary.account_score,
        finished_at: sql`now()`,
      },
      true,
    );
  } catch (error) {
    // Database trouble while loading or saving: let pg-boss retry the job (the retry starts over);
    // on the last try, fail and refund rather than leave the analysis running.
    if (job.retryCount >= analysisJobOptions.retryLimit) await failAnalysis(db, run.id, analysisMessages.failed).catch(() => undefined);
    throw error;
  } finally {
    clearInterval(heartbeat);
    await progress.stop();
  }
}

export const analysisJobWorker: JobWorker = {
  queue: ANALYSIS_QUEUE,
  start: async (queue, deps) => {
    const log = { error: (obj: object, msg: string) => (deps.config.logLevel === 'silent' ? undefined : console.error(msg, obj)) };
    // Two runs per process: each is a worker thread, and the machine's cores are shared with the API.
    await queue.work<AnalysisJobData>(ANALYSIS_QUEUE, (job) => runAnalysisJob(deps.db, job, log), { concurrency: 2 });
  },
};

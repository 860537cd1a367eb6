/**
 * The `projects.direct-import` job: claims the import job, opens its sealed token, reads the account
 * through the Direct API in a worker thread (progress comes back over a MessagePort and is written
 * into the row, throttled) and the account over a second port into a draft's rows (drafts.ts, as the file
 * upload does), then marks the draft ready and completes the job in one transaction.
 *
 * Ownership: after the claim every write is conditional on `status = 'running'`. A write that matches
 * nothing means the recovery sweep failed the job meanwhile (this process was thought dead): the run
 * stops (its thread is terminated) and leaves the job as it is. A heartbeat every few seconds does the
 * same check while the thread waits on Yandex.
 */
import { MessageChannel } from 'node:worker_threads';
import { sql } from 'kysely';
import { projectMessages as m } from '../../contract/messages.js';
import type { ImportPreview } from '../../contract/projects.js';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { SealedDirectConnection } from '../db/tables/import-jobs.js';
import type { JobQueue, QueuedJob } from '../jobs/queue.js';
import { completeAgencyClientImport, dispatchAgencyImports } from './agency-imports.js';
import { createProgressWriter } from '../jobs/progress-writer.js';
import type { JobWorker } from '../jobs/workers.js';
import { importPool, WorkerTaskError } from '../lib/worker-pool.js';
import { openSecret } from '../lib/secret-box.js';
import type { ParsedImport } from './import-worker.js';
import { DIRECT_IMPORT_QUEUE, failImportJob, importJobEvents, notifyImportJob, progressOf, recoverInterruptedImportJobs, type DirectImportJobData } from './import-jobs.js';
import { discardDraft, fillDraft, finishDraft, openDraft } from './drafts.js';
import { DIRECT_TOKEN_CONTEXT } from './service.js';
import type { DirectFetchProgress } from '../direct/api/progress.js';

const importModule = new URL('./import-worker.js', import.meta.url);
/** The thread gets this long; the pg-boss job expires later, so a stuck read fails with a message first. */
const READ_TIMEOUT_MS = 20 * 60_000;

/** Timings of a run; tests shorten them. */
export const directImportTiming = { heartbeatMs: 5_000, progressIntervalMs: 500 };

/** The run no longer owns the job (the recovery failed it): stop without touching it. */
class RunLostError extends Error {
  constructor() {
    super('The import job is no longer owned by this run');
  }
}

class ImportFailure extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

interface ClaimedRun {
  id: string;
  organizationId: string;
  userId: string;
  connection: SealedDirectConnection;
}

async function claim(db: DB, job: QueuedJob<DirectImportJobData>): Promise<ClaimedRun | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('import_jobs')
      .select(['id', 'organization_id', 'user_id', 'status', 'job_id', 'connection'])
      .where('id', '=', job.data.importJobId)
      .forUpdate()
      .executeTakeFirst();
    // Only a queued job of this very pg-boss job: a failed (recovered) or finished one stays as it is.
    if (!row || row.status !== 'queued' || (row.job_id !== null && row.job_id !== job.id)) return null;
    if (!row.connection) {
      await failImportJob(trx, row.id, m.directApiFailed);
      return null;
    }
    await trx.updateTable('import_jobs').set({ status: 'running', started_at: sql`now()`, heartbeat_at: sql`now()` }).where('id', '=', row.id).execute();
    await notifyImportJob(trx, row.id);
    return { id: row.id, organizationId: row.organization_id, userId: row.user_id, connection: row.connection };
  });
}

/** Sets columns of the job while this run owns it; false when it does not any more. */
async function ownedUpdate(db: DB, id: string, set: Record<string, unknown>): Promise<boolean> {
  const row = await db
    .updateTable('import_jobs')
    .set({ ...set, heartbeat_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Thread progress → the row, at most every `progressIntervalMs`; writes run one after another and the
 * last value always lands.
 */
function progressWriter(db: DB, id: string, onLost: () => void) {
  return createProgressWriter({
    intervalMs: directImportTiming.progressIntervalMs,
    prepare: (progress: DirectFetchProgress) => JSON.stringify(progressOf(progress.stages, progress.units)),
    write: async (stored) => {
      const owned = await ownedUpdate(db, id, { progress: stored });
      if (owned) {
        await notifyImportJob(db, id);
        importJobEvents.emit('changed', id);
      }
      return owned;
    },
    onLost,
  });
}

/** What a failed read tells the user: the Direct client's Russian message, or a general one. */
function failureOf(error: unknown): ImportFailure {
  if (error instanceof ImportFailure) return error;
  // The client's errors carry the platform's code mapped to a Russian message; anything else is generic.
  if (error instanceof WorkerTaskError && /[а-яё]/i.test(error.message)) return new ImportFailure(error.message, 'DIRECT_API_ERROR');
  if (/timed out/.test(String((error as Error | undefined)?.message))) return new ImportFailure(m.directImportTimedOut, 'DIRECT_API_ERROR');
  return new ImportFailure(m.directApiFailed, 'DIRECT_API_ERROR');
}

export async function runDirectImportJob(db: DB, config: AppConfig, job: QueuedJob<DirectImportJobData>, log?: { error: (obj: object, msg: string) => void }, queue?: JobQueue): Promise<void> {
  await readDirectAccount(db, config, job, log);
  // An agency client's turn ended (whatever happened): the next waiting client of its connection may start.
  if (queue) await dispatchAfter(db, queue, config, job.data.importJobId).catch((error: unknown) => log?.error({ err: error }, 'agency imports not dispatched'));
}

async function dispatchAfter(db: DB, queue: JobQueue, config: AppConfig, importJobId: string): Promise<void> {
  const turn = await db
    .selectFrom('agency_client_imports')
    .select(['organization_id', 'direct_connection_id'])
    .where('import_job_id', '=', importJobId)
    .executeTakeFirst();
  if (turn) await dispatchAgencyImports(db, queue, config, turn.organization_id, turn.direct_connection_id);
}

async function readDirectAccount(db: DB, config: AppConfig, job: QueuedJob<DirectImportJobData>, log?: { error: (obj: object, msg: string) => void }): Promise<void> {
  const run = await claim(db, job);
  if (!run) return;
  importJobEvents.emit('changed', run.id);

  const abort = new AbortController();
  const lose = () => abort.abort(new RunLostError());
  const heartbeat = setInterval(() => {
    void ownedUpdate(db, run.id, {}).then((owned) => !owned && lose(), () => undefined);
  }, directImportTiming.heartbeatMs);
  const progress = progressWriter(db, run.id, lose);
  const seen: { last: DirectFetchProgress | null } = { last: null };
  /** The draft being filled, until the completed job owns it. */
  let draftId: string | null = null;

  try {
    let token: string;
    try {
      token = openSecret(run.connection.encrypted_token, config.secretsKey, DIRECT_TOKEN_CONTEXT);
    } catch {
      throw new ImportFailure(m.directTokenUnreadable, 'DIRECT_TOKEN_UNREADABLE');
    }
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (state: DirectFetchProgress) => {
      seen.last = state;
      progress.report(state);
    });
    draftId = await openDraft(db, { organizationId: run.organizationId, userId: run.userId }, 'direct_api', [], run.connection);
    let parsed: ParsedImport;
    try {
      const { client_login: clientLogin, sandbox } = run.connection;
      const baseUrl = sandbox ? config.yandexDirectSandboxApiUrl : config.yandexDirectApiUrl;
      parsed = await fillDraft(db, draftId, (rows) =>
        importPool().run<ParsedImport>(importModule, 'fetchDirectApiAccount', [{ token, clientLogin: clientLogin || undefined, sandbox, baseUrl }, port2, rows], {
          transferList: [port2, rows],
          signal: abort.signal,
          timeoutMs: READ_TIMEOUT_MS,
        }),
      );
    } finally {
      port1.close();
    }
    await progress.stop();
    if (abort.signal.aborted) return;
    if (!parsed.stored) throw new ImportFailure(m.directApiEmpty, 'IMPORT_EMPTY');

    const finalProgress = seen.last ? progressOf(seen.last.stages, seen.last.units) : progressOf([]);
    const filledDraft = draftId;
    let agencyTurn: Awaited<ReturnType<typeof completeAgencyClientImport>> = null;
    // The draft made ready and the completed job together, or neither: a job the recovery failed meanwhile keeps no draft.
    await db.transaction().execute(async (trx) => {
      const preview: ImportPreview = await finishDraft(trx, filledDraft, parsed, 'direct_api', [], 'yandex_direct');
      await trx.updateTable('import_drafts').set({ units_spent: finalProgress.units.spent }).where('id', '=', filledDraft).execute();
      // A client of an agency's many-clients import: the draft becomes the client's project here and now.
      agencyTurn = await completeAgencyClientImport(trx, run.id, filledDraft, finalProgress.units.spent);
      const completed = await trx
        .updateTable('import_jobs')
        .set({
          status: 'completed',
          progress: JSON.stringify({ ...finalProgress, stage: 'done', done: 0, total: null }),
          preview: JSON.stringify(preview),
          draft_id: agencyTurn ? null : preview.draft_id,
          // The draft keeps the sealed token for the project; the job needs it no more.
          connection: JSON.stringify(null),
          heartbeat_at: null,
          finished_at: sql`now()`,
        })
        .where('id', '=', run.id)
        .where('status', '=', 'running')
        .returning('id')
        .executeTakeFirst();
      if (!completed) throw new RunLostError();
      await notifyImportJob(trx, run.id);
    });
    draftId = null;
    importJobEvents.emit('changed', run.id);
  } catch (error) {
    if (error instanceof RunLostError || abort.signal.aborted) return;
    const failure = failureOf(error);
    if (!(error instanceof ImportFailure)) log?.error({ err: error, importJobId: run.id }, 'direct api import failed');
    await progress.stop();
    // Only the run that still owns the job may fail it (failImportJob changes unfinished jobs only).
    await failImportJob(db, run.id, failure.message, failure.code);
  } finally {
    if (draftId) await discardDraft(db, draftId).catch((error: unknown) => log?.error({ err: error, importJobId: run.id }, 'direct api import draft not discarded'));
    clearInterval(heartbeat);
    await progress.stop();
    importJobEvents.emit('ended', run.id);
  }
}

export const directImportJobWorker: JobWorker = {
  queue: DIRECT_IMPORT_QUEUE,
  start: async (queue, { db, config }) => {
    const log = { error: (obj: object, msg: string) => (config.logLevel === 'silent' ? undefined : console.error(msg, obj)) };
    // Jobs a dead process left behind are failed (with a message) before new work is taken.
    await recoverInterruptedImportJobs(db);
    // Two runs per process, like the analysis: each is a worker thread beside the API on shared cores.
    await queue.work<DirectImportJobData>(DIRECT_IMPORT_QUEUE, (job) => runDirectImportJob(db, config, job, log, queue), { concurrency: 2 });
  },
};

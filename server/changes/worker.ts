/**
 * The `changes.apply` job: applies a change set's pending items, or undoes the items its undo named, batch
 * by batch within the methods' limits. Before every write the batch's objects are read again, so a list
 * is merged with what it holds at that moment (nothing added on Yandex's side since the preview is lost),
 * and an undo sees whether the object still holds what we wrote. Each batch's outcomes (the item's status,
 * Yandex's error, the values replaced and written) and their journal rows are written in one transaction,
 * so no item is ever written to Direct and left unrecorded in between two of our rows.
 *
 * A retried job (the process died) picks up only what is still pending, or still applied for an undo.
 */
import { sql } from 'kysely';
import { directFieldLabels, shownDirectValue, type ChangeKind, type DirectValues, type PlannedChange } from '../../contract/changes.js';
import { changeMessages as m } from '../../contract/messages.js';
import type { DB } from '../db/database.js';
import type { DirectActionResult, DirectClient } from '../direct/api/client.js';
import { DirectApiError } from '../direct/api/errors.js';
import { batches, changedSince, KIND_API, limitProblem, mergeSites, touchedValues, valuesAfter, type ManualBids } from '../engines/changes/plan.js';
import type { QueuedJob } from '../jobs/queue.js';
import type { JobWorker } from '../jobs/workers.js';
import { HttpError } from '../lib/errors.js';
import { APPLY_CHANGES_QUEUE } from './lifecycle.js';
import { notFitted, projectDirectClient, type ApplyJobData, type DirectConfig } from './service.js';
import { errorText, readObjects, writeBatch } from './direct-io.js';
import { finish, recoverLostChangeSets } from './recovery.js';

interface ItemRow {
  id: string;
  kind: ChangeKind;
  object_id: string;
  change: PlannedChange;
  replaced: DirectValues | null;
  written: DirectValues | null;
}

/** One item's outcome, recorded with its journal row. */
interface Outcome {
  item: ItemRow;
  status: 'applied' | 'failed' | 'undone' | 'undo_refused' | 'undo_failed';
  outcome: 'done' | 'failed' | 'refused';
  replaced: DirectValues | null;
  written: DirectValues | null;
  message: string | null;
}

interface Run {
  db: DB;
  changeSetId: string;
  /** The pg-boss job this run is (null: a set enqueued before job ids were kept); a recovered set has none. */
  jobId: string | null;
  userId: string;
  action: 'apply' | 'undo';
  client: DirectClient;
}

/** Thrown when the set is no longer this job's (a recovery ended it, a newer job took it): the run stops without writing. */
class Superseded extends Error {}

/**
 * The job's heartbeat, written at its start and before every batch; false when the set is no longer this
 * job's, so a job thought lost that wakes up later never writes over what came after it.
 */
export async function heartbeat(db: DB, changeSetId: string, jobId: string | null): Promise<boolean> {
  let query = db.updateTable('change_sets').set({ heartbeat_at: sql`now()` }).where('id', '=', changeSetId).where('status', 'in', ['applying', 'undoing']);
  if (jobId) query = query.where((eb) => eb.or([eb('job_id', '=', jobId), eb('job_id', 'is', null)]));
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

async function record(run: Run, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await run.db.transaction().execute(async (trx) => {
    for (const o of outcomes) {
      const applying = run.action === 'apply';
      await trx
        .updateTable('change_items')
        .set({
          status: o.status,
          message: o.message,
          ...(applying && o.status === 'applied' ? { replaced: JSON.stringify(o.replaced), written: JSON.stringify(o.written), applied_at: sql`now()` } : {}),
          ...(o.status === 'undone' ? { undone_at: sql`now()` } : {}),
        })
        .where('id', '=', o.item.id)
        .execute();
    }
    await trx
      .insertInto('change_journal')
      .values(
        outcomes.map((o) => ({
          change_set_id: run.changeSetId,
          item_id: o.item.id,
          action: run.action,
          outcome: o.outcome,
          user_id: run.userId,
          replaced: o.replaced === null ? null : JSON.stringify(o.replaced),
          written: o.written === null ? null : JSON.stringify(o.written),
          message: o.message,
        })),
      )
      .execute();
  });
}

const warningsOf = (result: DirectActionResult | undefined) => (result?.Warnings ?? []).map((warning) => [warning.Message, warning.Details].filter(Boolean).join('. ')).join('; ') || null;

const failureMessage = (error: unknown) => m.batchFailed.replace('{reason}', error instanceof DirectApiError || error instanceof HttpError ? error.message : 'нет ответа');

/** Whether the bids an item writes are all on placements whose strategy is manual now (null: yes; else the strategy's words). */
function automaticNow(item: ItemRow, manual: ManualBids | undefined, write: DirectValues): string | null {
  if (item.kind !== 'keyword_bids') return null;
  const fields = Object.keys(write);
  const allowed = fields.every((field) => (field === 'SearchBid' ? manual?.search : field === 'NetworkBid' ? manual?.network : false));
  return allowed ? null : m.automaticStrategy.replace('{strategy}', manual?.strategy ?? 'автоматическая стратегия');
}

/** What one item writes now: its change over the current values (apply), or the values it replaced (undo); else its outcome. */
function prepare(run: Run, item: ItemRow, current: DirectValues | undefined, manual: ManualBids | undefined): { write: DirectValues; replaced: DirectValues; note?: string } | Outcome {
  const failed = run.action === 'apply' ? 'failed' : 'undo_failed';
  if (!current) return { item, status: failed, outcome: 'failed', replaced: null, written: null, message: m.objectGone };
  if (run.action === 'apply') {
    const after = valuesAfter(item.kind, current, item.change);
    const problem = limitProblem(item.kind, after);
    if (problem) return { item, status: 'failed', outcome: 'failed', replaced: null, written: null, message: m.overLimit.replace('{limit}', String(problem.limit)).replace('{length}', String(problem.length)) };
    // The strategy may have become automatic since the preview: then no bid is written.
    const automatic = automaticNow(item, manual, after);
    if (automatic) return { item, status: 'failed', outcome: 'failed', replaced: null, written: null, message: automatic };
    const left = item.kind === 'campaign_excluded_sites' ? mergeSites(Array.isArray(current.ExcludedSites) ? current.ExcludedSites : [], item.change.add ?? []).left : [];
    return { write: after, replaced: touchedValues(item.kind, current, item.change), ...(left.length > 0 ? { note: notFitted(left) } : {}) };
  }
  const now = touchedValues(item.kind, current, item.change);
  const changed = changedSince(item.written ?? {}, now, directFieldLabels, shownDirectValue);
  if (changed) return { item, status: 'undo_refused', outcome: 'refused', replaced: null, written: null, message: m.changedSince.replace('{what}', changed) };
  const automatic = automaticNow(item, manual, item.replaced ?? {});
  if (automatic) return { item, status: 'undo_failed', outcome: 'failed', replaced: null, written: null, message: automatic };
  return { write: item.replaced ?? {}, replaced: now };
}

/** One batch: read, decide, write, record. */
async function runBatch(run: Run, kind: ChangeKind, items: ItemRow[]): Promise<void> {
  const failed = run.action === 'apply' ? 'failed' : 'undo_failed';
  if (!(await heartbeat(run.db, run.changeSetId, run.jobId))) throw new Superseded();
  let current: Map<string, DirectValues>;
  let manual: Map<string, ManualBids>;
  try {
    ({ values: current, manual } = await readObjects(run.client, kind, items.map((item) => item.object_id)));
  } catch (error) {
    await record(run, items.map((item) => ({ item, status: failed, outcome: 'failed', replaced: null, written: null, message: failureMessage(error) })));
    if (error instanceof DirectApiError && error.category === 'auth') throw error;
    return;
  }
  const outcomes: Outcome[] = [];
  const writes: { item: ItemRow; write: DirectValues; replaced: DirectValues; note?: string }[] = [];
  for (const item of items) {
    const prepared = prepare(run, item, current.get(item.object_id), manual.get(item.object_id));
    if ('status' in prepared) outcomes.push(prepared);
    else writes.push({ item, ...prepared });
  }
  if (writes.length > 0) {
    try {
      const results = await writeBatch(run.client, kind, writes.map((w) => ({ id: w.item.object_id, values: w.write })));
      writes.forEach((w, i) => {
        const error = errorText(results[i]);
        if (error) outcomes.push({ item: w.item, status: failed, outcome: 'failed', replaced: null, written: null, message: error });
        else outcomes.push({ item: w.item, status: run.action === 'apply' ? 'applied' : 'undone', outcome: 'done', replaced: w.replaced, written: w.write, message: [w.note, warningsOf(results[i])].filter(Boolean).join('; ') || null });
      });
    } catch (error) {
      outcomes.push(...writes.map((w): Outcome => ({ item: w.item, status: failed, outcome: 'failed', replaced: null, written: null, message: failureMessage(error) })));
    }
  }
  await record(run, outcomes);
}

async function itemsToRun(db: DB, changeSetId: string, action: 'apply' | 'undo', itemIds?: string[]): Promise<ItemRow[]> {
  let query = db.selectFrom('change_items').select(['id', 'kind', 'object_id', 'change', 'replaced', 'written']).where('change_set_id', '=', changeSetId).orderBy('position');
  query = action === 'apply' ? query.where('status', '=', 'pending').where('selected', '=', true) : query.where('status', '=', 'applied').where('id', 'in', itemIds && itemIds.length > 0 ? itemIds : ['00000000-0000-0000-0000-000000000000']);
  return (await query.execute()).map((row) => ({ ...row, object_id: String(row.object_id) }));
}

export async function runApplyJob(db: DB, config: DirectConfig, job: QueuedJob<ApplyJobData>, log?: { error: (obj: object, msg: string) => void }): Promise<void> {
  const set = await db.selectFrom('change_sets').select(['id', 'organization_id', 'project_id', 'status', 'job_data', 'job_id']).where('id', '=', job.data.changeSetId).executeTakeFirst();
  if (!set || !set.job_data || (set.status !== 'applying' && set.status !== 'undoing')) return;
  // A set recovered from a lost job, or taken by a newer job, is not this job's any more.
  if (set.job_id !== null && set.job_id !== job.id) return;
  const { action, userId, itemIds } = set.job_data;
  let client: DirectClient | null = null;
  let error: string | null = null;
  try {
    if (!(await heartbeat(db, set.id, set.job_id))) return;
    client = await projectDirectClient(db, config, set.organization_id, set.project_id);
    const run: Run = { db, changeSetId: set.id, jobId: set.job_id, userId, action, client };
    const items = await itemsToRun(db, set.id, action, itemIds);
    for (const kind of new Set(items.map((item) => item.kind))) {
      for (const batch of batches(items.filter((item) => item.kind === kind), KIND_API[kind].perUpdate)) await runBatch(run, kind, batch);
    }
  } catch (failure) {
    if (failure instanceof Superseded) return;
    // The token or the account is gone, or our side failed: what is still pending stays pending (applying
    // again continues it), and the set is never left «applying» for ever.
    error = failure instanceof DirectApiError || failure instanceof HttpError ? failure.message : m.internalFailure;
    if (!(failure instanceof DirectApiError || failure instanceof HttpError)) log?.error({ err: failure, changeSetId: set.id }, 'change set job failed');
  }
  await finish(db, set.id, { action, userId, unitsSpent: client?.units.spent ?? 0, error });
}

export const applyChangesJobWorker: JobWorker = {
  queue: APPLY_CHANGES_QUEUE,
  start: async (queue, { db, config }) => {
    const log = { error: (obj: object, msg: string) => (config.logLevel === 'silent' ? undefined : console.error(msg, obj)) };
    // A worker starting after a crash ends the sets whose job died with the process.
    await recoverLostChangeSets(db).catch((error: unknown) => log.error({ err: error }, 'change set recovery failed'));
    await queue.work<ApplyJobData>(APPLY_CHANGES_QUEUE, (job) => runApplyJob(db, config, job, log), { concurrency: 1 });
  },
};

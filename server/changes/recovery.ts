/**
 * A change set whose apply (or undo) job is lost entirely (the process died and pg-boss has no live job for
 * it, or it ran past every expiry) would stay «Применяется» for ever. The job writes a heartbeat at its start
 * and before every batch (worker.ts); a set running without one for `CHANGE_SET_STALE_SECONDS` and with no
 * live pg-boss job, or without one for `CHANGE_SET_LOST_SECONDS` whatever pg-boss says, is ended here:
 * what was applied is already recorded batch by batch with its journal rows, the items not yet written keep
 * `pending` with a Russian note, and the set ends `failed` / `partly_applied` with the reason, so «Применить
 * оставшиеся» continues it (only pending items are written: nothing is written twice). A job thought lost
 * that wakes up later finds the set no longer its own and stops (worker.ts `heartbeat`).
 *
 * Run when a set is read, when the worker starts, and by a sweep every minute. Each end is a conditional
 * UPDATE from `applying`/`undoing`, so several processes at once end a set once. The clock is passed in.
 */
import { sql } from 'kysely';
import { changeMessages as m } from '../../contract/messages.js';
import type { DB } from '../db/database.js';
import { startSweep } from '../jobs/sweep.js';
import { APPLY_CHANGES_QUEUE, applyJobOptions, CHANGE_SETS_CHANNEL } from './lifecycle.js';

/** No heartbeat for this long and no live pg-boss job: the job is lost (a batch is one read and one write call). */
export const CHANGE_SET_STALE_SECONDS = 120;
/** Past two expiries of the job (its try and its one retry) and a margin, even a job pg-boss still calls active is dead. */
export const changeSetLostSeconds = () => 2 * applyJobOptions.expireInSeconds + 300;

/** Ends the sets whose job is lost; answers their ids. */
export async function recoverLostChangeSets(db: DB, options: { now?: Date; changeSetId?: string } = {}): Promise<string[]> {
  const now = options.now ?? new Date();
  const stale = new Date(now.getTime() - CHANGE_SET_STALE_SECONDS * 1000);
  const lost = new Date(now.getTime() - changeSetLostSeconds() * 1000);
  const queue = await sql<{ exists: boolean }>`SELECT to_regclass('pgboss.job') IS NOT NULL AS exists`.execute(db);
  const hasQueue = Boolean(queue.rows[0]?.exists);
  const rows = await sql<{ id: string }>`
    SELECT s.id
      FROM change_sets s
      ${hasQueue ? sql`LEFT JOIN pgboss.job j ON j.name = ${APPLY_CHANGES_QUEUE} AND j.id::text = s.job_id::text` : sql``}
     WHERE s.status IN ('applying', 'undoing')
       ${options.changeSetId ? sql`AND s.id = ${options.changeSetId}` : sql``}
       AND coalesce(s.heartbeat_at, s.updated_at) < ${stale}
       AND (${hasQueue ? sql`j.id IS NULL OR j.state IN ('completed', 'cancelled', 'failed') OR ` : sql``}coalesce(s.heartbeat_at, s.updated_at) < ${lost})`.execute(db);
  const ended: string[] = [];
  for (const row of rows.rows) if (await endLostSet(db, row.id)) ended.push(row.id);
  return ended;
}

async function endLostSet(db: DB, id: string): Promise<boolean> {
  const minutes = String(Math.round(CHANGE_SET_STALE_SECONDS / 60));
  const taken = await db.transaction().execute(async (trx) => {
    // The set is no longer any job's: one that wakes up later stops at its next heartbeat.
    const set = await trx
      .updateTable('change_sets')
      .set({ job_id: null, heartbeat_at: null, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('status', 'in', ['applying', 'undoing'])
      .returning(['status', 'job_data'])
      .executeTakeFirst();
    if (!set) return null;
    if (set.status === 'applying') {
      await trx.updateTable('change_items').set({ message: m.itemInterrupted }).where('change_set_id', '=', id).where('status', '=', 'pending').where('selected', '=', true).execute();
    }
    return set;
  });
  if (!taken) return false;
  const action = taken.status === 'applying' ? 'apply' : 'undo';
  await finish(db, id, { action, userId: taken.job_data?.userId ?? '', unitsSpent: 0, error: (action === 'apply' ? m.jobLost : m.undoLost).replace('{minutes}', minutes) });
  return true;
}

/** The recovery every minute while the process runs, so a lost set ends even when nobody looks at it. */
export function startChangeSetRecoverySweep(db: DB, options: { everyMs?: number; log?: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void } } = {}): () => void {
  const recover = async () => {
    const ended = await recoverLostChangeSets(db);
    if (ended.length > 0) options.log?.warn({ changeSetIds: ended }, 'change sets with a lost job ended');
  };
  return startSweep(recover, { everyMs: options.everyMs, onError: (error) => options.log?.error({ err: error }, 'change set recovery sweep failed') });
}

/** The set's status from its items (those kept in the preview) once the job is done, or once a lost job is recovered. */
export async function finish(db: DB, changeSetId: string, run: { action: 'apply' | 'undo'; userId: string; unitsSpent: number; error: string | null }): Promise<void> {
  const counts = await db
    .selectFrom('change_items')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .where('change_set_id', '=', changeSetId)
    .where('selected', '=', true)
    .groupBy('status')
    .execute();
  const count = (...statuses: string[]) => counts.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + row.n, 0);
  const succeeded = count('applied', 'undone', 'undo_refused', 'undo_failed');
  const status = succeeded === 0 ? 'failed' : count('failed', 'pending') > 0 ? 'partly_applied' : 'applied';
  await db
    .updateTable('change_sets')
    .set({
      status,
      error: run.error,
      job_data: null,
      heartbeat_at: null,
      units_spent: sql`units_spent + ${run.unitsSpent}`,
      updated_at: sql`now()`,
      ...(run.action === 'apply' && run.userId ? { applied_by: run.userId, applied_at: sql`now()` } : {}),
    })
    .where('id', '=', changeSetId)
    .execute();
  // Screens and tests waiting for the end hear it at once.
  await sql`SELECT pg_notify(${CHANGE_SETS_CHANNEL}, ${changeSetId})`.execute(db);
}


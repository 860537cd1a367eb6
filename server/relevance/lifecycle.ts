/**
 * States of a landing-page relevance run and the money that moves with them:
 *
 *   queued → running → completed
 *          ↘        ↘ failed | cancelled   (the debit is refunded once: ledger key `refund:<id>`)
 *
 * Every change is a conditional UPDATE from an unfinished state, so a cancel racing a failure, a
 * retried job, or start-up recovery can never refund twice or revive a finished run.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { relevanceMessages as m } from '../../src/contract/messages.js';
import type { DB } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { refundAnalysis } from '../analysis/lifecycle.js';

export const RELEVANCE_QUEUE = 'relevance.run';
/** Runs started for one analysis (first try plus pg-boss retries after a crash) before it fails for good. */
export const MAX_ATTEMPTS = 3;
/** A job still active after 15 minutes counts as dead and is re-delivered (the run starts over). */
export const relevanceJobOptions = { retryLimit: 2, expireInSeconds: 900 } as const;
/** A running analysis whose worker wrote nothing for this long is treated as interrupted. */
export const STALE_HEARTBEAT_SECONDS = 16 * 60;

export interface RelevanceJobData {
  analysisId: string;
}

type Executor = Kysely<Database> | Transaction<Database>;

/** Ends an unfinished run as failed or cancelled and refunds it; false when it had finished already. */
export async function finishUnsuccessfully(db: Executor, analysisId: string, status: 'failed' | 'cancelled', error: string | null): Promise<boolean> {
  if (!db.isTransaction) return (db as DB).transaction().execute((trx) => finishUnsuccessfully(trx, analysisId, status, error));
  const row = await db
    .updateTable('relevance_analyses')
    .set({ status, error, finished_at: sql`now()`, heartbeat_at: null })
    .where('id', '=', analysisId)
    .where('status', 'in', ['queued', 'running'])
    .returning(['id', 'created_by', 'organization_id', 'cost'])
    .executeTakeFirst();
  if (!row) return false;
  await refundAnalysis(db, row, status === 'cancelled' ? m.cancelRefundReason : m.refundReason);
  return true;
}

/**
 * Fails (and refunds) runs a dead process left behind: running with a heartbeat older than the job's
 * expiry, or out of attempts. Called when a worker process starts, and lazily when a client asks.
 */
export async function recoverInterruptedRelevance(db: DB, onlyId?: string): Promise<number> {
  let query = db
    .selectFrom('relevance_analyses')
    .select('id')
    .where('status', '=', 'running')
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${STALE_HEARTBEAT_SECONDS})`)]));
  if (onlyId) query = query.where('id', '=', onlyId);
  const stale = await query.execute();
  let recovered = 0;
  for (const { id } of stale) if (await finishUnsuccessfully(db, id, 'failed', m.interrupted)) recovered += 1;
  return recovered;
}

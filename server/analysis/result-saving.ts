/**
 * Saving a run's result rows, done by the engine thread itself (run-audit.ts): the batches it encodes
 * (result-rows.ts) are copied into PostgreSQL on connections of its own, each in a transaction of its
 * own, at background priority. The worker's event loop never holds the rows' bytes: handed over to it,
 * each batch was an ArrayBuffer to collect and a COPY's protocol work on the loop that answers the API,
 * and the API's p99 during a 100 000-keyword audit stalled in the saving (`npm run bench --
 * server-during-audit`; issue 26). The worker only completes the analysis afterwards (analysis/worker.ts).
 *
 * Why several connections: one connection is one PostgreSQL backend, one core. At 100 000 keywords
 * PostgreSQL spent 6.1 s of CPU on the rows (indexes, JSON validation, WAL) while the thread, encoding
 * them, spent 2.6 s: two connections share the copying between the cores (`npm run bench -- end-to-end`).
 *
 * What stays true:
 * - Nothing of a run is read before the analysis is completed: every reader of the rows (pages,
 *   decisions, export, AI plan) asks for a completed analysis. The rows commit here, in the thread, and
 *   the completion after them, in the worker: a completed analysis has every row.
 * - The rows commit only while the run owns the analysis (`status = 'running'` and its attempt, as
 *   every write of a run: runs/paid-run.ts). The first connection checks it and keeps the analysis row
 *   locked (FOR SHARE) until the last commit, so a cancel or a takeover by a new attempt either comes
 *   first (nothing commits) or waits until every row is in (then the new attempt clears them before it
 *   writes, `clearResultRows`, and a cancelled run's worker deletes them: `clearResultRows` with `ofAttempt`).
 * - A failure before the commits rolls back every connection: the thread's error, or its end (a cancel,
 *   the time limit, the heap limit terminate it), which closes its connections, and PostgreSQL rolls an
 *   open transaction back when its client is gone. Rows committed and not completed (the completion failed,
 *   the run was cancelled meanwhile, a crash between the commits) are deleted by the worker's failure path
 *   or by the next attempt before it writes; until then no reader sees them.
 * - Finding items reference their findings (a foreign key), which another transaction could not see
 *   before it commits: both tables are written on the first connection.
 *
 * Why not complete in the same transaction as the rows, as one connection could: the rows take two
 * connections, and PostgreSQL has no transaction over two connections short of PREPARE TRANSACTION,
 * which a default server refuses (max_prepared_transactions = 0); the worker's completion also stays
 * where every other write of a run is (ownership, notifications, refunds).
 */
import type pg from 'pg';
import { sql } from 'kysely';
import type { DB } from '../db/database.js';
import { connectThreadClient, type ThreadConnection } from '../db/thread-client.js';
import { resultTableColumns, type ResultRowBatch, type ResultTable } from './result-rows.js';
import { copyRowBatch } from './row-writer.js';

export const resultSaving = {
  /** Connections a saving copies on. */
  connections: 2,
  /**
   * How long a write may wait for a lock. A row whose key repeats one another connection copied (a bug
   * in a result) waits for that transaction to end, which only ends after every write: without a limit
   * the run would hang until its time limit instead of failing at once.
   */
  lockTimeoutMs: 30_000,
};

/** Where and for whom a run's rows are saved (plain data: it crosses into the engine thread). */
export interface ResultSavingTarget extends ThreadConnection {
  analysisId: string;
  /** The run's attempt (`analyses.attempts` as its claim set it): the rows commit only while it owns the analysis. */
  attempt: number;
}

/** The name the saving's backends show in pg_stat_activity. */
export const SAVING_APPLICATION_NAME = 'reklama-result-saving';

/** Written on the first connection only: the items' foreign key needs their findings in the same transaction. */
const firstConnectionTables = new Set<ResultTable>(['analysis_findings', 'analysis_finding_items']);

/**
 * Deletes every row of an analysis's result, left by an attempt that did not complete. With `ofAttempt`:
 * only while the analysis is still that attempt's and not completed (a COMMIT whose answer was lost may
 * have gone through), the analysis row locked meanwhile: rows of a newer attempt are that attempt's (it
 * cleared what it found before it wrote), and a claim waits until these are gone.
 */
export async function clearResultRows(db: DB, analysisId: string, { ofAttempt }: { ofAttempt?: number } = {}): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (ofAttempt !== undefined) {
      const row = await trx.selectFrom('analyses').select(['status', 'attempts']).where('id', '=', analysisId).forUpdate().executeTakeFirst();
      if (!row || row.status === 'completed' || row.attempts !== ofAttempt) return;
    }
    // Every table a result is written into (deleting a finding cascades to its items).
    for (const table of Object.keys(resultTableColumns) as ResultTable[]) await sql`DELETE FROM ${sql.table(table)} WHERE analysis_id = ${analysisId}`.execute(trx);
  });
}

interface Writer {
  client: pg.Client;
  /** The writes queued on this connection, one after another. */
  queue: Promise<void>;
  /** Characters of the batches queued and not yet written (a new batch goes to the least loaded writer). */
  pendingChars: number;
}

export interface ResultSaving {
  /** Writes one batch; batches of one table on one connection keep their order. Resolves once written. */
  write(batch: ResultRowBatch): Promise<void>;
  /**
   * Waits for every write and commits them all if the run still owns the analysis (true), else rolls
   * back (false). A failure between two commits leaves rows of the uncompleted analysis (see above).
   */
  commit(): Promise<boolean>;
  rollback(): Promise<void>;
}

export function openResultSaving(target: ResultSavingTarget, connections = resultSaving.connections): ResultSaving {
  const writers: Promise<Writer>[] = [];
  // Once ended, a late batch (still queued behind a failed one) must not open another transaction.
  let ended = false;
  // Every connection ended (committed or rolled back): a later rollback has nothing left to do.
  let closed = false;
  let lastChosen = -1;

  /** The writer at `index`, opened on first use (a small result never opens the second connection). */
  const writer = (index: number) => (writers[index] ??= openWriter(target));

  const pick = async (batch: ResultRowBatch): Promise<Writer> => {
    if (firstConnectionTables.has(batch.table) || connections === 1) return writer(0);
    const all = await Promise.all(Array.from({ length: connections }, (_, index) => writer(index)));
    // The least loaded; among equals, the one after the last chosen (so even a small result uses every connection).
    let chosen = -1;
    for (let step = 1; step <= connections; step++) {
      const index = (lastChosen + step) % connections;
      if (chosen === -1 || all[index]!.pendingChars < all[chosen]!.pendingChars) chosen = index;
    }
    lastChosen = chosen;
    return all[chosen]!;
  };

  const rollback = async () => {
    ended = true;
    if (closed) return;
    closed = true;
    await endAll('ROLLBACK', writers).catch(() => undefined);
  };

  return {
    async write(batch) {
      if (ended) throw new Error('The saving transaction has ended');
      if (batch.kind !== 'copy') throw new Error('A saving copies copy batches (arrays batches are the migration’s, row-writer.ts)');
      const target = await pick(batch);
      const chars = batch.chars + 1;
      target.pendingChars += chars;
      const written = target.queue.then(async () => {
        // Ended while this batch waited (a rollback): its COPY must not reach the connection after the ROLLBACK.
        if (ended) throw new Error('The saving transaction has ended');
        await copyRowBatch(target.client, batch);
      });
      target.queue = written.finally(() => (target.pendingChars -= chars)).catch(() => undefined);
      return written;
    },

    async commit() {
      if (writers.length === 0) {
        ended = closed = true;
        return true;
      }
      const [first, ...others] = writers;
      let owned: boolean;
      try {
        const main = await first!;
        // Every write has settled (a failed one rejected its caller, which rolls back instead).
        await Promise.all([main, ...(await Promise.all(others))].map((each) => each.queue));
        owned = await lockIfOwned(main.client, target);
      } catch (error) {
        await rollback();
        throw error;
      }
      if (!owned) {
        await rollback();
        return false;
      }
      ended = closed = true;
      // The others first, the first (holding the analysis row) last: no cancel or takeover between them.
      const pending = [...others, first!];
      try {
        while (pending.length > 0) {
          await endWriter(await pending[0]!, 'COMMIT');
          pending.shift();
        }
      } catch (error) {
        // The failed one closed its connection; the rest roll back. Rows already committed are the worker's to delete.
        pending.shift();
        await endAll('ROLLBACK', pending).catch(() => undefined);
        throw error;
      }
      return true;
    },

    rollback,
  };
}

/** True (the analysis row locked until this transaction ends) while the run owns the analysis. */
async function lockIfOwned(client: pg.Client, target: ResultSavingTarget): Promise<boolean> {
  const { rows } = await client.query(`SELECT 1 FROM analyses WHERE id = $1 AND status = 'running' AND attempts = $2 FOR SHARE`, [target.analysisId, target.attempt]);
  return rows.length > 0;
}

/**
 * A saving connection with its transaction begun: a client of its own, not one of the application's
 * pool (this runs in the engine thread), closed when the saving ends. The embedded PostgreSQL's backend
 * runs at background priority (lib/background-priority.ts): the COPYs of a big result kept both cores
 * busy and the API's one-row queries waited behind them. An external PostgreSQL's backends are not
 * processes of this machine.
 */
async function openWriter(target: ResultSavingTarget): Promise<Writer> {
  const client = await connectThreadClient(target, SAVING_APPLICATION_NAME);
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(resultSaving.lockTimeoutMs))}`);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return { client, queue: Promise.resolve(), pendingChars: 0 };
}

/** Commits or rolls back a writer's transaction and closes its connection. */
async function endWriter(writer: Writer, statement: 'COMMIT' | 'ROLLBACK'): Promise<void> {
  try {
    await writer.client.query(statement);
  } finally {
    await writer.client.end().catch(() => undefined);
  }
}

/** Ends every opened transaction (each, whatever the others do); a writer that never opened is left alone. */
async function endAll(statement: 'COMMIT' | 'ROLLBACK', which: Promise<Writer>[]): Promise<void> {
  const opened = await Promise.allSettled(which);
  let failure: { error: unknown } | null = null;
  for (const result of opened) {
    if (result.status !== 'fulfilled') continue;
    // Its last COPY may still be running (a failure elsewhere ended the saving): it goes first.
    await result.value.queue.catch(() => undefined);
    await endWriter(result.value, statement).catch((error: unknown) => (failure ??= { error }));
  }
  if (failure) throw (failure as { error: unknown }).error;
}

/** Batches written at once by `saveResultRows`: one copying on each connection, one waiting for each. */
export const SAVING_IN_FLIGHT = 4;

/**
 * Writes every batch of `batches` through a saving of its own (at most `inFlight` at once, the next
 * batch encoded while they copy) and commits; rolls back on any failure. `afterBatch` runs after each
 * batch is handed over (the engine thread samples its heap there). Answers the rows' count and whether
 * they were committed (false: the run no longer owns the analysis, nothing was stored).
 */
export async function saveResultRows(
  target: ResultSavingTarget,
  batches: Iterator<ResultRowBatch, number>,
  { inFlight = SAVING_IN_FLIGHT, afterBatch }: { inFlight?: number; afterBatch?: () => void } = {},
): Promise<{ rows: number; committed: boolean }> {
  const saving = openResultSaving(target);
  const writing = new Set<Promise<void>>();
  // The first failed write: the loop stops at its next batch.
  const state: { failure: { error: unknown } | null } = { failure: null };
  const failed = () => {
    if (state.failure) throw state.failure.error;
  };
  try {
    let next = batches.next();
    while (!next.done) {
      const written: Promise<void> = saving.write(next.value).then(
        () => void writing.delete(written),
        (error: unknown) => {
          state.failure ??= { error };
          writing.delete(written);
        },
      );
      writing.add(written);
      afterBatch?.();
      while (writing.size >= inFlight && !state.failure) await Promise.race(writing);
      failed();
      next = batches.next();
    }
    await Promise.all(writing);
    failed();
    return { rows: next.value, committed: await saving.commit() };
  } catch (error) {
    await saving.rollback();
    throw error;
  }
}

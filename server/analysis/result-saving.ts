/**
 * Saving a run's result rows: the batches the engine thread encodes (result-rows.ts) are copied into
 * PostgreSQL on several connections at once, each in a transaction of its own, and the completion of
 * the analysis commits last.
 *
 * Why several: one connection is one PostgreSQL backend, one core. At 100 000 keywords PostgreSQL spent
 * 6.1 s of CPU on the rows (indexes, JSON validation, WAL) while the engine thread, encoding them,
 * spent 2.6 s: one backend was the whole saving time and the other core was mostly idle. Two
 * connections share the copying between the cores (`npm run bench -- end-to-end`, README «Benchmarks»).
 *
 * What stays true with several transactions:
 * - Nothing of a run is read before the analysis is completed: every reader of the rows (pages,
 *   decisions, export, AI plan) asks for a completed analysis. The completion (`complete`) runs in the
 *   first connection's transaction, which commits after the others; if it finds the run no longer owned,
 *   every transaction rolls back.
 * - A failure before the commits rolls back every connection. Between the first commit and the last
 *   (a crash, a lost connection) rows of an uncompleted analysis can stay behind: the commit that fails
 *   deletes them, and a run clears whatever an earlier attempt left (`clearResultRows`) before it writes.
 * - Finding items reference their findings (a foreign key), which another transaction could not see
 *   before it commits: both tables are written on the first connection.
 */
import type pg from 'pg';
import { sql } from 'kysely';
import { isEmbedded, onConnection, poolOf, type DB } from '../db/database.js';
import { lowerPriorityOf } from '../lib/background-priority.js';
import { resultTableColumns, type ResultRowBatch, type ResultTable } from './result-rows.js';
import { copyRowBatch, insertRowBatch } from './row-writer.js';

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

/** Written on the first connection only: the items' foreign key needs their findings in the same transaction. */
const firstConnectionTables = new Set<ResultTable>(['analysis_findings', 'analysis_finding_items']);

/**
 * Deletes every row of an analysis's result, left by an attempt that did not complete. `unlessCompleted`:
 * not if the analysis is completed after all (a COMMIT whose answer was lost may still have gone through).
 */
export async function clearResultRows(db: DB, analysisId: string, { unlessCompleted = false } = {}): Promise<void> {
  if (unlessCompleted) {
    const row = await db.selectFrom('analyses').select('status').where('id', '=', analysisId).executeTakeFirst();
    if (row?.status === 'completed') return;
  }
  // Every table a result is written into (deleting a finding cascades to its items).
  for (const table of Object.keys(resultTableColumns) as ResultTable[]) await sql`DELETE FROM ${sql.table(table)} WHERE analysis_id = ${analysisId}`.execute(db);
}

interface Writer {
  client: pg.PoolClient;
  /** Its backend runs at background priority: the connection is closed at the end, never handed back to the pool. */
  lowered: boolean;
  trx: DB;
  /** The writes queued on this connection, one after another. */
  queue: Promise<void>;
  /** Characters of the batches queued and not yet written (a new batch goes to the least loaded writer). */
  pendingChars: number;
}

export interface ResultSaving {
  /** Writes one batch; batches of one table on one connection keep their order. Resolves once written. */
  write(batch: ResultRowBatch): Promise<void>;
  /** Waits for every write, runs `complete` on the first connection, commits all if it returns true, else rolls back. */
  commit(complete: (trx: DB) => Promise<boolean>): Promise<boolean>;
  rollback(): Promise<void>;
}

export function openResultSaving(db: DB, analysisId: string, connections = resultSaving.connections): ResultSaving {
  const writers: Promise<Writer>[] = [];
  // Once ended, a late batch (still queued behind a failed one) must not open another transaction.
  let ended = false;
  let lastChosen = -1;

  /** The writer at `index`, opened on first use (a small result never opens the second connection). */
  const writer = (index: number) => (writers[index] ??= openWriter(db));

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
    await endAll('ROLLBACK', writers).catch(() => undefined);
  };

  return {
    async write(batch) {
      if (ended) throw new Error('The saving transaction has ended');
      const target = await pick(batch);
      const chars = batch.chars + 1;
      target.pendingChars += chars;
      const written = target.queue.then(async () => {
        // Ended while this batch waited (a rollback): its COPY must not reach the connection after the ROLLBACK.
        if (ended) throw new Error('The saving transaction has ended');
        if (batch.kind === 'copy') await copyRowBatch(target.client, batch);
        else await insertRowBatch(target.trx, analysisId, batch);
      });
      target.queue = written.finally(() => (target.pendingChars -= chars)).catch(() => undefined);
      return written;
    },

    async commit(complete) {
      const [first, ...others] = writers.length > 0 ? writers : [writer(0)];
      let ok: boolean;
      try {
        const main = await first!;
        // Every write has settled (a failed one rejected its caller, which rolls back instead).
        await Promise.all([main, ...(await Promise.all(others))].map((each) => each.queue));
        ok = await complete(main.trx);
      } catch (error) {
        await rollback();
        throw error;
      }
      if (!ok) {
        await rollback();
        return false;
      }
      ended = true;
      // The others first: the completion commits last, so a completed analysis has every row.
      const pending = [...others, first!];
      try {
        while (pending.length > 0) {
          await endWriter(await pending[0]!, 'COMMIT');
          pending.shift();
        }
      } catch (error) {
        // The failed one released its connection; the rest roll back, and rows already committed go.
        pending.shift();
        await endAll('ROLLBACK', pending).catch(() => undefined);
        await clearResultRows(db, analysisId, { unlessCompleted: true }).catch(() => undefined);
        throw error;
      }
      return true;
    },

    rollback,
  };
}

/**
 * The embedded PostgreSQL's backend of a saving connection runs at background priority
 * (lib/background-priority.ts): the COPYs of a big result kept both cores busy and the API's one-row
 * queries waited behind them. An external PostgreSQL's backends are not processes of this machine.
 */
async function lowerBackendPriority(db: DB, client: pg.PoolClient): Promise<boolean> {
  if (!isEmbedded(db)) return false;
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return lowerPriorityOf(rows[0]!.pid);
}

/** A saving connection with its transaction begun. */
async function openWriter(db: DB): Promise<Writer> {
  const client = await poolOf(db).connect();
  let lowered = false;
  try {
    lowered = await lowerBackendPriority(db, client);
    await client.query('BEGIN');
    await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(resultSaving.lockTimeoutMs))}`);
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  return { client, lowered, trx: onConnection(client), queue: Promise.resolve(), pendingChars: 0 };
}

/** Commits or rolls back a writer's transaction and gives its connection back. */
async function endWriter(writer: Writer, statement: 'COMMIT' | 'ROLLBACK'): Promise<void> {
  try {
    await writer.client.query(statement);
    // A backend at background priority cannot be raised again without privileges: it ends with the saving.
    writer.client.release(writer.lowered);
  } catch (error) {
    // A connection that cannot end its transaction is not given back to the pool.
    writer.client.release(error as Error);
    throw error;
  }
}

/** Ends every opened transaction; a writer that never opened is left alone. */
async function endAll(statement: 'COMMIT' | 'ROLLBACK', which: Promise<Writer>[]): Promise<void> {
  const opened = await Promise.allSettled(which);
  for (const result of opened) {
    if (result.status !== 'fulfilled') continue;
    // Its last COPY may still be running (a failure elsewhere ended the saving): it goes first.
    await result.value.queue.catch(() => undefined);
    await endWriter(result.value, statement);
  }
}

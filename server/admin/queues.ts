/**
 * The job queues as pg-boss 10 keeps them: jobs per queue and state, read straight from its `pgboss`
 * schema (its API counts only jobs that wait, and only one queue at a time). Completed and failed jobs
 * stay in `pgboss.job` until pg-boss archives them (12 hours by default), so those two columns are
 * "recently". pg-boss's own housekeeping queues (`__pgboss__send-it` of its scheduler) are left out: nothing
 * an operator reads or acts on.
 */
import { sql } from 'kysely';
import type { AdminQueues } from '../../contract/admin.js';
import type { DB } from '../db/database.js';
import { iso } from '../lib/api-values.js';

/** The prefix of pg-boss's internal queues, as a LIKE pattern (its underscores escaped). */
const PG_BOSS_OWN_QUEUES = '\\_\\_pgboss\\_\\_%';

export async function queueCounts(db: DB): Promise<AdminQueues> {
  const exists = await sql<{ exists: boolean }>`SELECT to_regclass('pgboss.job') IS NOT NULL AND to_regclass('pgboss.queue') IS NOT NULL AS exists`.execute(db);
  if (!exists.rows[0]?.exists) return { queues: [], available: false };
  const rows = await sql<{ name: string; waiting: number; active: number; failed: number; completed: number; cancelled: number; oldest_waiting_at: Date | null }>`
    SELECT q.name,
           count(j.id) FILTER (WHERE j.state IN ('created', 'retry'))::int AS waiting,
           count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
           count(j.id) FILTER (WHERE j.state = 'failed')::int AS failed,
           count(j.id) FILTER (WHERE j.state = 'completed')::int AS completed,
           count(j.id) FILTER (WHERE j.state = 'cancelled')::int AS cancelled,
           min(j.created_on) FILTER (WHERE j.state IN ('created', 'retry')) AS oldest_waiting_at
      FROM pgboss.queue q
      LEFT JOIN pgboss.job j ON j.name = q.name
     WHERE q.name NOT LIKE ${PG_BOSS_OWN_QUEUES}
     GROUP BY q.name
     ORDER BY q.name`.execute(db);
  return { queues: rows.rows.map((row) => ({ ...row, oldest_waiting_at: iso(row.oldest_waiting_at) })), available: true };
}

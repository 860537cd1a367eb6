/**
 * The overview's charts: sign-ups, tokens credited and spent per day (UTC), and runs by kind and status.
 * Credited: every positive ledger entry except refunds and transfers between members (money moved, not added).
 */
import { sql } from 'kysely';
import type { AdminStats, RunKind, RunStatus } from '../../contract/admin.js';
import type { DB } from '../db/database.js';

export async function adminStats(db: DB, days: number): Promise<AdminStats> {
  // One row per day, the empty days too, so the charts have no gaps.
  const series = sql`generate_series((now() at time zone 'UTC')::date - ${days - 1}::int, (now() at time zone 'UTC')::date, interval '1 day') AS d(day)`;
  const since = sql`((now() at time zone 'UTC')::date - ${days - 1}::int) at time zone 'UTC'`;
  const [signups, tokens, runs] = await Promise.all([
    sql<{ date: string; count: number }>`
      SELECT to_char(d.day, 'YYYY-MM-DD') AS date, count(u.id)::int AS count
        FROM ${series}
        LEFT JOIN users u ON (u.created_at at time zone 'UTC')::date = d.day::date
       GROUP BY d.day ORDER BY d.day`.execute(db),
    sql<{ date: string; credited: number; spent: number }>`
      SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
             coalesce(sum(l.amount) FILTER (WHERE l.amount > 0 AND l.type::text <> 'analysis_refund' AND l.type::text NOT LIKE 'transfer%'), 0)::int AS credited,
             coalesce(-sum(l.amount) FILTER (WHERE l.type::text IN ('analysis_debit', 'analysis_refund')), 0)::int AS spent
        FROM ${series}
        LEFT JOIN token_ledger l ON l.created_at >= ${since} AND (l.created_at at time zone 'UTC')::date = d.day::date
       GROUP BY d.day ORDER BY d.day`.execute(db),
    sql<{ kind: RunKind; status: RunStatus; count: number }>`
      SELECT kind, status, count(*)::int AS count FROM (
        SELECT 'audit' AS kind, status::text AS status FROM analyses WHERE created_at >= ${since}
        UNION ALL SELECT 'page-check', status::text FROM page_checks WHERE created_at >= ${since}
        UNION ALL SELECT 'ai-plan', status::text FROM ai_plans WHERE created_at >= ${since}
      ) AS run GROUP BY kind, status ORDER BY kind, status`.execute(db),
  ]);
  return { days, signups: signups.rows, tokens: tokens.rows, runs: runs.rows };
}

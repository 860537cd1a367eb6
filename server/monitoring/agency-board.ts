/**
 * The agency board (issue 23): every live project of an organization with its last run, the money
 * figure and score of its last audits (the trend) and the findings new in the last audit. One query for
 * the whole organization, whatever its size: two lateral index reads per project (the last run, the last
 * audits) and the counts each audit recorded when it completed (audit_change_counts).
 */
import { sql } from 'kysely';
import { BOARD_TREND_AUDITS, type AgencyBoard, type BoardProject } from '../../contract/audit-changes.js';
import type { DB } from '../db/database.js';
import { moneyLostPerMonth } from '../analysis/money-sql.js';
import { recordAuditChanges } from './audit-changes.js';

/** Audits without recorded counts (stored before them) counted per visit at most: the rest on the next one. */
const BACKFILL_PER_VISIT = 20;

interface BoardRow {
  id: string;
  name: string;
  platform: BoardProject['platform'];
  run_id: string | null;
  run_status: NonNullable<BoardProject['last_run']>['status'] | null;
  run_created_at: Date | null;
  run_finished_at: Date | null;
  run_error: string | null;
  /** Newest first, as json_agg built it. */
  audits: { id: string; created_at: string; score: number | null; money_per_month: number | null }[] | null;
  new_count: number | null;
  new_money_per_month: number | null;
  next_run_at: Date | null;
}

const iso = (value: string | Date) => new Date(value).toISOString();

function boardProject(row: BoardRow): BoardProject {
  const audits = (row.audits ?? []).map((audit) => ({ ...audit, created_at: iso(audit.created_at) })).reverse();
  return {
    id: row.id,
    name: row.name,
    platform: row.platform,
    last_run:
      row.run_id && row.run_status && row.run_created_at
        ? { id: row.run_id, status: row.run_status, created_at: iso(row.run_created_at), finished_at: row.run_finished_at ? iso(row.run_finished_at) : null, error: row.run_error }
        : null,
    audits,
    new_findings: row.new_count,
    new_findings_money: row.new_money_per_month,
    next_run_at: row.next_run_at ? iso(row.next_run_at) : null,
  };
}

/** Counts the last audits that have a previous one and no counts yet (audits stored before migration 0135), in place. */
async function backfillCounts(db: DB, rows: BoardRow[]): Promise<void> {
  const missing = rows.filter((row) => (row.audits?.length ?? 0) >= 2 && row.new_count === null).slice(0, BACKFILL_PER_VISIT);
  for (const row of missing) {
    const counts = await recordAuditChanges(db, row.audits![0]!.id);
    if (counts) [row.new_count, row.new_money_per_month] = [counts.new_count, counts.new_money_per_month];
  }
}

export async function readAgencyBoard(db: DB, organizationId: string): Promise<AgencyBoard> {
  const rows = await sql<BoardRow>`
    SELECT p.id, p.name, p.platform,
           run.id AS run_id, run.status AS run_status, run.created_at AS run_created_at, run.finished_at AS run_finished_at, run.error AS run_error,
           audits.list AS audits, counts.new_count, counts.new_money_per_month, schedule.next_run_at
      FROM projects p
      LEFT JOIN project_schedules schedule ON schedule.project_id = p.id AND schedule.enabled
      LEFT JOIN LATERAL (
        SELECT a.id, a.status, a.created_at, a.finished_at, a.error FROM analyses a
         WHERE a.project_id = p.id ORDER BY a.created_at DESC LIMIT 1
      ) run ON true
      LEFT JOIN LATERAL (
        SELECT json_agg(json_build_object('id', last.id, 'created_at', last.created_at, 'score', last.score, 'money_per_month', last.money_per_month) ORDER BY last.created_at DESC) AS list
          FROM (SELECT a.id, a.created_at, a.score, ${moneyLostPerMonth('a.summary')} AS money_per_month FROM analyses a
                 WHERE a.project_id = p.id AND a.status = 'completed' ORDER BY a.created_at DESC LIMIT ${BOARD_TREND_AUDITS}) last
      ) audits ON true
      LEFT JOIN audit_change_counts counts ON counts.analysis_id = (audits.list -> 0 ->> 'id')::uuid
     WHERE p.organization_id = ${organizationId} AND p.deleted_at IS NULL
     ORDER BY p.name_key, p.id`.execute(db);
  await backfillCounts(db, rows.rows);
  return { projects: rows.rows.map(boardProject) };
}

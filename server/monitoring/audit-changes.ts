/**
 * What changed between two audits of a project (issue 23): the findings of both, read at the level the
 * checks report them (an aggregated «N фраз» is one row, never its items), compared by the diff engine
 * (server/engines/diff), plus the two money figures and scores. Used by the project page, the agency
 * board (through the counts each completed audit records) and the alerts.
 */
import { sql } from 'kysely';
import { auditChangesMessages as m, type AuditChanges, type AuditTrend, type ChangeStatus } from '../../contract/audit-changes.js';
import type { EntityRef } from '../../contract/analysis-results.js';
import type { DB } from '../db/database.js';
import { diffAudits, type DiffFinding, type FindingChange } from '../engines/diff/audit-diff.js';
import { entityNames } from '../analysis/entity-names.js';
import { expandInPlace } from '../analysis/entity-refs.js';
import { moneyLostPerMonth } from '../analysis/money-sql.js';
import { HttpError } from '../lib/errors.js';

export interface AuditChangesQuery {
  projectId: string;
  fromAnalysisId: string;
  toAnalysisId: string;
}

export type AuditChangesResult = Omit<AuditChanges, 'from' | 'to' | 'counts' | 'changes'> & { changes: FindingChange[]; counts: Record<ChangeStatus, number> };

interface AuditRow {
  id: string;
  score: number | null;
  money_per_month: number | null;
  created_at: Date;
}

const notInProject = () => new HttpError(404, 'ANALYSIS_NOT_FOUND', m.analysisNotInProject);

/** The completed audits of the project among `ids`, by id. */
async function completedAudits(db: DB, projectId: string, ids: string[]): Promise<Map<string, AuditRow>> {
  const rows = await db
    .selectFrom('analyses')
    .select(['id', 'score', 'created_at', moneyLostPerMonth('summary').as('money_per_month')])
    .where('project_id', '=', projectId)
    .where('status', '=', 'completed')
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The findings of one audit as the diff needs them. The document is read only for its target and title
 * (PostgreSQL takes them out of the stored JSON), and the compact refs are expanded with the audit's
 * campaign and group names, read once.
 */
async function diffFindingsOf(db: DB, analysisId: string): Promise<DiffFinding[]> {
  const [rows, names] = await Promise.all([
    sql<{ id: string; check_id: string; money_per_month: number; target: EntityRef; title: string }>`
      SELECT id, check_id, money_per_month, document -> 'target' AS target, document ->> 'title' AS title
        FROM analysis_findings WHERE analysis_id = ${analysisId}`.execute(db),
    entityNames(db, analysisId),
  ]);
  return rows.rows.map((row) => ({ id: row.id, checkId: row.check_id, title: row.title, target: expandInPlace({ target: row.target }, names).target, moneyPerMonth: row.money_per_month }));
}

export function countChanges(changes: readonly FindingChange[]): Record<ChangeStatus, number> {
  const counts: Record<ChangeStatus, number> = { new: 0, worse: 0, fixed: 0, better: 0, open: 0 };
  for (const change of changes) counts[change.status]++;
  return counts;
}

/** The changes between two completed audits of the project (404 if either is not one). */
export async function readAuditChanges(db: DB, { projectId, fromAnalysisId, toAnalysisId }: AuditChangesQuery): Promise<AuditChangesResult> {
  if (fromAnalysisId === toAnalysisId) throw new HttpError(422, 'SAME_ANALYSIS', m.sameAnalysis);
  const audits = await completedAudits(db, projectId, [fromAnalysisId, toAnalysisId]);
  const from = audits.get(fromAnalysisId);
  const to = audits.get(toAnalysisId);
  if (!from || !to) throw notInProject();
  const [before, after] = await Promise.all([diffFindingsOf(db, from.id), diffFindingsOf(db, to.id)]);
  const changes = diffAudits(before, after);
  return { changes, counts: countChanges(changes), moneyBefore: from.money_per_month, moneyAfter: to.money_per_month, scoreBefore: from.score, scoreAfter: to.score };
}

/** The project's completed audits, oldest first: id, date, score and money figure (the trend chart). */
export async function readAuditTrend(db: DB, projectId: string): Promise<AuditTrend> {
  const rows = await db
    .selectFrom('analyses')
    .select(['id', 'score', 'created_at', moneyLostPerMonth('summary').as('money_per_month')])
    .where('project_id', '=', projectId)
    .where('status', '=', 'completed')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return { audits: rows.map((row) => ({ id: row.id, created_at: row.created_at.toISOString(), score: row.score, money_per_month: row.money_per_month })) };
}

/** The two latest completed audits of the project, newest first (fewer if it has fewer). */
export async function latestAudits(db: DB, projectId: string): Promise<{ id: string; created_at: Date }[]> {
  return db
    .selectFrom('analyses')
    .select(['id', 'created_at'])
    .where('project_id', '=', projectId)
    .where('status', '=', 'completed')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(2)
    .execute();
}

/** The channel announcing an audit's recorded changes (payload: the analysis id), for whoever waits on them (alerts, tests). */
export const AUDIT_CHANGES_CHANNEL = 'audit_changes_recorded';

export interface RecordedChangeCounts {
  previous_analysis_id: string;
  new_count: number;
  fixed_count: number;
  worse_count: number;
  better_count: number;
  open_count: number;
  new_money_per_month: number;
}

/**
 * Records the changes of a completed audit against the project's audit before it (the board's «новых
 * находок») and announces them: nothing for a project's first audit. Idempotent (an upsert). Called when
 * an audit completes, and by the board for audits stored before the counts existed.
 */
export async function recordAuditChanges(db: DB, analysisId: string): Promise<RecordedChangeCounts | null> {
  const audit = await db.selectFrom('analyses').select(['project_id', 'created_at']).where('id', '=', analysisId).where('status', '=', 'completed').executeTakeFirst();
  if (!audit) return null;
  const previous = await db
    .selectFrom('analyses')
    .select('id')
    .where('project_id', '=', audit.project_id)
    .where('status', '=', 'completed')
    .where('created_at', '<', audit.created_at)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!previous) return null;
  const result = await readAuditChanges(db, { projectId: audit.project_id, fromAnalysisId: previous.id, toAnalysisId: analysisId });
  const counts: RecordedChangeCounts = {
    previous_analysis_id: previous.id,
    new_count: result.counts.new,
    fixed_count: result.counts.fixed,
    worse_count: result.counts.worse,
    better_count: result.counts.better,
    open_count: result.counts.open,
    new_money_per_month: Math.round(result.changes.reduce((sum, change) => sum + (change.status === 'new' ? change.moneyAfter : 0), 0) * 100) / 100,
  };
  const row = { ...counts, computed_at: new Date() };
  await db
    .insertInto('audit_change_counts')
    .values({ analysis_id: analysisId, ...row })
    .onConflict((oc) => oc.column('analysis_id').doUpdateSet(row))
    .execute();
  await sql`SELECT pg_notify(${AUDIT_CHANGES_CHANNEL}, ${analysisId})`.execute(db);
  return counts;
}

/**
 * What the worker calls when an audit completes: its changes, and those of a newer audit of the project
 * that completed first (started later, finished sooner), which were counted against an older one.
 */
export async function recordCompletedAudit(db: DB, analysisId: string): Promise<void> {
  await recordAuditChanges(db, analysisId);
  const newer = await db
    .selectFrom('analyses as a')
    .innerJoin('analyses as done', 'done.project_id', 'a.project_id')
    .select('done.id')
    .where('a.id', '=', analysisId)
    .where('done.status', '=', 'completed')
    .where('done.created_at', '>', sql<Date>`a.created_at`)
    .orderBy('done.created_at')
    .limit(1)
    .executeTakeFirst();
  if (newer) await recordAuditChanges(db, newer.id);
}

/**
 * Failed and stuck runs of the three paid kinds of work (audits, page checks, AI plans) for the
 * operator, with cancel (refunded) and retry. Cancelling and resuming go through the one paid-run
 * lifecycle (`server/runs`); a new run after a failure goes through the kind's own start, as its author's.
 */
import { sql } from 'kysely';
import { STUCK_AFTER_MINUTES, type AdminRun, type AdminRunPage, type RunKind } from '../../contract/admin.js';
import type { AnalysisOptions } from '../../contract/analysis.js';
import { adminMessages } from '../../contract/messages.js';
import { startAiPlan } from '../ai-plan/service.js';
import { startAnalysis } from '../analysis/service.js';
import type { Caller } from '../auth/authenticate.js';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import { fullName, iso } from '../lib/api-values.js';
import { conflict, HttpError, notFound } from '../lib/errors.js';
import { startPageCheck } from '../page-check/service.js';
import { cancelRunOf, resumeRunOf } from '../runs/kinds.js';
import { recordAdminAction } from './audit.js';

export interface RunDeps {
  db: DB;
  jobs: JobQueue | null;
  llm: AppConfig['llm'];
}

/** Starts the same work again as its author would, charged to them; returns the new run's id. */
const startAgain: Record<RunKind, (deps: RunDeps, author: Caller, runId: string, key: string) => Promise<string>> = {
  audit: async ({ db, jobs }, author, runId, key) => {
    const row = await db.selectFrom('analyses').select(['project_id', 'options']).where('id', '=', runId).executeTakeFirstOrThrow();
    const options = row.options as AnalysisOptions;
    try {
      const started = await startAnalysis(db, jobs, author, row.project_id, { campaign_ids: options.campaign_ids, settings: options.settings, idempotency_key: key });
      return started.analysis.id;
    } catch (error) {
      // The campaigns were re-imported or removed since: the same audit cannot run again.
      if (error instanceof HttpError && error.statusCode === 422) throw conflict(adminMessages.retryCampaignsGone, 'RETRY_NOT_POSSIBLE');
      throw error;
    }
  },
  'page-check': async ({ db, jobs }, author, runId, key) => {
    const row = await db.selectFrom('page_checks').select(['project_id', 'urls']).where('id', '=', runId).executeTakeFirstOrThrow();
    const started = await startPageCheck(db, jobs, author, row.project_id, { urls: row.urls, idempotency_key: key });
    return started.analysis.id;
  },
  'ai-plan': async ({ db, jobs, llm }, author, runId, key) => {
    const row = await db.selectFrom('ai_plans').select('analysis_id').where('id', '=', runId).executeTakeFirstOrThrow();
    const started = await startAiPlan(db, jobs, llm, author, row.analysis_id, { idempotency_key: key });
    return started.aiPlan.id;
  },
};

interface RunRow {
  kind: RunKind;
  id: string;
  status: AdminRun['status'];
  stuck: boolean;
  error: string | null;
  error_code: string | null;
  cost: number;
  created_at: Date;
  finished_at: Date | null;
  job_id: string | null;
  project_id: string | null;
  project_name: string | null;
  organization_id: string;
  organization_name: string;
  author_id: string | null;
  author_email: string | null;
  author_first: string | null;
  author_last: string | null;
  analysis_id: string | null;
}

/** Every run of the three kinds in one shape; `stuck`: unfinished with no sign of life for STUCK_AFTER_MINUTES. */
const allRuns = sql`
  WITH runs AS (
    SELECT 'audit' AS kind, a.id, a.status::text AS status, a.error, a.error_code, a.cost, a.created_at, a.finished_at, a.job_id,
           coalesce(a.heartbeat_at, a.started_at, a.created_at) AS alive_at, a.project_id, a.organization_id, a.created_by, NULL::uuid AS analysis_id
      FROM analyses a
    UNION ALL
    SELECT 'page-check', r.id, r.status::text, r.error, NULL, r.cost, r.created_at, r.finished_at, r.job_id,
           coalesce(r.heartbeat_at, r.started_at, r.created_at), r.project_id, r.organization_id, r.created_by, NULL::uuid
      FROM page_checks r
    UNION ALL
    SELECT 'ai-plan', p.id, p.status::text, p.error, NULL, p.cost, p.created_at, p.finished_at, p.job_id,
           coalesce(p.heartbeat_at, p.started_at, p.created_at), a.project_id, p.organization_id, p.created_by, p.analysis_id
      FROM ai_plans p JOIN analyses a ON a.id = p.analysis_id
  )
  SELECT runs.kind, runs.id, runs.status, runs.error, runs.error_code, runs.cost, runs.created_at, runs.finished_at, runs.job_id, runs.analysis_id,
         runs.status IN ('queued', 'running') AND runs.alive_at < now() - make_interval(mins => ${STUCK_AFTER_MINUTES}) AS stuck,
         pr.id AS project_id, pr.name AS project_name, o.id AS organization_id, o.name AS organization_name,
         u.id AS author_id, u.email AS author_email, u.first_name AS author_first, u.last_name AS author_last
    FROM runs
    JOIN organizations o ON o.id = runs.organization_id
    LEFT JOIN projects pr ON pr.id = runs.project_id
    LEFT JOIN users u ON u.id = runs.created_by`;

const toRun = (row: RunRow): AdminRun => ({
  kind: row.kind,
  id: row.id,
  status: row.status,
  stuck: row.stuck,
  error: row.error,
  error_code: row.error_code,
  cost: row.cost,
  created_at: iso(row.created_at),
  finished_at: iso(row.finished_at),
  project: row.project_id && row.project_name !== null ? { id: row.project_id, name: row.project_name } : null,
  organization: { id: row.organization_id, name: row.organization_name },
  author: row.author_id && row.author_email ? { id: row.author_id, email: row.author_email, full_name: fullName(row.author_first, row.author_last) || row.author_email } : null,
  analysis_id: row.analysis_id,
});

export async function listRuns(db: DB, options: { state: 'failed' | 'stuck'; page: number; pageSize: number }): Promise<AdminRunPage> {
  const where = options.state === 'failed' ? sql`status = 'failed'` : sql`stuck`;
  const order = options.state === 'failed' ? sql`finished_at DESC NULLS LAST, id` : sql`created_at, id`;
  const [rows, count] = await Promise.all([
    sql<RunRow>`SELECT * FROM (${allRuns}) AS run WHERE ${where} ORDER BY ${order} LIMIT ${options.pageSize} OFFSET ${(options.page - 1) * options.pageSize}`.execute(db),
    sql<{ total: number }>`SELECT count(*)::int AS total FROM (${allRuns}) AS run WHERE ${where}`.execute(db),
  ]);
  return { items: rows.rows.map(toRun), total: count.rows[0]?.total ?? 0, page: options.page, page_size: options.pageSize };
}

async function findRun(db: DB, kind: RunKind, id: string): Promise<RunRow> {
  const found = await sql<RunRow>`SELECT * FROM (${allRuns}) AS run WHERE kind = ${kind} AND id = ${id}::uuid`.execute(db);
  const row = found.rows[0];
  if (!row) throw notFound(adminMessages.runNotFound, 'RUN_NOT_FOUND');
  return row;
}

export async function getRun(db: DB, kind: RunKind, id: string): Promise<AdminRun> {
  return toRun(await findRun(db, kind, id));
}

/** Cancels a queued or running run of any organization and refunds its author (once, by the shared lifecycle). */
export async function cancelRun(deps: RunDeps, actorUserId: string, kind: RunKind, id: string): Promise<AdminRun> {
  const run = await findRun(deps.db, kind, id);
  // The cancel and its journal row commit together; the job is taken off the queue by the lifecycle.
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const result = await cancelRunOf(trx, deps.jobs, kind, id);
    if (result === 'cancelled') {
      await recordAdminAction(trx, {
        actorUserId,
        action: 'run.cancelled',
        targetUserId: run.author_id,
        organizationId: run.organization_id,
        details: { kind, run_id: id, status_before: run.status, refunded: run.cost },
      });
    }
    return result;
  });
  if (outcome !== 'cancelled') throw conflict(adminMessages.runNotCancellable, 'RUN_FINISHED');
  return getRun(deps.db, kind, id);
}

/**
 * Runs a stuck, failed or cancelled run again. A stuck one is resumed: the same run starts over on a new
 * job, charged nothing more (when it has attempts left; otherwise it is cancelled, refunded, and started
 * anew like a failed one). A failed or cancelled one (already refunded) starts as a new run of its
 * author, charged to their balance like their own start; its idempotency key is derived from the old run,
 * so a double click starts one new run.
 */
export async function retryRun(deps: RunDeps, actorUserId: string, kind: RunKind, id: string): Promise<{ retried_from: string; run: AdminRun }> {
  if (!deps.jobs) throw new HttpError(503, 'JOBS_UNAVAILABLE', adminMessages.jobsUnavailable);
  let run = await findRun(deps.db, kind, id);
  if (run.stuck) {
    if (await resumeRunOf(deps.db, deps.jobs, kind, id)) {
      await recordAdminAction(deps.db, {
        actorUserId,
        action: 'run.retried',
        targetUserId: run.author_id,
        organizationId: run.organization_id,
        details: { kind, run_id: id, resumed: true },
      });
      return { retried_from: id, run: await getRun(deps.db, kind, id) };
    }
    await cancelRun(deps, actorUserId, kind, id).catch((error: unknown) => {
      // It finished meanwhile: retried (or not) by its final status below.
      if (!(error instanceof HttpError && error.statusCode === 409)) throw error;
    });
    run = await findRun(deps.db, kind, id);
  }
  if (run.status !== 'failed' && run.status !== 'cancelled') throw conflict(adminMessages.runNotRetryable, 'RUN_NOT_RETRYABLE');
  const author = run.author_id ? await authorAsCaller(deps.db, run.author_id, run.organization_id) : null;
  if (!author) throw conflict(adminMessages.retryAuthorGone, 'RETRY_NOT_POSSIBLE');
  const newId = await startAgain[kind](deps, author, id, `admin-retry:${id}`);
  const fresh = await getRun(deps.db, kind, newId);
  await recordAdminAction(deps.db, {
    actorUserId,
    action: 'run.retried',
    targetUserId: run.author_id,
    organizationId: run.organization_id,
    details: { kind, run_id: id, new_run_id: newId, cost: fresh.cost },
  });
  return { retried_from: id, run: fresh };
}

/** The author of a run as the kind's start function expects its caller: still a member of its organization. */
async function authorAsCaller(db: DB, userId: string, organizationId: string): Promise<Caller | null> {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('memberships as m', 'm.user_id', 'u.id')
    .select(['u.id', 'u.email', 'u.role', 'u.is_verified', 'm.role as organization_role'])
    .where('u.id', '=', userId)
    .where('m.organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!row) return null;
  return { userId: row.id, organizationId, organizationRole: row.organization_role, role: row.role, isVerified: row.is_verified, email: row.email };
}

/**
 * AI plans on the database. Every read and write is scoped to the caller's organization: a plan (or
 * an audit) of another organization is "not found". A plan belongs to a completed audit of the same
 * organization; starting one debits the pricing table's `aiPlan` and enqueues the run in one transaction.
 */
import type { AiPlan, AiPlanOverview, StartAiPlanRequest } from '../../contract/ai-plan.js';
import { aiPlanMessages as m } from '../../contract/messages.js';
import { findAnalysisRow } from '../analysis/service.js';
import type { Caller } from '../auth/authenticate.js';
import type { LlmConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import { conflict, HttpError, notFound } from '../lib/errors.js';
import { requestFingerprint } from '../lib/idempotency.js';
import { getBalance } from '../tokens/ledger.js';
import { priceAiPlan } from '../tokens/pricing.js';
import { recoverRuns, startPaidRun } from '../runs/paid-run.js';
import { aiPlanJobOptions, aiPlanRun } from './lifecycle.js';
import { fullName, iso } from '../lib/api-values.js';

export const aiPlanNotFound = () => notFound(m.planNotFound, 'AI_PLAN_NOT_FOUND');
export const llmNotConfigured = () => new HttpError(503, 'LLM_NOT_CONFIGURED', m.notConfigured);

/** How many of an audit's plans the overview lists. */
const OVERVIEW_ITEMS = 20;


/** Plans of the organization whose project is still there (a deleted project hides its audits and plans). */
function selectPlans(db: DB, organizationId: string) {
  return db
    .selectFrom('ai_plans as p')
    .innerJoin('analyses as a', 'a.id', 'p.analysis_id')
    .innerJoin('projects as pr', 'pr.id', 'a.project_id')
    .leftJoin('users as u', 'u.id', 'p.created_by')
    .where('p.organization_id', '=', organizationId)
    .where('pr.deleted_at', 'is', null)
    .select([
      'p.id',
      'p.analysis_id',
      'a.project_id',
      'p.status',
      'p.model',
      'p.prompt_chars',
      'p.cost',
      'p.prompt_tokens',
      'p.completion_tokens',
      'p.total_tokens',
      'p.error',
      'p.plan',
      'p.created_by',
      'u.first_name',
      'u.last_name',
      'p.created_at',
      'p.started_at',
      'p.finished_at',
    ]);
}

type PlanRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectPlans>['executeTakeFirst']>>>;

function toApi(row: PlanRow): AiPlan {
  const answered = row.prompt_tokens !== null || row.completion_tokens !== null || row.total_tokens !== null;
  return {
    id: row.id,
    analysis_id: row.analysis_id,
    project_id: row.project_id,
    status: row.status,
    model: row.model,
    prompt_chars: row.prompt_chars,
    cost: row.cost,
    usage: answered ? { prompt_tokens: row.prompt_tokens, completion_tokens: row.completion_tokens, total_tokens: row.total_tokens } : null,
    error: row.error,
    plan: row.plan,
    author: row.created_by ? { id: row.created_by, full_name: fullName(row.first_name, row.last_name) } : null,
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

async function findPlanRow(db: DB, organizationId: string, id: string): Promise<PlanRow> {
  const row = await selectPlans(db, organizationId).where('p.id', '=', id).executeTakeFirst();
  if (!row) throw aiPlanNotFound();
  return row;
}

export async function getAiPlan(db: DB, llm: LlmConfig | null, caller: Caller, id: string): Promise<AiPlan> {
  const row = await findPlanRow(db, caller.organizationId, id);
  // A run whose worker died long ago (or whose job was lost) is failed and refunded when someone looks at it.
  if ((row.status === 'running' || row.status === 'queued') && (await recoverRuns(db, aiPlanRun, { onlyId: id })).failed.length > 0) return toApi(await findPlanRow(db, caller.organizationId, id));
  return toApi(row);
}

/** Whether a plan can be asked for, its price, the caller's balance and the audit's plans, newest first. */
export async function aiPlanOverview(db: DB, llm: LlmConfig | null, jobs: JobQueue | null, caller: Caller, analysisId: string): Promise<AiPlanOverview> {
  await findAnalysisRow(db, caller.organizationId, analysisId);
  const rows = await selectPlans(db, caller.organizationId).where('p.analysis_id', '=', analysisId).orderBy('p.created_at', 'desc').orderBy('p.id').limit(OVERVIEW_ITEMS).execute();
  const unavailable = !llm ? m.notConfigured : !jobs ? m.queueUnavailable : null;
  return {
    available: unavailable === null,
    unavailable_reason: unavailable,
    price: priceAiPlan(),
    balance: await getBalance(db, caller.userId),
    items: rows.map((row) => ({ id: row.id, status: row.status, model: row.model, cost: row.cost, error: row.error, created_at: iso(row.created_at)!, finished_at: iso(row.finished_at) })),
  };
}

/**
 * Starts a plan: in ONE transaction the row, the debit and the job (server/runs/paid-run.ts); a repeated
 * idempotency key returns the first plan and charges nothing. 503 when no model is configured.
 */
export async function startAiPlan(
  db: DB,
  jobs: JobQueue | null,
  llm: LlmConfig | null,
  caller: Caller,
  analysisId: string,
  body: StartAiPlanRequest,
): Promise<{ aiPlan: AiPlan; created: boolean }> {
  if (!llm) throw llmNotConfigured();
  const analysis = await findAnalysisRow(db, caller.organizationId, analysisId);
  const started = await startPaidRun(db, jobs, aiPlanRun, {
    caller,
    key: body.idempotency_key.trim(),
    // An AI plan's request is its audit: the body carries nothing but the key.
    requestHash: requestFingerprint({ analysis_id: analysisId }),
    target: { analysis_id: analysisId },
    expectedCost: body.expected_cost,
    jobOptions: aiPlanJobOptions(llm),
    prepare: async (trx) => {
      if (analysis.status !== 'completed') throw conflict(m.analysisNotCompleted, 'ANALYSIS_NOT_COMPLETED');
      const project = await trx.selectFrom('projects').select('name').where('id', '=', analysis.project_id).executeTakeFirstOrThrow();
      return { values: { model: llm.model }, cost: priceAiPlan(), debitReason: m.debitReason.replace('{project}', project.name) };
    },
  });
  return { aiPlan: toApi(await findPlanRow(db, caller.organizationId, started.id)), created: started.created };
}

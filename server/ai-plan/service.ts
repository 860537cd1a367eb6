/**
 * AI plans on the database. Every read and write is scoped to the caller's organization: a plan (or
 * an audit) of another organization is "not found". A plan belongs to a completed audit of the same
 * organization; starting one debits the pricing table's `aiPlan` and enqueues the run in one transaction.
 */
import type { AiPlan, AiPlanOverview, StartAiPlanRequest } from '../../src/contract/ai-plan.js';
import { aiPlanMessages as m, apiMessages } from '../../src/contract/messages.js';
import { findAnalysisRow } from '../analysis/service.js';
import type { Caller } from '../auth/authenticate.js';
import type { LlmConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import { conflict, HttpError, notFound } from '../lib/errors.js';
import { requestFingerprint, requireSameRequest } from '../lib/idempotency.js';
import { applyLedgerEntry, getBalance } from '../tokens/ledger.js';
import { priceAiPlan } from '../tokens/pricing.js';
import { AI_PLAN_QUEUE, aiPlanJobOptions, notifyAiPlan, recoverInterruptedAiPlans, type AiPlanJobData } from './lifecycle.js';
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
  if ((row.status === 'running' || row.status === 'queued') && (await recoverInterruptedAiPlans(db, llm, id)) > 0) return toApi(await findPlanRow(db, caller.organizationId, id));
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

/** An AI plan's request is its audit: the body carries nothing but the key. */
const aiPlanRequestHash = (analysisId: string) => requestFingerprint({ analysis_id: analysisId });

async function findByKey(db: DB, caller: Caller, key: string) {
  return db.selectFrom('ai_plans').select(['id', 'analysis_id', 'organization_id', 'request_hash']).where('created_by', '=', caller.userId).where('idempotency_key', '=', key).executeTakeFirst();
}

async function reuse(db: DB, caller: Caller, existing: { id: string; analysis_id: string; organization_id: string; request_hash: string | null }, analysisId: string): Promise<AiPlan> {
  if (existing.analysis_id !== analysisId || existing.organization_id !== caller.organizationId) throw conflict(m.idempotencyKeyReused, 'IDEMPOTENCY_KEY_REUSED');
  requireSameRequest(existing.request_hash, aiPlanRequestHash(analysisId));
  return toApi(await findPlanRow(db, caller.organizationId, existing.id));
}

/**
 * Starts a plan: in ONE transaction the row is inserted (a repeated idempotency key returns the first
 * plan and charges nothing), the price is debited through the ledger, and the job is enqueued, so there
 * is never a charge without a job or a job without a charge. 503 when no model is configured.
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
  if (!jobs) throw new HttpError(503, 'QUEUE_UNAVAILABLE', m.queueUnavailable);
  const analysis = await findAnalysisRow(db, caller.organizationId, analysisId);
  const key = body.idempotency_key.trim();
  const existing = await findByKey(db, caller, key);
  if (existing) return { aiPlan: await reuse(db, caller, existing, analysisId), created: false };
  if (analysis.status !== 'completed') throw conflict(m.analysisNotCompleted, 'ANALYSIS_NOT_COMPLETED');

  const cost = priceAiPlan();
  const project = await db.selectFrom('projects').select('name').where('id', '=', analysis.project_id).executeTakeFirstOrThrow();
  const id = await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('ai_plans')
      .values({ organization_id: caller.organizationId, analysis_id: analysisId, created_by: caller.userId, model: llm.model, cost, idempotency_key: key, request_hash: aiPlanRequestHash(analysisId) })
      .onConflict((oc) => oc.columns(['created_by', 'idempotency_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    // The same key sent twice at once: the other request won, this one answers with its plan.
    if (!inserted) return null;
    if (cost > 0) {
      try {
        await applyLedgerEntry(trx, {
          userId: caller.userId,
          organizationId: caller.organizationId,
          type: 'analysis_debit',
          amount: -cost,
          idempotencyKey: `ai-plan:${key}`,
          referenceId: inserted.id,
          reason: m.debitReason.replace('{project}', project.name),
          createdBy: caller.userId,
        });
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 402) {
          const balance = await getBalance(trx, caller.userId);
          throw new HttpError(402, 'INSUFFICIENT_TOKENS', apiMessages.insufficientTokens, [
            { loc: ['body'], msg: m.insufficientTokensDetail.replace('{required}', String(cost)).replace('{balance}', String(balance)) },
          ]);
        }
        throw error;
      }
    }
    const jobId = await jobs.send(AI_PLAN_QUEUE, { aiPlanId: inserted.id } satisfies AiPlanJobData, { transaction: trx, ...aiPlanJobOptions(llm) });
    await trx.updateTable('ai_plans').set({ job_id: jobId }).where('id', '=', inserted.id).execute();
    await notifyAiPlan(trx, inserted.id);
    return inserted.id;
  });
  if (!id) {
    const raced = await findByKey(db, caller, key);
    if (!raced) throw new Error('idempotent start: the conflicting AI plan vanished');
    return { aiPlan: await reuse(db, caller, raced, analysisId), created: false };
  }
  return { aiPlan: toApi(await findPlanRow(db, caller.organizationId, id)), created: true };
}


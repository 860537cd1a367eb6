/**
 * States of an AI plan and the money that moves with them:
 *
 *   queued → running → completed
 *          ↘        ↘ failed   (the debit is refunded once, by the analyses' own refund: ledger key `refund:<id>`)
 *
 * Every change is a conditional UPDATE from an unfinished state, so a retried job, start-up recovery and
 * the run itself can never refund twice or revive a finished plan. Each change also sends
 * `NOTIFY ai_plan_progress, '<id>'` (delivered at commit) for whoever waits on it.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { aiPlanMessages as m } from '../../src/contract/messages.js';
import { refundAnalysis } from '../analysis/lifecycle.js';
import type { LlmConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { Database } from '../db/schema.js';

export const AI_PLAN_QUEUE = 'ai-plan.run';
export const AI_PLAN_CHANNEL = 'ai_plan_progress';
/** Runs started for one plan (first try plus one pg-boss retry after a crash) before it fails for good. */
export const MAX_ATTEMPTS = 2;

export interface AiPlanJobData {
  aiPlanId: string;
}

type Executor = Kysely<Database> | Transaction<Database>;

/** A run still "running" this long after its claim outlived the model's timeout: its worker died. */
export const staleAfterSeconds = (llm: Pick<LlmConfig, 'timeoutMs'>) => Math.ceil(llm.timeoutMs / 1000) + 120;

/** pg-boss options of a run: a job active longer than one model call (plus a margin) is retried once. */
export const aiPlanJobOptions = (llm: Pick<LlmConfig, 'timeoutMs'>) => ({ retryLimit: 1, expireInSeconds: Math.ceil(llm.timeoutMs / 1000) + 60 });

export async function notifyAiPlan(db: Executor, aiPlanId: string): Promise<void> {
  await sql`SELECT pg_notify(${AI_PLAN_CHANNEL}, ${aiPlanId})`.execute(db);
}

/**
 * Fails an unfinished plan with `reason` and refunds it; false (nothing changed) when it had finished.
 * The stored error says the tokens went back when there were any.
 */
export async function failAiPlan(db: Executor, aiPlanId: string, reason: string): Promise<boolean> {
  if (!db.isTransaction) return (db as DB).transaction().execute((trx) => failAiPlan(trx, aiPlanId, reason));
  const row = await db
    .updateTable('ai_plans')
    .set({ status: 'failed', error: reason, finished_at: sql`now()`, heartbeat_at: null })
    .where('id', '=', aiPlanId)
    .where('status', 'in', ['queued', 'running'])
    .returning(['id', 'created_by', 'organization_id', 'cost'])
    .executeTakeFirst();
  if (!row) return false;
  if (row.cost > 0 && row.created_by) {
    await refundAnalysis(db, row);
    await db.updateTable('ai_plans').set({ error: `${reason}. ${m.refundNote}` }).where('id', '=', aiPlanId).execute();
  }
  await notifyAiPlan(db, aiPlanId);
  return true;
}

/**
 * Fails (and refunds) runs a dead process left behind: claimed longer ago than a model call can take.
 * Called when a worker starts, and for one plan when a client looks at it.
 */
export async function recoverInterruptedAiPlans(db: DB, llm: Pick<LlmConfig, 'timeoutMs'> | null, onlyId?: string): Promise<number> {
  const seconds = staleAfterSeconds(llm ?? { timeoutMs: 120_000 });
  let query = db
    .selectFrom('ai_plans')
    .select('id')
    .where('status', '=', 'running')
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${seconds})`)]));
  if (onlyId) query = query.where('id', '=', onlyId);
  let recovered = 0;
  for (const { id } of await query.execute()) if (await failAiPlan(db, id, m.interrupted)) recovered += 1;
  return recovered;
}

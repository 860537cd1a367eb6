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
 * Plans that can no longer finish: claimed longer ago than a model call can take (the worker died), or
 * still waiting for a job pg-boss no longer holds or has given up on (so no worker will ever take them).
 */
async function interruptedAiPlans(db: DB, staleSeconds: number, onlyId?: string): Promise<string[]> {
  const queue = await sql<{ exists: boolean }>`SELECT to_regclass('pgboss.job') IS NOT NULL AS exists`.execute(db);
  const jobGone = queue.rows[0]?.exists
    ? sql`NOT EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = ${AI_PLAN_QUEUE} AND j.id::text = p.job_id AND j.state NOT IN ('completed', 'failed', 'cancelled'))`
    : sql`false`;
  const rows = await sql<{ id: string }>`
    SELECT p.id FROM ai_plans p
     WHERE (${onlyId ?? null}::uuid IS NULL OR p.id = ${onlyId ?? null}::uuid)
       AND ((p.status = 'running' AND (p.heartbeat_at IS NULL OR p.heartbeat_at < now() - make_interval(secs => ${staleSeconds})))
            OR (p.status = 'queued' AND ${jobGone}))`.execute(db);
  return rows.rows.map((row) => row.id);
}

/**
 * Fails (and refunds) plans a dead process or a lost job left behind. Called when a worker starts, and
 * for one plan when a client looks at it. Safe to race with the run itself: failing is conditional.
 */
export async function recoverInterruptedAiPlans(db: DB, llm: Pick<LlmConfig, 'timeoutMs'> | null, onlyId?: string): Promise<number> {
  const seconds = staleAfterSeconds(llm ?? { timeoutMs: 120_000 });
  let recovered = 0;
  for (const id of await interruptedAiPlans(db, seconds, onlyId)) if (await failAiPlan(db, id, m.interrupted)) recovered += 1;
  return recovered;
}

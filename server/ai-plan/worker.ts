/**
 * The `ai-plan.run` job: claims the plan, reads the audit (only what the prompt can use, cut in
 * PostgreSQL), builds the prompt, asks the model once, validates the answer and stores the plan. Every
 * write after the claim is conditional on `status = 'running' AND attempts = <this attempt>`, so a
 * retry that took the run over is never overwritten. Any failure ends the plan as failed, refunded,
 * with a Russian message saying what went wrong.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { AnalysisDecisions, AuditResult } from '../../src/contract/analysis.js';
import { aiPlanMessages as m } from '../../src/contract/messages.js';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { QueuedJob } from '../jobs/queue.js';
import type { JobWorker } from '../jobs/workers.js';
import { parsePlanAnswer } from './answer.js';
import { AI_PLAN_QUEUE, failAiPlan, MAX_ATTEMPTS, notifyAiPlan, recoverInterruptedAiPlans, type AiPlanJobData } from './lifecycle.js';
import { buildAiPlanPrompt, defaultPromptLimits, PROMPT_FINDINGS_PREFETCH, type PromptInput } from './prompt.js';
import { LlmError, requestChatCompletion } from './provider.js';

/** Emits `'ended'` with the plan id when a run of this process is over, whatever it did (tests wait on it). */
export const aiPlanRuns = new EventEmitter();

interface Claimed {
  id: string;
  analysisId: string;
  attempt: number;
}

async function claim(db: DB, job: QueuedJob<AiPlanJobData>): Promise<Claimed | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('ai_plans').select(['id', 'analysis_id', 'status', 'job_id', 'attempts']).where('id', '=', job.data.aiPlanId).forUpdate().executeTakeFirst();
    if (!row || (row.status !== 'queued' && row.status !== 'running') || (row.job_id !== null && row.job_id !== job.id)) return null;
    if (row.attempts >= MAX_ATTEMPTS) {
      await failAiPlan(trx, row.id, m.interrupted);
      return null;
    }
    const attempt = row.attempts + 1;
    await trx
      .updateTable('ai_plans')
      .set({ status: 'running', attempts: attempt, started_at: sql`coalesce(started_at, now())`, heartbeat_at: sql`now()` })
      .where('id', '=', row.id)
      .execute();
    await notifyAiPlan(trx, row.id);
    return { id: row.id, analysisId: row.analysis_id, attempt };
  });
}

/** Same order as `rankFindings`, so the findings kept here are the prompt's top ones. */
const findingOrder = sql.raw(`CASE WHEN (f ->> 'moneyPerMonth')::float8 > 0 THEN (f ->> 'moneyPerMonth')::float8 ELSE 0 END DESC,
  CASE f ->> 'severity' WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END,
  coalesce((f ->> 'weight')::float8, 0) DESC,
  f ->> 'id' COLLATE "C"`);

/** Suggestions of `path` the user accepted (the prompt lists what is already decided). */
const acceptedOf = (path: string) =>
  sql.raw(`coalesce((SELECT jsonb_agg(s) FROM jsonb_array_elements(coalesce(a.result #> '{${path}}', '[]'::jsonb)) s WHERE (a.decisions -> 'accepted') @> to_jsonb(s ->> 'id')), '[]'::jsonb)`);

/**
 * The negatives the prompt reads: the accepted ones and the automatic ones blocking the most money
 * (`topAutomaticNegatives` picks the same ones again, so the prompt does not depend on this cut).
 */
const promptNegatives = sql.raw(`coalesce((SELECT jsonb_agg(e.s ORDER BY e.n)
  FROM jsonb_array_elements(coalesce(a.result #> '{semantic,negatives}', '[]'::jsonb)) WITH ORDINALITY AS e(s, n)
 WHERE (a.decisions -> 'accepted') @> to_jsonb(e.s ->> 'id')
    OR e.n IN (SELECT r.n FROM jsonb_array_elements(coalesce(a.result #> '{semantic,negatives}', '[]'::jsonb)) WITH ORDINALITY AS r(s, n)
                WHERE r.s ->> 'status' = 'ready'
                ORDER BY coalesce((r.s ->> 'costPerMonth')::float8, 0) DESC, r.s ->> 'id' COLLATE "C"
                LIMIT ${defaultPromptLimits.maxNegatives})), '[]'::jsonb)`);

/**
 * The audit as the prompt reads it: the full result minus its big arrays (per-keyword scores and
 * verdicts, clusters…), with only the top findings, the top automatic negatives and the accepted suggestions. A big account's result
 * is tens of megabytes; this is a few hundred kilobytes, parsed off nothing but this job.
 */
async function loadPromptInput(db: DB, analysisId: string): Promise<PromptInput | null> {
  const { rows } = await sql<{ project_name: string; decisions: AnalysisDecisions; source: string | null }>`
    SELECT pr.name AS project_name, a.decisions,
           CASE WHEN a.result IS NULL OR a.status <> 'completed' THEN NULL ELSE jsonb_build_object(
             'scoring', (a.result -> 'scoring') || jsonb_build_object(
                 'findings', coalesce((SELECT jsonb_agg(top.f ORDER BY top.n)
                                         FROM (SELECT f, row_number() OVER (ORDER BY ${findingOrder}) AS n
                                                 FROM jsonb_array_elements(coalesce(a.result #> '{scoring,findings}', '[]'::jsonb)) f
                                                ORDER BY ${findingOrder}
                                                LIMIT ${PROMPT_FINDINGS_PREFETCH}) top), '[]'::jsonb),
                 'suggestions', ${acceptedOf('scoring,suggestions')},
                 'campaigns', coalesce(a.result #> '{scoring,campaigns}', '[]'::jsonb),
                 'groups', '[]'::jsonb, 'ads', '[]'::jsonb, 'keywords', '[]'::jsonb, 'keywordVerdicts', '[]'::jsonb, 'checks', '[]'::jsonb),
             'semantic', (a.result -> 'semantic') || jsonb_build_object(
                 'negatives', ${promptNegatives},
                 'crossMinus', ${acceptedOf('semantic,crossMinus')},
                 'clusters', '[]'::jsonb, 'duplicates', '[]'::jsonb, 'intersections', '[]'::jsonb, 'droppedNegatives', '[]'::jsonb,
                 'collectData', '[]'::jsonb, 'relevance', '[]'::jsonb),
             'money', a.result -> 'money')::text END AS source
      FROM analyses a
      JOIN projects pr ON pr.id = a.project_id AND pr.deleted_at IS NULL
     WHERE a.id = ${analysisId}`.execute(db);
  const row = rows[0];
  if (!row?.source) return null;
  return { projectName: row.project_name, decisions: row.decisions, audit: JSON.parse(row.source) as AuditResult };
}

export async function runAiPlanJob(db: DB, config: AppConfig, job: QueuedJob<AiPlanJobData>): Promise<void> {
  try {
    await runClaimed(db, config, job);
  } finally {
    aiPlanRuns.emit('ended', job.data.aiPlanId);
  }
}

async function runClaimed(db: DB, config: AppConfig, job: QueuedJob<AiPlanJobData>): Promise<void> {
  const run = await claim(db, job);
  if (!run) return;
  const owned = () => db.updateTable('ai_plans').where('id', '=', run.id).where('status', '=', 'running').where('attempts', '=', run.attempt);
  try {
    // The server lost its model configuration between the start and the run.
    if (!config.llm) throw new LlmError(m.notConfigured);
    const input = await loadPromptInput(db, run.analysisId);
    if (!input) throw new LlmError(m.auditGone);
    const prompt = buildAiPlanPrompt(input);
    await owned().set({ prompt_chars: prompt.chars, heartbeat_at: sql`now()` }).execute();

    const completion = await requestChatCompletion(config.llm, prompt.messages);
    // Spent whatever the answer turns out to be: recorded before it is judged.
    if (completion.usage) await owned().set({ ...completion.usage }).execute();
    const plan = parsePlanAnswer(completion.content, prompt.findings, prompt.negatives);

    const stored = await owned()
      .set({ status: 'completed', plan: JSON.stringify(plan), finished_at: sql`now()`, heartbeat_at: null })
      .returning('id')
      .executeTakeFirst();
    if (stored) await notifyAiPlan(db, run.id);
  } catch (error) {
    // Only the attempt that still owns the run may fail it.
    const still = await db.selectFrom('ai_plans').select('id').where('id', '=', run.id).where('status', '=', 'running').where('attempts', '=', run.attempt).executeTakeFirst();
    if (still) await failAiPlan(db, run.id, error instanceof LlmError ? error.message : m.failed);
    if (!(error instanceof LlmError) && config.logLevel !== 'silent') console.error('AI plan run failed', { aiPlanId: run.id, err: error });
  }
}

export const aiPlanJobWorker: JobWorker = {
  queue: AI_PLAN_QUEUE,
  start: async (queue, { db, config }) => {
    // Runs a dead process left behind are failed and refunded before new work is taken.
    await recoverInterruptedAiPlans(db, config.llm);
    await queue.work<AiPlanJobData>(AI_PLAN_QUEUE, (job) => runAiPlanJob(db, config, job), { concurrency: 2 });
  },
};

/**
 * The `ai-plan.run` job: claims the plan, reads the audit (only what the prompt can use, cut in
 * PostgreSQL), builds the prompt, asks the model once, validates the answer and stores the plan. Every
 * write after the claim is conditional on `status = 'running' AND attempts = <this attempt>`, so a
 * retry that took the run over is never overwritten. Any failure ends the plan as failed, refunded,
 * with a Russian message saying what went wrong.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { ResultsSummary } from '../../contract/analysis-pages.js';
import type {
  AdFieldFixSuggestion,
  CrossMinusSuggestion,
  EntityScore,
  Finding,
  NegativeKeywordSuggestion,
  ScoringResult,
  Suggestion,
} from '../../contract/analysis-results.js';
import type { AnalysisDecisions, AuditResult } from '../../contract/analysis.js';
import { aiPlanMessages as m } from '../../contract/messages.js';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { QueuedJob } from '../jobs/queue.js';
import type { JobWorker } from '../jobs/workers.js';
import { expandStoredRefs } from '../analysis/entity-names.js';
import { parsePlanAnswer } from './answer.js';
import { claimRun, failRun, ownedUpdate, startHeartbeat } from '../runs/paid-run.js';
import { AI_PLAN_QUEUE, aiPlanRun, type AiPlanJobData } from './lifecycle.js';
import { buildAiPlanPrompt, defaultPromptLimits, PROMPT_FINDINGS_PREFETCH, type PromptInput } from './prompt.js';
import { LlmError, requestChatCompletion } from './provider.js';

/** Emits `'ended'` with the plan id when a run of this process is over, whatever it did (tests wait on it). */
export const aiPlanRuns = new EventEmitter();

/** Same order as `rankFindings`, so the findings kept here are the prompt's top ones. */
const findingOrder = sql.raw(`CASE WHEN f.money_per_month > 0 THEN f.money_per_month ELSE 0 END DESC,
  CASE f.severity WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END,
  coalesce((f.document ->> 'weight')::float8, 0) DESC,
  f.id COLLATE "C"`);

/** Campaign scores the prompt may quote (it trims them further to its budget). */
const PROMPT_CAMPAIGNS = 1_000;

/**
 * The audit as the prompt reads it, from the result's rows: the summary document, the top findings,
 * the campaign scores, the top automatic negatives and the accepted suggestions. The per-keyword rows,
 * clusters and the rest are never read.
 */
async function loadPromptInput(db: DB, analysisId: string): Promise<PromptInput | null> {
  const analysis = await db
    .selectFrom('analyses as a')
    .innerJoin('projects as pr', 'pr.id', 'a.project_id')
    .select(['pr.name as project_name', 'a.report', 'a.status'])
    .where('a.id', '=', analysisId)
    .where('pr.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!analysis || analysis.status !== 'completed' || !analysis.report) return null;
  const report = analysis.report as ResultsSummary;
  const [findings, campaigns, negatives, accepted, rejected] = await Promise.all([
    sql<{ document: Finding }>`SELECT f.document FROM analysis_findings f WHERE f.analysis_id = ${analysisId} ORDER BY ${findingOrder} LIMIT ${PROMPT_FINDINGS_PREFETCH}`.execute(db),
    sql<{ document: EntityScore }>`SELECT document FROM analysis_scores WHERE analysis_id = ${analysisId} AND level = 'campaign' ORDER BY position LIMIT ${PROMPT_CAMPAIGNS}`.execute(db),
    sql<{ document: NegativeKeywordSuggestion }>`
      SELECT document FROM analysis_suggestions
       WHERE analysis_id = ${analysisId} AND kind = 'negative_keyword' AND status = 'ready'
       ORDER BY cost_per_month DESC, id COLLATE "C" LIMIT ${defaultPromptLimits.maxNegatives}`.execute(db),
    sql<{ document: Suggestion }>`
      SELECT s.document FROM analysis_decisions d JOIN analysis_suggestions s ON s.analysis_id = d.analysis_id AND s.id = d.suggestion_id
       WHERE d.analysis_id = ${analysisId} AND d.decision = 'accepted' ORDER BY s.position`.execute(db),
    sql<{ suggestion_id: string }>`SELECT suggestion_id FROM analysis_decisions WHERE analysis_id = ${analysisId} AND decision = 'rejected'`.execute(db),
  ]);
  // One read of the names for all of them (the documents store compact entity refs, analysis/entity-refs.ts).
  await expandStoredRefs(db, analysisId, [findings.rows, campaigns.rows, negatives.rows, accepted.rows]);
  const acceptedSuggestions = accepted.rows.map((row) => row.document);
  const acceptedIds = new Set(acceptedSuggestions.map((item) => item.id));
  const promptNegatives = [
    ...acceptedSuggestions.filter((item): item is NegativeKeywordSuggestion => item.kind === 'negative_keyword'),
    ...negatives.rows.map((row) => row.document).filter((item) => !acceptedIds.has(item.id)),
  ];
  const bySeverity = Object.fromEntries(
    Object.entries(report.bySeverity).map(([severity, entry]) => [severity, { count: entry.findings, moneyPerMonth: entry.moneyPerMonth }]),
  ) as ScoringResult['bySeverity'];
  const audit: AuditResult = {
    scoring: {
      platform: report.platform,
      settings: report.settings,
      period: report.period,
      periodDays: report.periodDays,
      monthFactor: report.monthFactor,
      notices: report.notices,
      account: report.scores.account,
      campaigns: campaigns.rows.map((row) => row.document),
      groups: [],
      ads: [],
      keywords: [],
      findings: findings.rows.map((row) => row.document),
      bySeverity,
      byCheck: report.byCheck.map((check) => ({ checkId: check.checkId, title: check.title, severity: check.severity, count: check.findings, moneyPerMonth: check.moneyPerMonth, examples: [] })),
      keywordVerdicts: [],
      wastedSpend: report.wastedSpend,
      suggestions: acceptedSuggestions.filter((item): item is AdFieldFixSuggestion => item.kind === 'ad_field'),
      checks: [],
      counts: report.counts,
    },
    semantic: {
      platform: report.platform,
      settings: report.settings,
      notices: report.semantic.notices,
      clusters: [],
      duplicates: [],
      intersections: [],
      crossMinus: acceptedSuggestions.filter((item): item is CrossMinusSuggestion => item.kind === 'cross_minus'),
      negatives: promptNegatives,
      droppedNegatives: [],
      ...(report.nonTargetQueries ? { nonTargetQueries: { ...report.nonTargetQueries, blockedBy: [] } } : {}),
      collectData: [],
      relevance: [],
      counts: report.semantic.counts,
    },
    ...(report.money ? { money: report.money } : {}),
  };
  const decisions: AnalysisDecisions = { accepted: [...acceptedIds], rejected: rejected.rows.map((row) => row.suggestion_id) };
  return { projectName: analysis.project_name, decisions, audit };
}

export async function runAiPlanJob(db: DB, config: AppConfig, job: QueuedJob<AiPlanJobData>): Promise<void> {
  try {
    await runClaimed(db, config, job);
  } finally {
    aiPlanRuns.emit('ended', job.data.aiPlanId);
  }
}

async function runClaimed(db: DB, config: AppConfig, job: QueuedJob<AiPlanJobData>): Promise<void> {
  const run = await claimRun(db, aiPlanRun, job);
  if (!run) return;
  // A cancelled (or recovered) plan keeps its outcome: every write below is conditional on this attempt.
  const stopHeartbeat = startHeartbeat(db, aiPlanRun, run, () => undefined);
  try {
    // The server lost its model configuration between the start and the run.
    if (!config.llm) throw new LlmError(m.notConfigured);
    const { analysis_id: analysisId } = await db.selectFrom('ai_plans').select('analysis_id').where('id', '=', run.id).executeTakeFirstOrThrow();
    const input = await loadPromptInput(db, analysisId);
    if (!input) throw new LlmError(m.auditGone);
    const prompt = buildAiPlanPrompt(input);
    await ownedUpdate(db, aiPlanRun, run, { prompt_chars: prompt.chars }, false);

    const completion = await requestChatCompletion(config.llm, prompt.messages);
    // Spent whatever the answer turns out to be: recorded before it is judged.
    if (completion.usage) await ownedUpdate(db, aiPlanRun, run, { ...completion.usage }, false);
    const plan = parsePlanAnswer(completion.content, prompt.findings, prompt.negatives, prompt.money);
    await ownedUpdate(db, aiPlanRun, run, { status: 'completed', plan: JSON.stringify(plan), finished_at: sql`now()`, heartbeat_at: null });
  } catch (error) {
    await failRun(db, aiPlanRun, run, error instanceof LlmError ? error.message : m.failed);
    if (!(error instanceof LlmError) && config.logLevel !== 'silent') console.error('AI plan run failed', { aiPlanId: run.id, err: error });
  } finally {
    stopHeartbeat();
  }
}

export const aiPlanJobWorker: JobWorker = {
  queue: AI_PLAN_QUEUE,
  start: async (queue, { db, config }) => {
    await queue.work<AiPlanJobData>(AI_PLAN_QUEUE, (job) => runAiPlanJob(db, config, job), { concurrency: 2 });
  },
};

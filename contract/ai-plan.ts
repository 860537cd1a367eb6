/**
 * AI plan: an ordered action plan for a completed audit, written by a language model from the audit's
 * own findings (server/ai-plan/). Shared by the API (routes, OpenAPI document) and the PWA screen.
 *
 *   POST /api/v1/analyses/:id/ai-plans   start one (paid, idempotent) → 201 new, 200 same key again
 *   GET  /api/v1/analyses/:id/ai-plans   availability, price, balance and the audit's AI plans
 *   GET  /api/v1/ai-plans/:id            one AI plan: status, then the plan
 *
 * Money in a step is never the model's guess: the server adds up `moneyPerMonth` of the audit findings
 * the step refers to (null when the audit priced none of them). A step may also cite the automatic
 * negatives (code N of the prompt): an item `non-target-queries` worth the non-target queries' cost
 * (`semantic.nonTargetQueries.costPerMonth`, each query once).
 */
import * as v from 'valibot';
import { text } from './text.js';
import { ExpectedCostSchema } from './common.js';
import { aiPlanMessages as m } from './messages.js';

export const aiPlanStatuses = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type AiPlanStatus = (typeof aiPlanStatuses)[number];
export const unfinishedAiPlanStatuses: readonly AiPlanStatus[] = ['queued', 'running'];
export const isAiPlanFinished = (status: AiPlanStatus) => !unfinishedAiPlanStatuses.includes(status);

export const aiPlanStatusLabels: Record<AiPlanStatus, string> = {
  queued: 'В очереди',
  running: 'Языковая модель составляет план',
  completed: 'Готово',
  failed: 'Ошибка',
  cancelled: 'Отменён',
};

const severities = ['high', 'medium', 'low'] as const;

/** A finding of the audit a step is based on, as the screen shows it. */
export const AiPlanFindingSchema = v.object({
  /** `Finding.id` in the audit result, or `non-target-queries` for the automatic negatives (code N). */
  id: v.string(),
  check_id: v.string(),
  title: v.string(),
  severity: v.picklist(severities),
  /** Where it is: «Кампания / группа / фраза». */
  target: v.string(),
  /** Roubles per month the audit priced it at; null when it did not. */
  money_per_month: v.nullable(v.number()),
});
export type AiPlanFinding = v.InferOutput<typeof AiPlanFindingSchema>;

export const AiPlanStepSchema = v.object({
  /** 1-based order of execution. */
  position: v.number(),
  title: v.string(),
  /** Why this step, in the model's words. */
  why: v.string(),
  /** What changes when it is done, in the model's words (no amounts of its own). */
  expected_effect: v.nullable(v.string()),
  /** Sum of the priced findings the step refers to, roubles per month; null when none is priced. */
  money_per_month: v.nullable(v.number()),
  findings: v.array(AiPlanFindingSchema),
});
export type AiPlanStep = v.InferOutput<typeof AiPlanStepSchema>;

export const AiPlanResultSchema = v.object({
  summary: v.nullable(v.string()),
  steps: v.array(AiPlanStepSchema),
  /**
   * The part of the audit's money headline (money lost per month, «Теряете ≈ X ₽») the plan's steps cover,
   * never more than it and never with the money that could be saved; null when they cover none. Plans of
   * results stored before the money story: every priced finding referred to, each counted once.
   */
  money_per_month_total: v.nullable(v.number()),
  /**
   * The total in words: «План охватывает 12 400 ₽ из 29 100 ₽ потерь в месяц. Не вошли: …», or that it
   * covers all of them, and the money that could be saved apart. Null (or absent, plans stored before it)
   * without a money story.
   */
  money_note: v.optional(v.nullable(v.string())),
});
export type AiPlanResult = v.InferOutput<typeof AiPlanResultSchema>;

export const AiPlanUsageSchema = v.object({ prompt_tokens: v.nullable(v.number()), completion_tokens: v.nullable(v.number()), total_tokens: v.nullable(v.number()) });
export type AiPlanUsage = v.InferOutput<typeof AiPlanUsageSchema>;

export const AiPlanSchema = v.object({
  id: v.string(),
  analysis_id: v.string(),
  project_id: v.string(),
  status: v.picklist(aiPlanStatuses),
  /** The model asked (LLM_MODEL at start time). */
  model: v.string(),
  /** Characters of the prompt sent (null until the run built it). */
  prompt_chars: v.nullable(v.number()),
  /** Tokens of the product's balance charged for the plan (refunded when it failed). */
  cost: v.number(),
  /** Language-model tokens spent, as the model's API reported them (null until answered). */
  usage: v.nullable(AiPlanUsageSchema),
  /** Russian message of a failed run. */
  error: v.nullable(v.string()),
  plan: v.nullable(AiPlanResultSchema),
  author: v.nullable(v.object({ id: v.string(), full_name: v.string() })),
  created_at: v.string(),
  started_at: v.nullable(v.string()),
  finished_at: v.nullable(v.string()),
});
export type AiPlan = v.InferOutput<typeof AiPlanSchema>;

export const AiPlanResponseSchema = v.object({ ai_plan: AiPlanSchema });
export type AiPlanResponse = v.InferOutput<typeof AiPlanResponseSchema>;

/** POST /analyses/:id/ai-plans. The key is made once per click and reused on retries (one charge). */
export const StartAiPlanSchema = v.object(
  {
    idempotency_key: v.pipe(text(m.idempotencyKeyInvalid), v.trim(), v.minLength(1, m.idempotencyKeyInvalid), v.maxLength(200, m.idempotencyKeyInvalid)),
    expected_cost: v.optional(ExpectedCostSchema),
  },
  m.idempotencyKeyInvalid,
);
export type StartAiPlanRequest = v.InferInput<typeof StartAiPlanSchema>;

export const AiPlanListItemSchema = v.object({
  id: v.string(),
  status: v.picklist(aiPlanStatuses),
  model: v.string(),
  cost: v.number(),
  error: v.nullable(v.string()),
  created_at: v.string(),
  finished_at: v.nullable(v.string()),
});
export type AiPlanListItem = v.InferOutput<typeof AiPlanListItemSchema>;

/** GET /analyses/:id/ai-plans: can a plan be asked for here, at what price, and the earlier ones. */
export const AiPlanOverviewSchema = v.object({
  /** False when no language model is configured on the server (starting answers 503). */
  available: v.boolean(),
  /** Why it is unavailable, in Russian; null when available. */
  unavailable_reason: v.nullable(v.string()),
  /** Tokens one plan costs (the pricing table). */
  price: v.number(),
  balance: v.number(),
  /** The audit's AI plans, newest first (at most 20). */
  items: v.array(AiPlanListItemSchema),
});
export type AiPlanOverview = v.InferOutput<typeof AiPlanOverviewSchema>;

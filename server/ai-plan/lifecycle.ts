/**
 * The AI plan as a paid run (server/runs/paid-run.ts). Crash policy: **fail**. A plan is one call to a
 * paid language model: a run a dead process left behind is failed and refunded rather than asking the
 * model (and paying it) again; the user asks for a new plan when they want. The stored error says the
 * tokens went back when there were any.
 */
import { apiMessages, aiPlanMessages as m } from '../../contract/messages.js';
import type { LlmConfig } from '../config.js';
import { HttpError } from '../lib/errors.js';
import type { PaidRunKind } from '../runs/paid-run.js';

export const AI_PLAN_QUEUE = 'ai-plan.run';
export const AI_PLAN_CHANNEL = 'ai_plan_progress';

export interface AiPlanJobData {
  aiPlanId: string;
}

/** pg-boss options of a run: a job active longer than one model call (plus a margin) is retried once. */
export const aiPlanJobOptions = (llm: Pick<LlmConfig, 'timeoutMs'>) => ({ retryLimit: 1, expireInSeconds: Math.ceil(llm.timeoutMs / 1000) + 60 });

export const aiPlanRun: PaidRunKind<AiPlanJobData> = {
  name: 'ai-plan',
  table: 'ai_plans',
  queue: AI_PLAN_QUEUE,
  channel: AI_PLAN_CHANNEL,
  jobData: (aiPlanId) => ({ aiPlanId }),
  runIdOf: (data) => data.aiPlanId,
  // A start passes the options of the configured model's timeout.
  jobOptions: aiPlanJobOptions({ timeoutMs: 120_000 }),
  // The first try plus one pg-boss retry.
  maxAttempts: 2,
  onCrash: 'fail',
  debitKeyPrefix: 'ai-plan',
  messages: { interrupted: m.interrupted, keyReused: m.idempotencyKeyReused, refundReason: () => 'Возврат за анализ', cancelForbidden: m.cancelForbidden },
  refundedError: (error) => `${error}. ${m.refundNote}`,
  insufficient: (required, balance) =>
    new HttpError(402, 'INSUFFICIENT_TOKENS', apiMessages.insufficientTokens, [
      { loc: ['body'], msg: m.insufficientTokensDetail.replace('{required}', String(required)).replace('{balance}', String(balance)) },
    ]),
  queueUnavailable: () => new HttpError(503, 'QUEUE_UNAVAILABLE', m.queueUnavailable),
};

/**
 * The audit as a paid run (server/runs/paid-run.ts): its table, queue and channel, and what it does
 * after a crash. Crash policy: **resume**. An audit reads only stored rows and its engines are
 * deterministic, so a run a dead process left behind starts over on a new job (up to `MAX_ATTEMPTS`
 * claims), charged once; only then, or without a queue to resume on, is it failed and refunded.
 */
import { sql } from 'kysely';
import { analysisMessages as m } from '../../contract/messages.js';
import type { Executor } from '../runs/paid-run.js';
import { endRun, type PaidRunKind } from '../runs/paid-run.js';
import type { AnalysisErrorCode } from '../../contract/analysis.js';
import { HttpError } from '../lib/errors.js';

export const ANALYSIS_QUEUE = 'analysis.run';
export const PROGRESS_CHANNEL = 'analysis_progress';
/** Runs started for one analysis (first try, pg-boss retries, resumes after restarts) before it fails for good. */
export const MAX_ATTEMPTS = 3;

export interface AnalysisJobData {
  analysisId: string;
}

/** 402 of a start the balance cannot pay: the amounts travel with it so the screen can show them. */
export class InsufficientTokensError extends HttpError {
  constructor(
    readonly required: number,
    readonly balance: number,
  ) {
    super(402, 'INSUFFICIENT_TOKENS', m.insufficientTokens, [
      { loc: ['body', 'campaign_ids'], msg: m.insufficientTokensDetail.replace('{required}', String(required)).replace('{balance}', String(balance)) },
    ]);
  }

  override toBody() {
    return { ...super.toBody(), required: this.required, balance: this.balance };
  }
}

export const auditRun: PaidRunKind<AnalysisJobData> = {
  name: 'audit',
  table: 'analyses',
  queue: ANALYSIS_QUEUE,
  channel: PROGRESS_CHANNEL,
  jobData: (analysisId) => ({ analysisId }),
  runIdOf: (data) => data.analysisId,
  // A job still active after 15 minutes counts as dead and is retried.
  jobOptions: { retryLimit: 2, expireInSeconds: 900 },
  maxAttempts: MAX_ATTEMPTS,
  onCrash: 'resume',
  debitKeyPrefix: 'analysis',
  messages: { interrupted: m.interrupted, keyReused: m.idempotencyKeyReused, refundReason: () => 'Возврат за анализ', cancelForbidden: m.cancelForbidden },
  interruptedCode: 'INTERRUPTED' satisfies AnalysisErrorCode,
  insufficient: (required, balance) => new InsufficientTokensError(required, balance),
  queueUnavailable: () => new HttpError(503, 'JOBS_UNAVAILABLE', m.jobsUnavailable),
  claimSet: { stage: 'prepare', progress: 0, progress_detail: null, error_code: null },
  requeueSet: { stage: 'queued', progress: 0, progress_detail: null },
  touch: { updated_at: sql`now()` },
};

/** Job options of every analysis run. */
export const analysisJobOptions = auditRun.jobOptions as { retryLimit: number; expireInSeconds: number };

/** Fails an unfinished analysis with its reason and refunds it; false when it had finished already. */
export const failAnalysis = async (db: Executor, analysisId: string, error: string, errorCode: AnalysisErrorCode) =>
  (await endRun(db, auditRun, analysisId, { status: 'failed', error, errorCode })) !== null;

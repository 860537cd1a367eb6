/**
 * The page check as a paid run (server/runs/paid-run.ts). Crash policy: **fail**. A check reads
 * other people's sites, so a run a dead process left behind is failed and refunded rather than sent to
 * fetch every page again; the user starts a new one when they want.
 */
import { apiMessages, pageCheckMessages as m } from '../../contract/messages.js';
import { HttpError } from '../lib/errors.js';
import type { PaidRunKind } from '../runs/paid-run.js';
import { sql } from 'kysely';

export const PAGE_CHECK_QUEUE = 'page-check.run';

export interface PageCheckJobData {
  analysisId: string;
}

export const pageCheckRun: PaidRunKind<PageCheckJobData> = {
  name: 'page-check',
  table: 'page_checks',
  queue: PAGE_CHECK_QUEUE,
  channel: 'page_check_progress',
  jobData: (analysisId) => ({ analysisId }),
  runIdOf: (data) => data.analysisId,
  // A job still active after 15 minutes counts as dead and is re-delivered (the run starts over).
  jobOptions: { retryLimit: 2, expireInSeconds: 900 },
  maxAttempts: 3,
  onCrash: 'fail',
  debitKeyPrefix: 'page-check',
  messages: {
    interrupted: m.interrupted,
    keyReused: m.idempotencyKeyReused,
    refundReason: (status) => (status === 'cancelled' ? m.cancelRefundReason : m.refundReason),
    cancelForbidden: m.cancelForbidden,
  },
  insufficient: (required, balance) =>
    new HttpError(402, 'INSUFFICIENT_TOKENS', apiMessages.insufficientTokens, [{ loc: ['body', 'urls'], msg: `Нужно токенов: ${required}, на балансе: ${balance}` }]),
  queueUnavailable: () => new HttpError(503, 'QUEUE_UNAVAILABLE', m.queueUnavailable),
  claimSet: { stage: 'fetching', progress: 0, progress_detail: sql`jsonb_build_object('done', 0, 'total', jsonb_array_length(urls))` },
  requeueSet: { stage: 'queued', progress: 0, progress_detail: null },
};

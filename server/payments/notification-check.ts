/**
 * YooKassa's notifications, answered at once and checked in a job.
 *
 * The webhook (`POST /tokens/payments/yookassa-notification`) is open to anyone, so its body is only a hint.
 * The endpoint does one indexed lookup in our own tables: does the object concern one of our payments, in a
 * state the notification could change (a pending or cancelled card payment; a paid one for a refund not
 * recorded yet)? If not, it is dropped: a forged notification costs that lookup (and the route is rate
 * limited per address), never a request to YooKassa. If so, a job is queued and the endpoint answers 200 at
 * once, whatever YooKassa's API does meanwhile.
 *
 * The job fetches the object back from YooKassa (`handleNotification`, with `yookassaTiming`'s timeout) and
 * only that answer counts. A hanging or failing API fails the job, and pg-boss retries it with a growing
 * delay. The queue is `stately`: per object at most one check waits and one runs, so a flood of copies of a
 * real notification makes one lookup at a time.
 */
import type { YookassaNotification } from '../../contract/payments.js';
import type { DB } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import type { JobWorker } from '../jobs/workers.js';
import { createLogger } from '../lib/logger.js';
import { handleNotification } from './service.js';
import { createYookassaClient } from './yookassa.js';

export const YOOKASSA_CHECK_QUEUE = 'payments.yookassa-check';

interface CheckJobData {
  event: string;
  objectId: string;
}

/** Retries of a check whose lookup failed (YooKassa down, hanging, answering 5xx); tests shorten the delay. */
export const notificationCheckTiming = { retryLimit: 8, retryDelaySeconds: 30 };

const isUuid = (value: string | undefined): value is string => value !== undefined && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** Whether a notification can change one of our payments; our tables only, no request to YooKassa. */
async function concernsOurPayment(db: DB, notification: YookassaNotification): Promise<boolean> {
  const { event, object } = notification;
  if (event === 'payment.succeeded' || event === 'payment.canceled') {
    const ours = object.metadata?.payment_id;
    const row = await db
      .selectFrom('token_payments')
      .select('id')
      .where('method', '=', 'card')
      .where('status', 'in', ['pending', 'canceled'])
      // By YooKassa's id; by ours (from the metadata) only while we never learnt theirs (a lost creation answer).
      .where((eb) => eb.or([eb('provider_payment_id', '=', object.id), ...(isUuid(ours) ? [eb.and([eb('id', '=', ours), eb('provider_payment_id', 'is', null)])] : [])]))
      .executeTakeFirst();
    return row !== undefined;
  }
  if (event === 'refund.succeeded') {
    if (!object.payment_id) return false;
    const row = await db
      .selectFrom('token_payments')
      .select('id')
      .where('provider_payment_id', '=', object.payment_id)
      .where('status', '=', 'paid')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('token_payment_refunds').select('provider_refund_id').where('provider_refund_id', '=', object.id))))
      .executeTakeFirst();
    return row !== undefined;
  }
  return false;
}

/**
 * Queues the check of a notification that concerns one of our payments; drops the rest. Returns whether a
 * check was queued (or one for the same object was waiting already).
 */
export async function acceptNotification(db: DB, jobs: JobQueue, notification: YookassaNotification): Promise<boolean> {
  if (!(await concernsOurPayment(db, notification))) return false;
  const data: CheckJobData = { event: notification.event, objectId: notification.object.id };
  await jobs.send(YOOKASSA_CHECK_QUEUE, data, {
    singletonKey: `${notification.event.split('.')[0]}:${notification.object.id}`,
    retryLimit: notificationCheckTiming.retryLimit,
    retryDelaySeconds: notificationCheckTiming.retryDelaySeconds,
    // A check still active after this long was left by a dead process: pg-boss hands it out again.
    expireInSeconds: 120,
  });
  return true;
}

export const notificationCheckJobWorker: JobWorker = {
  queue: YOOKASSA_CHECK_QUEUE,
  queueOptions: { policy: 'stately', retryBackoff: true },
  start: async (queue, deps) => {
    const config = deps.config.payments.yookassa;
    // Without YooKassa the webhook answers 404 and nothing is ever queued here.
    if (!config) return;
    const yookassa = createYookassaClient(config);
    const log = createLogger(deps.config, 'yookassa-check');
    await queue.work<CheckJobData>(YOOKASSA_CHECK_QUEUE, async (job) => {
      try {
        await handleNotification(deps.db, yookassa, job.data.event, job.data.objectId, log);
      } catch (error) {
        log.warn({ err: error, objectId: job.data.objectId, event: job.data.event, retry: job.retryCount }, 'YooKassa notification check failed: retried later');
        throw error;
      }
    }, { concurrency: 2 });
  },
};

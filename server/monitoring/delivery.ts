/**
 * Sends the e-mail and Telegram messages that are due: per person and channel, one message for one
 * event and one digest for several (what gathered in quiet hours or for the morning digest).
 *
 * Failures never storm: a chat that blocked the bot (403) or is gone is marked blocked and everything
 * pending for it dropped, at once; a 429 moves the batch to `retry_after` seconds later, exactly; any
 * other failure waits 2, 4, 8… minutes and gives up after `MAX_ATTEMPTS`.
 */
import { sql } from 'kysely';
import type { DB } from '../db/database.js';
import type { Mailer } from '../email/mailer.js';
import { alertMail, alertText, type EventText } from './messages.js';
import { TelegramError, type TelegramBot } from './telegram.js';

const MAX_ATTEMPTS = 5;
/** Batches of (person, channel) handled per sweep; the rest wait for the next minute. */
const BATCHES_PER_SWEEP = 200;

export interface DeliveryDeps {
  db: DB;
  mailer: Mailer;
  telegram: TelegramBot | null;
  publicUrl: string;
}

type Outcome = { sent: true } | { sent: false; chatGone: true } | { sent: false; retryAt: Date; error: string; countsAsAttempt: boolean };

async function sendBatch(deps: DeliveryDeps, channel: 'email' | 'telegram', recipient: { email: string; chat_id: string | null }, events: EventText[], now: Date): Promise<Outcome> {
  try {
    if (channel === 'email') await deps.mailer.send(alertMail(recipient.email, events, deps.publicUrl));
    else {
      if (!deps.telegram || !recipient.chat_id) return { sent: false, chatGone: true };
      await deps.telegram.sendMessage(recipient.chat_id, alertText(events, deps.publicUrl).text);
    }
    return { sent: true };
  } catch (error) {
    if (error instanceof TelegramError && error.chatGone) return { sent: false, chatGone: true };
    if (error instanceof TelegramError && error.retryAfterSeconds !== null) {
      return { sent: false, retryAt: new Date(now.getTime() + error.retryAfterSeconds * 1000), error: error.message, countsAsAttempt: false };
    }
    return { sent: false, retryAt: new Date(now.getTime()), error: error instanceof Error ? error.message : String(error), countsAsAttempt: true };
  }
}

/** One person's due messages of one channel, locked so no other process sends them too. */
async function deliverBatch(deps: DeliveryDeps, userId: string, channel: 'email' | 'telegram', now: Date): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const rows = await sql<{ id: string; attempts: number; title: string; cause: string; money_per_month: number | null; link: string; email: string; chat_id: string | null }>`
      SELECT d.id, d.attempts, e.title, e.cause, e.money_per_month, e.link, u.email, t.chat_id
        FROM alert_deliveries d
        JOIN monitoring_events e ON e.id = d.event_id
        JOIN users u ON u.id = d.user_id
        LEFT JOIN telegram_chats t ON t.user_id = d.user_id AND t.blocked_at IS NULL
       WHERE d.user_id = ${userId} AND d.channel = ${channel} AND d.status = 'pending' AND d.due_at <= ${now}
       ORDER BY e.created_at, e.id
       FOR UPDATE OF d SKIP LOCKED`.execute(trx);
    if (rows.rows.length === 0) return;
    const ids = rows.rows.map((row) => row.id);
    const first = rows.rows[0]!;
    const outcome = await sendBatch(deps, channel, first, rows.rows, now);
    if (outcome.sent) {
      await trx.updateTable('alert_deliveries').set({ status: 'sent', sent_at: now, attempts: sql`attempts + 1` }).where('id', 'in', ids).execute();
    } else if ('chatGone' in outcome) {
      await trx.updateTable('telegram_chats').set({ blocked_at: now }).where('user_id', '=', userId).where('blocked_at', 'is', null).execute();
      await trx.updateTable('alert_deliveries').set({ status: 'dropped', error: 'chat blocked or gone' }).where('user_id', '=', userId).where('channel', '=', 'telegram').where('status', '=', 'pending').execute();
    } else {
      const attempts = first.attempts + (outcome.countsAsAttempt ? 1 : 0);
      const backoffMs = outcome.countsAsAttempt ? 2 ** attempts * 60_000 : 0;
      await trx
        .updateTable('alert_deliveries')
        .set({
          attempts: sql`attempts + ${outcome.countsAsAttempt ? 1 : 0}`,
          error: outcome.error,
          due_at: new Date(outcome.retryAt.getTime() + backoffMs),
          ...(attempts >= MAX_ATTEMPTS ? { status: 'failed' as const } : {}),
        })
        .where('id', 'in', ids)
        .execute();
    }
  });
}

/** Every (person, channel) with something due, one batch each. */
export async function deliverDueAlerts(deps: DeliveryDeps, now: Date): Promise<void> {
  const due = await deps.db
    .selectFrom('alert_deliveries')
    .select(['user_id', 'channel'])
    .where('status', '=', 'pending')
    .where('due_at', '<=', now)
    .groupBy(['user_id', 'channel'])
    .limit(BATCHES_PER_SWEEP)
    .execute();
  for (const batch of due) await deliverBatch(deps, batch.user_id, batch.channel, now);
}

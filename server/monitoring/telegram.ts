/**
 * The Telegram Bot API as alerts use it: `sendMessage`, and `getUpdates` long polling to link a chat.
 *
 * Why getUpdates and not a webhook: the server needs no public HTTPS address reachable by Telegram (a
 * self-hosted install behind a NAT works), and the offset kept in `telegram_poll_state` makes a restart
 * pick up where it stopped. Telegram answers 409 to two pollers of one bot, so a lease on that row lets
 * one process poll at a time (the others try again when the lease runs out).
 *
 * Linking: the PWA asks for a one-time code (stored as a SHA-256 hash, 30 minutes, used once) and opens
 * `https://t.me/<bot>?start=<code>`; Telegram delivers it to the bot as the message `/start <code>`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { monitoringMessages as m } from '../../contract/monitoring.js';
import type { TelegramConfig } from '../config.js';
import type { DB } from '../db/database.js';

const LINK_CODE_TTL_MS = 30 * 60_000;
const REQUEST_TIMEOUT_MS = 10_000;

/** An answer with `ok: false`: the Bot API's `error_code` and `description`, and `retry_after` on 429. */
export class TelegramError extends Error {
  constructor(
    readonly errorCode: number,
    description: string,
    readonly retryAfterSeconds: number | null,
  ) {
    super(description);
  }

  /** The person blocked the bot, deleted the chat or never started it: retrying cannot help. */
  get chatGone(): boolean {
    return this.errorCode === 403 || (this.errorCode === 400 && /chat not found|user not found|chat_id is empty/i.test(this.message));
  }
}

export interface TelegramUpdate {
  update_id: number;
  message?: { chat: { id: number }; text?: string };
}

export interface TelegramBot {
  username: string | null;
  sendMessage(chatId: string, text: string): Promise<void>;
  getUpdates(offset: number, timeoutSeconds: number): Promise<TelegramUpdate[]>;
}

export function createTelegramBot(config: TelegramConfig): TelegramBot {
  const call = async <T>(method: string, body: object, timeoutMs: number): Promise<T> => {
    const response = await fetch(`${config.apiUrl.replace(/\/+$/, '')}/bot${config.token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer = (await response.json().catch(() => null)) as { ok?: boolean; result?: T; error_code?: number; description?: string; parameters?: { retry_after?: number } } | null;
    if (answer?.ok) return answer.result as T;
    throw new TelegramError(answer?.error_code ?? response.status, answer?.description ?? `HTTP ${response.status}`, answer?.parameters?.retry_after ?? null);
  };
  return {
    username: config.username,
    sendMessage: async (chatId, text) => {
      await call('sendMessage', { chat_id: chatId, text, link_preview_options: { is_disabled: true } }, REQUEST_TIMEOUT_MS);
    },
    getUpdates: (offset, timeoutSeconds) => call<TelegramUpdate[]>('getUpdates', { offset, timeout: timeoutSeconds, allowed_updates: ['message'] }, timeoutSeconds * 1000 + REQUEST_TIMEOUT_MS),
  };
}

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

/** A new one-time code for the user and the link that sends it to the bot. */
export async function createLinkCode(db: DB, bot: TelegramBot, userId: string, now: Date): Promise<{ code: string; link: string; expires_at: string }> {
  const code = randomBytes(12).toString('base64url');
  const expiresAt = new Date(now.getTime() + LINK_CODE_TTL_MS);
  await db.deleteFrom('telegram_link_codes').where('expires_at', '<', now).execute();
  await db.insertInto('telegram_link_codes').values({ code_hash: hashOf(code), user_id: userId, expires_at: expiresAt }).execute();
  return { code, link: `https://t.me/${bot.username ?? 'bot'}?start=${code}`, expires_at: expiresAt.toISOString() };
}

/** Links the chat to the user of an unused, unexpired code; null when the code is not one. */
async function useLinkCode(db: DB, code: string, chatId: string, now: Date): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('telegram_link_codes')
      .set({ used_at: now })
      .where('code_hash', '=', hashOf(code))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!used) return null;
    await trx
      .insertInto('telegram_chats')
      .values({ user_id: used.user_id, chat_id: chatId })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ chat_id: chatId, blocked_at: null, linked_at: now }))
      .execute();
    return used.user_id;
  });
}

const START = /^\/start(?:@\w+)?(?:\s+(\S+))?\s*$/;

async function answerUpdate(db: DB, bot: TelegramBot, update: TelegramUpdate, now: Date): Promise<void> {
  const text = update.message?.text?.trim();
  const chatId = update.message?.chat.id;
  if (!text || chatId === undefined) return;
  const start = START.exec(text);
  if (!start) return;
  const code = start[1];
  const linked = code ? await useLinkCode(db, code, String(chatId), now) : null;
  const reply = linked ? m.telegramLinked : code ? m.telegramCodeInvalid : m.telegramHello;
  // The reply is a courtesy: a chat that cannot be answered is still linked (alerts will find out).
  await bot.sendMessage(String(chatId), reply).catch(() => undefined);
}

/**
 * One getUpdates round under the poll lease: links the chats that sent `/start <code>` and moves the
 * offset past what it read. False when another process holds the lease.
 */
export async function pollTelegramOnce(db: DB, bot: TelegramBot, options: { timeoutSeconds: number; now: () => Date }): Promise<boolean> {
  const leaseSeconds = options.timeoutSeconds + 30;
  const lease = await sql<{ next_update_id: string }>`
    UPDATE telegram_poll_state SET lease_until = now() + make_interval(secs => ${leaseSeconds})
     WHERE id AND (lease_until IS NULL OR lease_until < now())
     RETURNING next_update_id`.execute(db);
  const state = lease.rows[0];
  if (!state) return false;
  let offset = Number(state.next_update_id);
  try {
    const updates = await bot.getUpdates(offset, options.timeoutSeconds);
    for (const update of updates) {
      await answerUpdate(db, bot, update, options.now());
      offset = Math.max(offset, update.update_id + 1);
      // Saved per update: a crash midway does not link a chat twice or lose the rest.
      await db.updateTable('telegram_poll_state').set({ next_update_id: offset }).where('id', '=', true).execute();
    }
  } finally {
    await db.updateTable('telegram_poll_state').set({ lease_until: null }).where('id', '=', true).execute();
  }
  return true;
}

/** Polls for ever (25 s long polls) until stopped; an error waits 5 s (a 429 its retry_after). */
export function startTelegramPolling(db: DB, bot: TelegramBot, log?: { error: (obj: object, msg: string) => void }): () => void {
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      try {
        const polled = await pollTelegramOnce(db, bot, { timeoutSeconds: 25, now: () => new Date() });
        if (!polled) await pause(30_000);
      } catch (error) {
        log?.error({ err: error }, 'telegram getUpdates failed');
        await pause(error instanceof TelegramError && error.retryAfterSeconds ? error.retryAfterSeconds * 1000 : 5_000);
      }
    }
  };
  const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
  void loop();
  return () => {
    stopped = true;
  };
}

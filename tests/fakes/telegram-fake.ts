import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Telegram Bot API on 127.0.0.1, speaking its documented protocol:
 * - `POST /bot<token>/getUpdates {offset, timeout}`: the updates with `update_id >= offset` (earlier ones are
 *   confirmed and forgotten, as Telegram does); with none and `timeout > 0`, the answer waits up to that long
 *   for one (long polling);
 * - `POST /bot<token>/sendMessage {chat_id, text}`: `{ok: true, result: Message}`;
 * - errors are `{ok: false, error_code, description}` with the same HTTP status: 401 for a wrong token, 403
 *   `Forbidden: bot was blocked by the user` for a chat that blocked the bot, 400 `Bad Request: chat not
 *   found` for a chat that never talked to it, 429 `Too Many Requests: retry after N` with
 *   `parameters.retry_after` when `rateLimitNext(N)` was called.
 */
export interface FakeTelegram {
  url: string;
  token: string;
  /** Every message the bot sent, in order. */
  sent: { chat_id: string; text: string }[];
  /** Every call of sendMessage (answered or refused), per chat. */
  sendAttempts: Map<string, number>;
  /** A person writes to the bot from this chat (it becomes a known chat). */
  userSends(chatId: number, text: string): void;
  /** The person of this chat blocks the bot: sendMessage answers 403 from now on. */
  block(chatId: number | string): void;
  /** The next sendMessage answers 429 with `retry_after`. */
  rateLimitNext(retryAfterSeconds: number): void;
  close(): Promise<void>;
}

export async function startFakeTelegram(options: { token?: string } = {}): Promise<FakeTelegram> {
  const token = options.token ?? '123456:TEST-bot-token';
  const updates: { update_id: number; message: { message_id: number; chat: { id: number; type: 'private' }; date: number; text: string } }[] = [];
  const knownChats = new Set<string>();
  const blocked = new Set<string>();
  const waiting = new Set<() => void>();
  let nextUpdateId = 1000;
  let nextMessageId = 1;
  let limitNext: number | null = null;

  const fake: Omit<FakeTelegram, 'url' | 'close'> = {
    token,
    sent: [],
    sendAttempts: new Map(),
    userSends: (chatId, text) => {
      knownChats.add(String(chatId));
      updates.push({ update_id: nextUpdateId++, message: { message_id: nextMessageId++, chat: { id: chatId, type: 'private' }, date: Math.floor(Date.now() / 1000), text } });
      for (const wake of waiting) wake();
    },
    block: (chatId) => void blocked.add(String(chatId)),
    rateLimitNext: (seconds) => void (limitNext = seconds),
  };

  const answer = (res: ServerResponse, status: number, body: object) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, code: number, description: string, parameters?: object) => answer(res, code, { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });

  const readBody = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  };

  async function getUpdates(res: ServerResponse, body: Record<string, unknown>) {
    const offset = Number(body.offset ?? 0);
    // Telegram forgets the updates an offset confirms.
    while (updates.length > 0 && updates[0]!.update_id < offset) updates.shift();
    const timeout = Number(body.timeout ?? 0);
    if (updates.length === 0 && timeout > 0) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiting.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, timeout * 1000);
        waiting.add(wake);
      });
    }
    answer(res, 200, { ok: true, result: updates.filter((update) => update.update_id >= offset) });
  }

  function sendMessage(res: ServerResponse, body: Record<string, unknown>) {
    const chatId = String(body.chat_id ?? '');
    fake.sendAttempts.set(chatId, (fake.sendAttempts.get(chatId) ?? 0) + 1);
    if (limitNext !== null) {
      const seconds = limitNext;
      limitNext = null;
      return fail(res, 429, `Too Many Requests: retry after ${seconds}`, { retry_after: seconds });
    }
    if (typeof body.text !== 'string' || body.text.length === 0) return fail(res, 400, 'Bad Request: message text is empty');
    if (blocked.has(chatId)) return fail(res, 403, 'Forbidden: bot was blocked by the user');
    if (!knownChats.has(chatId)) return fail(res, 400, 'Bad Request: chat not found');
    fake.sent.push({ chat_id: chatId, text: body.text });
    answer(res, 200, { ok: true, result: { message_id: nextMessageId++, chat: { id: Number(chatId), type: 'private' }, date: Math.floor(Date.now() / 1000), text: body.text } });
  }

  const server = createServer((req, res) => {
    void (async () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      if (!match) return fail(res, 404, 'Not Found');
      if (match[1] !== token) return fail(res, 401, 'Unauthorized');
      const body = await readBody(req).catch(() => null);
      if (!body) return fail(res, 400, 'Bad Request: invalid JSON');
      if (match[2] === 'getUpdates') return getUpdates(res, body);
      if (match[2] === 'sendMessage') return sendMessage(res, body);
      return fail(res, 404, 'Not Found: method not found');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const wake of waiting) wake();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

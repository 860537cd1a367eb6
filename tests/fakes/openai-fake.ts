import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an OpenAI-compatible chat-completions API on 127.0.0.1 (real HTTP), answering in
 * the documented shapes:
 * - `POST /v1/chat/completions` → `{id, object: 'chat.completion', created, model, choices: [{index,
 *   message: {role: 'assistant', content}, finish_reason}], usage: {prompt_tokens, completion_tokens, total_tokens}}`;
 * - a wrong or missing bearer key → 401, an unknown model → 404, both as `{error: {message, type, code}}`;
 * - anything else → 404.
 * What the "model" writes is up to the test (`respond`), usually built from the prompt it received;
 * `hold()` keeps the next answer back until the test releases it.
 */

export interface FakeChatRequest {
  headers: Record<string, string | undefined>;
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    response_format?: { type?: string };
    [key: string]: unknown;
  };
}

export type FakeReply =
  /** The assistant message's text, wrapped in a normal completion. */
  | { content: string | null; status?: undefined }
  /** Any status and JSON body (a server error, a rate limit…), with extra headers (`retry-after`). */
  | { status: number; json: unknown; headers?: Record<string, string> }
  /** A status and a non-JSON body (a proxy's HTML page). */
  | { status: number; text: string };

export interface FakeOpenAi {
  /** Base address as LLM_API_URL takes it: `http://127.0.0.1:<port>/v1`. */
  url: string;
  apiKey: string;
  model: string;
  /** Every chat request received, in order. */
  requests: FakeChatRequest[];
  /** What the next requests are answered with (until set again). */
  respond: (reply: (request: FakeChatRequest) => FakeReply) => void;
  /** Holds the next request: `arrived` resolves when it comes in; `release()` lets the answer go. */
  hold: () => { arrived: Promise<FakeChatRequest>; release: () => void };
  close: () => Promise<void>;
}

/** Tokens as a rough 4-characters-a-token count, the way OpenAI's docs estimate them. */
const tokensOf = (text: string) => Math.ceil(text.length / 4);

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

const apiError = (message: string, type: string, code: string | null) => ({ error: { message, type, param: null, code } });

export async function startFakeOpenAi(options: { apiKey?: string; model?: string } = {}): Promise<FakeOpenAi> {
  const apiKey = options.apiKey ?? `sk-test-${randomUUID()}`;
  const model = options.model ?? 'fake-gpt-plan';
  const requests: FakeChatRequest[] = [];
  let reply: (request: FakeChatRequest) => FakeReply = () => ({ content: '{}' });
  const holds: { arrived: (request: FakeChatRequest) => void; released: Promise<void> }[] = [];

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
      return sendJson(response, 404, apiError(`Unknown request URL: ${request.method} ${url.pathname}`, 'invalid_request_error', 'unknown_url'));
    }
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      return sendJson(response, 401, apiError('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'));
    }
    let body: FakeChatRequest['body'];
    try {
      body = JSON.parse(await readBody(request)) as FakeChatRequest['body'];
    } catch {
      return sendJson(response, 400, apiError('We could not parse the JSON body of your request.', 'invalid_request_error', null));
    }
    if (body.model !== model) return sendJson(response, 404, apiError(`The model \`${String(body.model)}\` does not exist`, 'invalid_request_error', 'model_not_found'));
    const received: FakeChatRequest = { headers: { ...request.headers } as Record<string, string | undefined>, body };
    requests.push(received);

    const held = holds.shift();
    if (held) {
      held.arrived(received);
      await held.released;
    }
    if (response.destroyed) return;
    const answer = reply(received);
    if (answer.status !== undefined) {
      if ('json' in answer) return sendJson(response, answer.status, answer.json, answer.headers);
      response.writeHead(answer.status, { 'content-type': 'text/html' });
      return response.end(answer.text);
    }
    const promptText = (body.messages ?? []).map((message) => message.content).join('\n');
    const prompt_tokens = tokensOf(promptText);
    const completion_tokens = tokensOf(answer.content ?? '');
    sendJson(response, 200, {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: answer.content }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    apiKey,
    model,
    requests,
    respond: (next) => {
      reply = next;
    },
    hold: () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let arrived!: (request: FakeChatRequest) => void;
      const arrival = new Promise<FakeChatRequest>((resolve) => (arrived = resolve));
      holds.push({ arrived, released });
      return { arrived: arrival, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

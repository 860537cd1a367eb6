/**
 * The language model behind the AI plan: any OpenAI-compatible chat-completions API (OpenAI, vLLM,
 * llama.cpp server, Ollama's /v1, a corporate gateway) at `LLM_API_URL`. Nothing runs or downloads
 * locally. The answer is asked for as a JSON object (`response_format: json_object`); every way the call
 * can go wrong becomes an `LlmError` with a Russian message the run is failed (and refunded) with.
 */
import { setTimeout as delay } from 'node:timers/promises';
import * as v from 'valibot';
import { aiPlanMessages as m } from '../../contract/messages.js';
import type { AiPlanUsage } from '../../contract/ai-plan.js';
import type { LlmConfig } from '../config.js';
import type { ChatMessage } from './prompt.js';

/** A failure the user may read: the run ends with this message. */
export class LlmError extends Error {
  override name = 'LlmError';
}

export interface ChatCompletion {
  content: string;
  usage: AiPlanUsage | null;
}

const count = v.optional(v.nullable(v.number()));
/** The part of the chat-completions answer we read; everything else may vary between servers. */
const CompletionEnvelopeSchema = v.object({
  choices: v.pipe(v.array(v.object({ message: v.object({ content: v.nullable(v.string()) }) })), v.minLength(1)),
  usage: v.optional(v.nullable(v.object({ prompt_tokens: count, completion_tokens: count, total_tokens: count }))),
});

/** Longest piece of an error body quoted in the message (a proxy's HTML page says nothing useful). */
const ERROR_DETAIL_CHARS = 200;

function errorDetail(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string' && message.trim()) return `: ${message.trim().slice(0, ERROR_DETAIL_CHARS)}`;
  } catch {
    // not JSON: no detail
  }
  return '';
}

/**
 * How a call to the model is retried: 429 (rate limited) and 5xx (overloaded, a gateway hiccup) are
 * usually gone a moment later, so they are tried again up to `attempts` times in all, waiting the
 * server's `Retry-After` when it sends one, else an exponential back-off with full jitter (a random
 * wait between 0 and base·2ⁿ, capped — AWS's "exponential backoff and jitter"), so many runs failing at
 * once do not come back at once. Every try and wait fits in the one `LLM_TIMEOUT_MS` budget: a wait
 * that would end after it is not started. Other 4xx (a wrong key, an unknown model) are not retried.
 */
export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Waits `ms` unless `signal` aborts first; tests pass one that does not really wait. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter. */
  random: () => number;
}

export const defaultRetryPolicy: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 20_000,
  sleep: (ms, signal) => delay(ms, undefined, { signal }),
  random: Math.random,
};

/** Overrides of the retry policy for every call in this process (tests make the waits instant). */
export const llmRetrySettings: Partial<RetryPolicy> = {};

const isRetryable = (status: number) => status === 429 || status >= 500;

/** `Retry-After` in milliseconds (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** POST {apiUrl}/chat/completions with the prompt; the answer's text and the tokens it cost. */
export async function requestChatCompletion(
  llm: LlmConfig,
  messages: ChatMessage[],
  options: { signal?: AbortSignal; retry?: Partial<RetryPolicy> } = {},
): Promise<ChatCompletion> {
  const policy: RetryPolicy = { ...defaultRetryPolicy, ...llmRetrySettings, ...options.retry };
  const deadline = Date.now() + llm.timeoutMs;
  const timeout = AbortSignal.timeout(llm.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const timedOut = () => new LlmError(m.timeout.replace('{seconds}', String(Math.ceil(llm.timeoutMs / 1000))));
  let response!: Response;
  let text = '';
  for (let attempt = 1; ; attempt++) {
    try {
      response = await fetch(`${llm.apiUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}) },
        body: JSON.stringify({ model: llm.model, messages, response_format: { type: 'json_object' }, temperature: 0.2 }),
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (timeout.aborted) throw timedOut();
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new LlmError(m.network.replace('{reason}', cause?.code ?? cause?.message ?? (error as Error).message));
    }
    if (response.ok || !isRetryable(response.status) || attempt >= policy.attempts) break;
    const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    const wait = retryAfterMs(response.headers.get('retry-after')) ?? Math.floor(policy.random() * backoff);
    // A wait that would outlast the budget is pointless: answer with this error now.
    if (Date.now() + wait >= deadline) break;
    try {
      await policy.sleep(wait, signal);
    } catch {
      if (timeout.aborted) throw timedOut();
      throw new LlmError(m.network.replace('{reason}', 'aborted'));
    }
  }
  if (!response.ok) throw new LlmError(m.httpError.replace('{status}', String(response.status)).replace('{detail}', errorDetail(text)));

  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new LlmError(m.badEnvelope);
  }
  const envelope = v.safeParse(CompletionEnvelopeSchema, raw);
  if (!envelope.success) throw new LlmError(m.badEnvelope);
  const content = envelope.output.choices[0]!.message.content?.trim();
  if (!content) throw new LlmError(m.emptyAnswer);
  const usage = envelope.output.usage;
  return {
    content,
    usage: usage ? { prompt_tokens: usage.prompt_tokens ?? null, completion_tokens: usage.completion_tokens ?? null, total_tokens: usage.total_tokens ?? null } : null,
  };
}

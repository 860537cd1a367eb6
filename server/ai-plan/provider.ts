/**
 * The language model behind the AI plan: any OpenAI-compatible chat-completions API (OpenAI, vLLM,
 * llama.cpp server, Ollama's /v1, a corporate gateway) at `LLM_API_URL`. Nothing runs or downloads
 * locally. The answer is asked for as a JSON object (`response_format: json_object`); every way the call
 * can go wrong becomes an `LlmError` with a Russian message the run is failed (and refunded) with.
 */
import * as v from 'valibot';
import { aiPlanMessages as m } from '../../src/contract/messages.js';
import type { AiPlanUsage } from '../../src/contract/ai-plan.js';
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

/** POST {apiUrl}/chat/completions with the prompt; the answer's text and the tokens it cost. */
export async function requestChatCompletion(llm: LlmConfig, messages: ChatMessage[], options: { signal?: AbortSignal } = {}): Promise<ChatCompletion> {
  const timeout = AbortSignal.timeout(llm.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${llm.apiUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}) },
      body: JSON.stringify({ model: llm.model, messages, response_format: { type: 'json_object' }, temperature: 0.2 }),
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (timeout.aborted) throw new LlmError(m.timeout.replace('{seconds}', String(Math.ceil(llm.timeoutMs / 1000))));
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new LlmError(m.network.replace('{reason}', cause?.code ?? cause?.message ?? (error as Error).message));
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

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LlmError, requestChatCompletion, retryAfterMs, type RetryPolicy } from '../../../server/ai-plan/provider.js';
import type { LlmConfig } from '../../../server/config.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../../fakes/openai-fake.js';

const messages = [
  { role: 'system' as const, content: 'Ответь JSON' },
  { role: 'user' as const, content: 'Аудит: …' },
];

describe('requestChatCompletion against an OpenAI-compatible server on 127.0.0.1', () => {
  let fake: FakeOpenAi;
  let llm: LlmConfig;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    llm = { apiUrl: fake.url, apiKey: fake.apiKey, model: fake.model, timeoutMs: 10_000 };
  });
  afterAll(() => fake.close());

  it('asks for a JSON object with the model and the bearer key, and returns the text and the tokens spent', async () => {
    fake.respond(() => ({ content: ' {"steps": []} ' }));
    const completion = await requestChatCompletion(llm, messages);
    expect(completion).toEqual({ content: '{"steps": []}', usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 } });
    const request = fake.requests.at(-1)!;
    expect(request.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toMatchObject({ model: fake.model, messages, response_format: { type: 'json_object' } });
  });

  it.each([
    ['a server error', { status: 500, json: { error: { message: 'The server had an error while processing your request.' } } }, 'Языковая модель ответила ошибкой (HTTP 500): The server had an error while processing your request.'],
    ['a proxy page', { status: 502, text: '<html>Bad gateway</html>' }, 'Языковая модель ответила ошибкой (HTTP 502)'],
    ['an answer without choices', { status: 200, json: { id: 'x', object: 'chat.completion' } }, 'Ответ сервера языковой модели не похож на ответ chat completions (нет choices[0].message.content)'],
    ['an empty message', { content: null }, 'Языковая модель вернула пустой ответ'],
  ] as const)('turns %s into a Russian error', async (_name, reply, message) => {
    fake.respond(() => reply);
    // 5xx are retried first (below): without real waits here.
    await expect(requestChatCompletion(llm, messages, { retry: { sleep: async () => undefined } })).rejects.toThrow(new LlmError(message));
  });

  it('reports a wrong key and an unknown model with the server’s own words', async () => {
    await expect(requestChatCompletion({ ...llm, apiKey: 'sk-wrong' }, messages)).rejects.toThrow('Языковая модель ответила ошибкой (HTTP 401): Incorrect API key provided');
    await expect(requestChatCompletion({ ...llm, model: 'gpt-nope' }, messages)).rejects.toThrow('Языковая модель ответила ошибкой (HTTP 404): The model `gpt-nope` does not exist');
  });

  it('gives up after LLM_TIMEOUT_MS', async () => {
    const held = fake.hold();
    const call = requestChatCompletion({ ...llm, timeoutMs: 300 }, messages);
    await held.arrived;
    await expect(call).rejects.toThrow(new LlmError('Языковая модель не ответила за 1 с'));
    held.release();
  });

  it('says so when nothing listens at the address', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(requestChatCompletion({ ...llm, apiUrl: `http://127.0.0.1:${port}/v1` }, messages)).rejects.toThrow('Не удалось связаться с языковой моделью: ECONNREFUSED');
  });

  describe('retries 429 and 5xx with back-off (the waits recorded, not slept)', () => {
    /** A retry policy whose sleep only records the waits; jitter fixed at its maximum. */
    function recording(overrides: Partial<RetryPolicy> = {}) {
      const waits: number[] = [];
      const retry: Partial<RetryPolicy> = { sleep: async (ms) => void waits.push(ms), random: () => 0.999, ...overrides };
      return { waits, retry };
    }
    /** Answers the given replies in turn, then a normal completion. */
    function sequence(...replies: FakeReply[]) {
      let index = 0;
      fake.respond(() => replies[index++] ?? { content: '{"steps": []}' });
    }
    const overloaded = (status = 503, headers?: Record<string, string>): FakeReply => ({ status, json: { error: { message: 'overloaded' } }, headers });

    it('tries again after 5xx and 429, waiting exponentially longer with jitter, and returns the answer', async () => {
      sequence(overloaded(500), overloaded(502), overloaded(429));
      const before = fake.requests.length;
      const { waits, retry } = recording();
      const completion = await requestChatCompletion(llm, messages, { retry });
      expect(completion.content).toBe('{"steps": []}');
      expect(fake.requests.length - before).toBe(4);
      // Full jitter below 1 s, 2 s, 4 s.
      expect(waits).toEqual([999, 1998, 3996]);
      const jittered = recording({ random: () => 0.25 });
      sequence(overloaded(), overloaded());
      await requestChatCompletion(llm, messages, { retry: jittered.retry });
      expect(jittered.waits).toEqual([250, 500]);
    });

    it('waits what Retry-After says (seconds or a date)', async () => {
      sequence(overloaded(429, { 'retry-after': '3' }), overloaded(503, { 'retry-after': new Date(Date.now() + 5_000).toUTCString() }));
      const { waits, retry } = recording();
      await requestChatCompletion(llm, messages, { retry });
      expect(waits[0]).toBe(3000);
      expect(waits[1]).toBeGreaterThan(3000);
      expect(waits[1]).toBeLessThanOrEqual(5000);
      expect(retryAfterMs('1.5')).toBe(1500);
      expect(retryAfterMs('soon')).toBeNull();
    });

    it('gives up after 4 tries with the last error', async () => {
      fake.respond(() => overloaded(503));
      const before = fake.requests.length;
      const { waits, retry } = recording();
      await expect(requestChatCompletion(llm, messages, { retry })).rejects.toThrow(new LlmError('Языковая модель ответила ошибкой (HTTP 503): overloaded'));
      expect(fake.requests.length - before).toBe(4);
      expect(waits).toHaveLength(3);
    });

    it('does not retry other 4xx', async () => {
      fake.respond(() => ({ status: 400, json: { error: { message: 'Bad request' } } }));
      const before = fake.requests.length;
      const { waits, retry } = recording();
      await expect(requestChatCompletion(llm, messages, { retry })).rejects.toThrow('Языковая модель ответила ошибкой (HTTP 400): Bad request');
      await expect(requestChatCompletion({ ...llm, apiKey: 'sk-wrong' }, messages, { retry })).rejects.toThrow('(HTTP 401)');
      expect(fake.requests.length - before).toBe(1);
      expect(waits).toEqual([]);
    });

    it('stays within LLM_TIMEOUT_MS: a wait that would end after it is not started', async () => {
      sequence(overloaded(429, { 'retry-after': '60' }));
      const { waits, retry } = recording();
      await expect(requestChatCompletion({ ...llm, timeoutMs: 5_000 }, messages, { retry })).rejects.toThrow('(HTTP 429)');
      expect(waits).toEqual([]);
      // With the default (real) sleep, a wait cut by the budget ends as the timeout.
      sequence(overloaded(503), overloaded(503), overloaded(503));
      await expect(requestChatCompletion({ ...llm, timeoutMs: 200 }, messages, { retry: { random: () => 0, baseDelayMs: 150, sleep: (_ms, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))) } })).rejects.toThrow(
        new LlmError('Языковая модель не ответила за 1 с'),
      );
    });
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LlmError, requestChatCompletion } from '../../../server/ai-plan/provider.js';
import type { LlmConfig } from '../../../server/config.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../fakes/openai-fake.js';

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
    await expect(requestChatCompletion(llm, messages)).rejects.toThrow(new LlmError(message));
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
});

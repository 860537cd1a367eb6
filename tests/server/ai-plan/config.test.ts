import { describe, expect, it } from 'vitest';
import { llmConfigFromEnv, loadConfig } from '../../../server/config.js';

describe('LLM configuration from the environment', () => {
  it('is off without LLM_API_URL', () => {
    expect(llmConfigFromEnv({})).toBeNull();
    expect(llmConfigFromEnv({ LLM_API_URL: '  ', LLM_MODEL: 'x' })).toBeNull();
  });

  it('reads the base URL (trailing slashes dropped), key, model and timeout', () => {
    expect(llmConfigFromEnv({ LLM_API_URL: 'http://10.0.0.5:8000/v1/', LLM_API_KEY: 'sk-1', LLM_MODEL: 'qwen2.5-7b-instruct', LLM_TIMEOUT_MS: '30000' })).toEqual({
      apiUrl: 'http://10.0.0.5:8000/v1',
      apiKey: 'sk-1',
      model: 'qwen2.5-7b-instruct',
      timeoutMs: 30_000,
    });
    expect(llmConfigFromEnv({ LLM_API_URL: 'https://api.example.ru/v1', LLM_MODEL: 'm' })).toEqual({ apiUrl: 'https://api.example.ru/v1', apiKey: null, model: 'm', timeoutMs: 120_000 });
  });

  it('stops the server at start-up when half configured', () => {
    expect(() => llmConfigFromEnv({ LLM_API_URL: 'http://host/v1' })).toThrow(/LLM_MODEL/);
    expect(() => llmConfigFromEnv({ LLM_API_URL: 'host/v1', LLM_MODEL: 'm' })).toThrow(/LLM_API_URL is not a URL/);
    expect(() => llmConfigFromEnv({ LLM_API_URL: 'ftp://host/v1', LLM_MODEL: 'm' })).toThrow(/http/);
    expect(() => llmConfigFromEnv({ LLM_API_URL: 'http://host/v1', LLM_MODEL: 'm', LLM_TIMEOUT_MS: '0' })).toThrow(/LLM_TIMEOUT_MS/);
  });

  it('is part of the app configuration', () => {
    const config = loadConfig({ NODE_ENV: 'test', LLM_API_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'm' }, { jwtSecret: new Uint8Array(32), secretsKey: new Uint8Array(32) });
    expect(config.llm).toMatchObject({ apiUrl: 'http://127.0.0.1:9/v1', model: 'm' });
  });
});

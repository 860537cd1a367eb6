import { http, HttpResponse, delay } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiClient, buildUrl, refreshSession, setUnauthorizedHandler } from '@/lib/api-client';
import { server, useTestServer } from './test-server';

useTestServer();

const onUnauthorized = vi.fn();
beforeEach(() => {
  onUnauthorized.mockReset();
  setUnauthorizedHandler(onUnauthorized);
});
afterEach(() => setUnauthorizedHandler(null));

function storeTokens(access = 'old-access', refresh = 'old-refresh') {
  localStorage.setItem('access_token', access);
  localStorage.setItem('refresh_token', refresh);
}

describe('requests', () => {
  it('uses the same origin when VITE_API_URL is not set', () => {
    expect(buildUrl('/api/v1/tokens/balance')).toBe('/api/v1/tokens/balance');
  });

  it('takes the base address from VITE_API_URL when it is configured', async () => {
    vi.stubEnv('VITE_API_URL', 'https://api.reklama-lab.example/');
    try {
      expect(buildUrl('/api/v1/tokens/balance')).toBe('https://api.reklama-lab.example/api/v1/tokens/balance');
      let seen = '';
      server.use(
        http.get('https://api.reklama-lab.example/api/v1/tokens/balance', ({ request }) => {
          seen = request.url;
          return HttpResponse.json({ balance: 3 });
        }),
      );
      await expect(apiClient.get('/api/v1/tokens/balance', { params: { page: 1 } })).resolves.toEqual({ balance: 3 });
      expect(seen).toBe('https://api.reklama-lab.example/api/v1/tokens/balance?page=1');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('adds only the non-null query parameters', async () => {
    let seen = '';
    server.use(
      http.get('/api/v1/tokens/history', ({ request }) => {
        seen = new URL(request.url).search;
        return HttpResponse.json({ items: [] });
      }),
    );
    await apiClient.get('/api/v1/tokens/history', { params: { page: 2, type: null, from: undefined, to: '2025-01-31' } });
    expect(seen).toBe('?page=2&to=2025-01-31');
  });

  it('sends the stored access token as a bearer token', async () => {
    storeTokens('abc');
    let auth: string | null = null;
    server.use(
      http.get('/api/v1/auth/me', ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({ id: '1' });
      }),
    );
    await apiClient.get('/api/v1/auth/me');
    expect(auth).toBe('Bearer abc');
  });

  it('sends no Authorization header without a stored token', async () => {
    let auth: string | null = 'unset';
    server.use(
      http.get('/api/v1/ping', ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({});
      }),
    );
    await apiClient.get('/api/v1/ping');
    expect(auth).toBeNull();
  });

  it('sends JSON bodies as JSON', async () => {
    let received: unknown;
    let contentType: string | null = null;
    server.use(
      http.post('/api/v1/tokens/calculate-cost', async ({ request }) => {
        contentType = request.headers.get('content-type');
        received = await request.json();
        return HttpResponse.json({ total: 5 });
      }),
    );
    const answer = await apiClient.post<{ total: number }>('/api/v1/tokens/calculate-cost', { campaigns: [{ keywords_count: 1 }] });
    expect(contentType).toContain('application/json');
    expect(received).toEqual({ campaigns: [{ keywords_count: 1 }] });
    expect(answer.total).toBe(5);
  });

  it('sends form data as it is, with the multipart type the browser chooses', async () => {
    let contentType: string | null = null;
    let name: FormDataEntryValue | null = null;
    server.use(
      http.post('/api/v1/projects/import', async ({ request }) => {
        contentType = request.headers.get('content-type');
        name = (await request.formData()).get('name');
        return HttpResponse.json({ ok: true });
      }),
    );
    const form = new FormData();
    form.append('name', 'Кампания');
    await apiClient.post('/api/v1/projects/import', form);
    expect(contentType).toMatch(/^multipart\/form-data/);
    expect(name).toBe('Кампания');
  });

  it('sends URL-encoded form data as a form, not as JSON', async () => {
    let contentType: string | null = null;
    let text = '';
    server.use(
      http.post('/api/v1/forms/plain', async ({ request }) => {
        contentType = request.headers.get('content-type');
        text = await request.text();
        return HttpResponse.json({ ok: true });
      }),
    );
    await apiClient.post('/api/v1/forms/plain', new URLSearchParams({ email: 'anna@example.ru', name: 'Анна' }));
    expect(contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(new URLSearchParams(text).get('name')).toBe('Анна');
  });

  it('reads non-JSON responses as text', async () => {
    server.use(http.get('/api/v1/export.csv', () => HttpResponse.text('a;b\n1;2')));
    await expect(apiClient.get<string>('/api/v1/export.csv')).resolves.toBe('a;b\n1;2');
  });

  it('supports put, patch and delete', async () => {
    server.use(
      http.put('/api/v1/organizations/current', () => HttpResponse.json({ method: 'PUT' })),
      http.patch('/api/v1/things/1', () => HttpResponse.json({ method: 'PATCH' })),
      http.delete('/api/v1/organizations/members/7', () => new HttpResponse(null, { status: 204 })),
    );
    await expect(apiClient.put('/api/v1/organizations/current', { name: 'X' })).resolves.toEqual({ method: 'PUT' });
    await expect(apiClient.patch('/api/v1/things/1', {})).resolves.toEqual({ method: 'PATCH' });
    await expect(apiClient.delete('/api/v1/organizations/members/7')).resolves.toBeUndefined();
  });
});

describe('error catalogue (section 8)', () => {
  async function errorFor(body: unknown, status = 400): Promise<ApiError> {
    server.use(http.get('/api/v1/fail', () => (body === undefined ? new HttpResponse(null, { status }) : HttpResponse.json(body, { status }))));
    try {
      await apiClient.get('/api/v1/fail');
    } catch (error) {
      return error as ApiError;
    }
    throw new Error('expected a failure');
  }

  it('takes the message from the error field', async () => {
    const error = await errorFor({ error: 'Недостаточно прав', message: 'other' }, 403);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Недостаточно прав');
    expect(error.status).toBe(403);
    expect(error.body).toEqual({ error: 'Недостаточно прав', message: 'other' });
  });

  it('falls back to the message field', async () => {
    expect((await errorFor({ message: 'Что-то не так' })).message).toBe('Что-то не так');
  });

  it("says 'HTTP {status}' when the body has neither", async () => {
    expect((await errorFor(undefined, 502)).message).toBe('HTTP 502');
    expect((await errorFor({}, 500)).message).toBe('HTTP 500');
  });

  it("joins a detail array's msg, message or serialised items with ', '", async () => {
    const error = await errorFor({ error: 'Ошибка проверки', detail: [{ loc: ['email'], msg: 'Некорректный email' }, { message: 'Введите пароль' }, { code: 7 }] }, 422);
    expect(error.message).toBe('Некорректный email, Введите пароль, {"code":7}');
  });

  it('uses a string detail as it is', async () => {
    expect((await errorFor({ detail: 'Not Found' }, 404)).message).toBe('Not Found');
  });
});

describe('refresh on 401', () => {
  it('refreshes once, stores the new pair and retries the request with the new token', async () => {
    storeTokens();
    const refreshBodies: unknown[] = [];
    server.use(
      http.get('/api/v1/tokens/balance', ({ request }) =>
        request.headers.get('authorization') === 'Bearer new-access'
          ? HttpResponse.json({ balance: 42 })
          : HttpResponse.json({ error: 'Unauthorized' }, { status: 401 }),
      ),
      http.post('/api/v1/auth/refresh', async ({ request }) => {
        refreshBodies.push(await request.json());
        return HttpResponse.json({ access_token: 'new-access', refresh_token: 'new-refresh' });
      }),
    );
    await expect(apiClient.get('/api/v1/tokens/balance')).resolves.toEqual({ balance: 42 });
    expect(refreshBodies).toEqual([{ refresh_token: 'old-refresh' }]);
    expect(localStorage.getItem('access_token')).toBe('new-access');
    expect(localStorage.getItem('refresh_token')).toBe('new-refresh');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('retries only once: a second 401 is an ordinary error, with no second refresh', async () => {
    storeTokens();
    let refreshes = 0;
    let calls = 0;
    server.use(
      http.get('/api/v1/tokens/balance', () => {
        calls += 1;
        return HttpResponse.json({ error: 'Недостаточно прав' }, { status: 401 });
      }),
      http.post('/api/v1/auth/refresh', () => {
        refreshes += 1;
        return HttpResponse.json({ access_token: 'new-access', refresh_token: 'new-refresh' });
      }),
    );
    await expect(apiClient.get('/api/v1/tokens/balance')).rejects.toMatchObject({ status: 401 });
    expect(refreshes).toBe(1);
    expect(calls).toBe(2);
  });

  it("clears the tokens, goes to /auth and raises 'Unauthorized' when the refresh fails", async () => {
    storeTokens();
    server.use(
      http.get('/api/v1/tokens/balance', () => HttpResponse.json({ error: 'Unauthorized' }, { status: 401 })),
      http.post('/api/v1/auth/refresh', () => HttpResponse.json({ error: 'Сессия истекла, войдите снова' }, { status: 401 })),
    );
    await expect(apiClient.get('/api/v1/tokens/balance')).rejects.toThrow('Unauthorized');
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('by default the failed refresh sends the browser to /auth', async () => {
    setUnauthorizedHandler(null);
    const assign = vi.fn();
    const original = window.location;
    Object.defineProperty(window, 'location', { configurable: true, value: { ...original, pathname: '/projects', assign } });
    try {
      storeTokens();
      server.use(
        http.get('/api/v1/tokens/balance', () => HttpResponse.json({}, { status: 401 })),
        http.post('/api/v1/auth/refresh', () => HttpResponse.json({}, { status: 401 })),
      );
      await expect(apiClient.get('/api/v1/tokens/balance')).rejects.toThrow('Unauthorized');
      expect(assign).toHaveBeenCalledWith('/auth');
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: original });
    }
  });

  it("refuses to refresh without a stored refresh token: 'Refresh token not found'", async () => {
    localStorage.setItem('access_token', 'only-access');
    await expect(refreshSession()).rejects.toThrow('Refresh token not found');
  });

  it("a 401 with an access token but no refresh token ends in 'Unauthorized' and /auth", async () => {
    localStorage.setItem('access_token', 'only-access');
    server.use(http.get('/api/v1/tokens/balance', () => HttpResponse.json({}, { status: 401 })));
    await expect(apiClient.get('/api/v1/tokens/balance')).rejects.toThrow('Unauthorized');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not refresh a 401 of a request sent without a token (wrong password)', async () => {
    server.use(http.post('/api/v1/auth/login', () => HttpResponse.json({ error: 'Неверный email или пароль', code: 'INVALID_CREDENTIALS' }, { status: 401 })));
    await expect(apiClient.post('/api/v1/auth/login', { email: 'a@b.ru', password: 'x' })).rejects.toThrow('Неверный email или пароль');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('concurrent 401s share ONE refresh call and all succeed on retry', async () => {
    storeTokens();
    let refreshes = 0;
    server.use(
      http.get('/api/v1/things/:n', async ({ request, params }) => {
        if (request.headers.get('authorization') !== 'Bearer new-access') {
          await delay(Number(params.n) * 5);
          return HttpResponse.json({}, { status: 401 });
        }
        return HttpResponse.json({ n: Number(params.n) });
      }),
      http.post('/api/v1/auth/refresh', async () => {
        refreshes += 1;
        await delay(20);
        return HttpResponse.json({ access_token: 'new-access', refresh_token: 'new-refresh' });
      }),
    );
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => apiClient.get<{ n: number }>(`/api/v1/things/${n}`)));
    expect(answers.map((a) => a.n)).toEqual([1, 2, 3, 4, 5]);
    expect(refreshes).toBe(1);
  });
});

describe('downloads and event streams follow the same rule', () => {
  const refreshTo = (access: string) =>
    http.post('/api/v1/auth/refresh', () => HttpResponse.json({ access_token: access, refresh_token: 'new-refresh' }));

  it('a download that answers 401 refreshes once and gets the file with the new token', async () => {
    storeTokens();
    server.use(
      http.get('/api/v1/analyses/a1/export', ({ request }) =>
        request.headers.get('authorization') === 'Bearer new-access'
          ? new HttpResponse('Кампания;Фраза\n', { headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="changes.csv"' } })
          : HttpResponse.json({ error: 'Unauthorized' }, { status: 401 }),
      ),
      refreshTo('new-access'),
    );
    const { blob, headers } = await apiClient.download('/api/v1/analyses/a1/export', { params: { format: 'csv' } });
    expect(await blob.text()).toBe('Кампания;Фраза\n');
    expect(headers.get('content-disposition')).toContain('changes.csv');
    expect(localStorage.getItem('access_token')).toBe('new-access');
  });

  it("a download's error answer is an ApiError with the server's message", async () => {
    server.use(http.get('/api/v1/analyses/a1/export', () => HttpResponse.json({ error: 'Нет принятых изменений' }, { status: 422 })));
    await expect(apiClient.download('/api/v1/analyses/a1/export')).rejects.toMatchObject({ status: 422, message: 'Нет принятых изменений' });
  });

  it('an event stream that answers 401 refreshes once and opens with the new token', async () => {
    storeTokens();
    const accepts: (string | null)[] = [];
    server.use(
      http.get('/api/v1/analyses/a1/events', ({ request }) => {
        accepts.push(request.headers.get('accept'));
        return request.headers.get('authorization') === 'Bearer new-access'
          ? new HttpResponse('data: {"status":"running"}\n\n', { headers: { 'content-type': 'text/event-stream' } })
          : HttpResponse.json({ error: 'Unauthorized' }, { status: 401 });
      }),
      refreshTo('new-access'),
    );
    const response = await apiClient.stream('/api/v1/analyses/a1/events');
    expect(await response.text()).toBe('data: {"status":"running"}\n\n');
    expect(accepts).toEqual(['text/event-stream', 'text/event-stream']);
  });

  it('a stream whose refresh fails goes to /auth like any call', async () => {
    storeTokens();
    server.use(
      http.get('/api/v1/analyses/a1/events', () => HttpResponse.json({ error: 'Unauthorized' }, { status: 401 })),
      http.post('/api/v1/auth/refresh', () => HttpResponse.json({ error: 'Refresh token not found' }, { status: 401 })),
    );
    await expect(apiClient.stream('/api/v1/analyses/a1/events')).rejects.toMatchObject({ status: 401, message: 'Unauthorized' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('access_token')).toBeNull();
  });
});

describe('aborts and network failures', () => {
  it('re-raises an aborted request quietly: the AbortError itself, no redirect, no log', async () => {
    storeTokens();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.get('/api/v1/slow', async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    const pending = apiClient.get('/api/v1/slow', { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(error).not.toBeInstanceOf(ApiError);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
    expect(localStorage.getItem('access_token')).toBe('old-access');
    consoleError.mockRestore();
  });

  it("turns a network failure into 'Нет подключения к сети' (status 0)", async () => {
    server.use(http.get('/api/v1/offline', () => HttpResponse.error()));
    await expect(apiClient.get('/api/v1/offline')).rejects.toMatchObject({ message: 'Нет подключения к сети', status: 0 });
  });
});

import { http, HttpResponse } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { PageCheckList } from '@contract/page-check.js';
import type { ApiFile } from '@contract/routes/route.js';
import { routes } from '@contract/routes/index.js';
import { ApiError } from '@/lib/api-client';
import { callApi } from '@/lib/call-api';
import { ownerOrganization, server, useTestServer } from './test-server';

useTestServer();

const projectId = '33333333-3333-4333-8333-333333333333';

describe('callApi over the route table', () => {
  it('fills the path parameters, sends the query and answers the typed body', async () => {
    let seen = '';
    server.use(
      http.get('/api/v1/projects/:id/page-checks', ({ request }) => {
        seen = request.url;
        return HttpResponse.json({ items: [], total: 0, page: 1, page_size: 5 });
      }),
    );
    const list = await callApi(routes.pageCheck.list, { params: { id: projectId }, query: { page: 1, page_size: 5 } });
    expectTypeOf(list).toEqualTypeOf<PageCheckList>();
    expect(list.total).toBe(0);
    expect(new URL(seen).pathname).toBe(`/api/v1/projects/${projectId}/page-checks`);
    expect(new URL(seen).search).toBe('?page=1&page_size=5');
  });

  it('sends the JSON body with the entry’s method and encodes parameters', async () => {
    const seen: { method: string; path: string; body: unknown }[] = [];
    server.use(
      http.put('/api/v1/organizations/current', async ({ request }) => {
        seen.push({ method: request.method, path: new URL(request.url).pathname, body: await request.json() });
        return HttpResponse.json({ ...ownerOrganization, invitation_code: null });
      }),
      http.delete('/api/v1/organizations/members/:userId', ({ request }) => {
        seen.push({ method: request.method, path: new URL(request.url).pathname, body: null });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await callApi(routes.organizations.update, { body: { name: 'Лютик' } });
    await expect(callApi(routes.organizations.removeMember, { params: { userId: 'a/b' } })).resolves.toBeUndefined();
    expect(seen).toEqual([
      { method: 'PUT', path: '/api/v1/organizations/current', body: { name: 'Лютик' } },
      { method: 'DELETE', path: '/api/v1/organizations/members/a%2Fb', body: null },
    ]);
  });

  it('raises the server’s message as any call of the client', async () => {
    server.use(http.get('/api/v1/ai-plans/:id', () => HttpResponse.json({ error: 'План не найден', code: 'NOT_FOUND' }, { status: 404 })));
    const call = callApi(routes.aiPlan.get, { params: { id: projectId } });
    await expect(call).rejects.toBeInstanceOf(ApiError);
    await expect(call).rejects.toThrow('План не найден');
  });

  it('reads a file route through the download mode: the bytes and the headers, and the error body of a refusal', async () => {
    const paymentId = '0b6f8a4e-4a53-4c7a-9d0c-1d5c1f1b2a3c';
    server.use(
      http.get('/api/v1/tokens/invoices/:id/pdf', ({ params }) =>
        params.id === paymentId
          ? new HttpResponse('%PDF-1.3', { headers: { 'content-type': 'application/pdf', 'content-disposition': 'inline; filename="invoice-17.pdf"' } })
          : HttpResponse.json({ error: 'Счёт не найден', code: 'INVOICE_NOT_FOUND' }, { status: 404 }),
      ),
    );
    const file = await callApi(routes.payments.invoicePdf, { params: { id: paymentId }, mode: 'download' });
    expectTypeOf(file).toEqualTypeOf<ApiFile>();
    expect(await file.blob.text()).toBe('%PDF-1.3');
    expect(file.headers.get('content-disposition')).toContain('invoice-17.pdf');
    await expect(callApi(routes.payments.invoicePdf, { params: { id: projectId }, mode: 'download' })).rejects.toThrow('Счёт не найден');
  });

  it('needs the path parameters the entry declares (a compile-time error, and a thrown one)', () => {
    // @ts-expect-error: routes.aiPlan.get needs params.id
    expect(() => callApi(routes.aiPlan.get)).toThrow(/id/);
  });

  it('reads a file route in the download mode and an event stream in the stream mode, each refreshing once on a 401', async () => {
    localStorage.setItem('access_token', 'old-access');
    localStorage.setItem('refresh_token', 'old-refresh');
    const analysisId = '44444444-4444-4444-8444-444444444444';
    const seen: string[] = [];
    const authorized = (request: Request) => request.headers.get('authorization') === 'Bearer new-access';
    server.use(
      http.post('/api/v1/auth/refresh', () => HttpResponse.json({ access_token: 'new-access', refresh_token: 'new-refresh' })),
      http.get('/api/v1/analyses/:id/export', ({ request }) => {
        seen.push(`${new URL(request.url).pathname}${new URL(request.url).search}`);
        if (!authorized(request)) return HttpResponse.json({ error: 'Unauthorized', code: 'UNAUTHORIZED' }, { status: 401 });
        return new HttpResponse('Кампания;Фраза', { headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="changes.csv"' } });
      }),
      http.get('/api/v1/analyses/:id/events', ({ request }) =>
        authorized(request)
          ? new HttpResponse('event: done\ndata: {}\n\n', { headers: { 'content-type': 'text/event-stream' } })
          : HttpResponse.json({ error: 'Unauthorized', code: 'UNAUTHORIZED' }, { status: 401 }),
      ),
    );
    const file = await callApi(routes.analyses.export, { params: { id: analysisId }, query: { platform: 'yandex_direct', format: 'csv' }, mode: 'download' });
    expect(await file.blob.text()).toBe('Кампания;Фраза');
    expect(file.headers.get('content-disposition')).toContain('changes.csv');
    expect(seen).toEqual([`/api/v1/analyses/${analysisId}/export?platform=yandex_direct&format=csv`, `/api/v1/analyses/${analysisId}/export?platform=yandex_direct&format=csv`]);

    localStorage.setItem('access_token', 'old-access');
    const stream = await callApi(routes.analyses.events, { params: { id: analysisId }, mode: 'stream' });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect(await stream.text()).toContain('event: done');
  });
});

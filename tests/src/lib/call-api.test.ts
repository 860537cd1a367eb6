import { http, HttpResponse } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RelevanceList } from '../../../src/contract/relevance.js';
import { routes } from '../../../src/contract/routes/index.js';
import { ApiError } from '../../../src/lib/api-client';
import { callApi } from '../../../src/lib/call-api';
import { ownerOrganization, server, useTestServer } from './test-server';

useTestServer();

const projectId = '33333333-3333-4333-8333-333333333333';

describe('callApi over the route table', () => {
  it('fills the path parameters, sends the query and answers the typed body', async () => {
    let seen = '';
    server.use(
      http.get('/api/v1/projects/:id/page-relevance', ({ request }) => {
        seen = request.url;
        return HttpResponse.json({ items: [], total: 0, page: 1, page_size: 5 });
      }),
    );
    const list = await callApi(routes.relevance.list, { params: { id: projectId }, query: { page: 1, page_size: 5 } });
    expectTypeOf(list).toEqualTypeOf<RelevanceList>();
    expect(list.total).toBe(0);
    expect(new URL(seen).pathname).toBe(`/api/v1/projects/${projectId}/page-relevance`);
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

  it('needs the path parameters the entry declares (a compile-time error, and a thrown one)', () => {
    // @ts-expect-error: routes.aiPlan.get needs params.id
    expect(() => callApi(routes.aiPlan.get)).toThrow(/id/);
  });
});

/**
 * Route loaders: preloading a route (what hovering a link does, defaultPreload 'intent') fetches the
 * screen's first data into the query cache, not only its code; a failing or offline load never holds
 * or breaks the navigation (the screen shows its own error or offline state).
 */
import { QueryClient, onlineManager } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aiPlanKeys } from '../../../src/features/analysis/ai-plan/api';
import { organizationKeys } from '../../../src/features/organization/api';
import { relevanceKeys } from '../../../src/features/relevance/api';
import { ownerOrganization, server, useTestServer, verifiedUser } from '../lib/test-server';
import { createTestRouter, resetSession, signIn } from './router-harness';

useTestServer();

const projectId = '33333333-3333-4333-8333-333333333333';
const analysisId = '44444444-4444-4444-8444-444444444444';
const member = { user_id: verifiedUser.id, email: verifiedUser.email, first_name: 'Анна', last_name: 'Петрова', full_name: 'Анна Петрова', role: 'owner', joined_at: '2025-01-05T10:00:00Z' };

let requested: string[];
beforeEach(() => {
  resetSession();
  signIn(verifiedUser, ownerOrganization);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  requested = [];
  server.events.on('request:start', ({ request }) => void requested.push(new URL(request.url).pathname));
  server.use(
    http.get('/api/v1/organizations/current', () => HttpResponse.json({ ...ownerOrganization, invitation_code: 'JOIN-12345' })),
    http.get('/api/v1/organizations/members', () => HttpResponse.json({ members: [member] })),
    http.get('/api/v1/organizations/invitation-code', () => HttpResponse.json({ invitation_code: 'JOIN-12345' })),
    http.get('/api/v1/projects/:id/page-relevance/urls', () => HttpResponse.json({ urls: [], price_per_page: 1, balance: 10 })),
    http.get('/api/v1/projects/:id/page-relevance', () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 5 })),
    http.get('/api/v1/analyses/:id/ai-plans', () => HttpResponse.json({ available: true, price: 5, balance: 10, items: [] })),
  );
});
afterEach(() => {
  server.events.removeAllListeners();
  onlineManager.setOnline(true);
});

const freshClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

describe('route loaders of the converted screens', () => {
  it('preloading /organization fetches the organization, its members and the invitation code', async () => {
    const queryClient = freshClient();
    const router = createTestRouter('/about', queryClient);
    await router.load();
    await router.preloadRoute({ to: '/organization' });
    expect(queryClient.getQueryData(organizationKeys.members())).toEqual([member]);
    expect(queryClient.getQueryData(organizationKeys.invitationCode())).toBe('JOIN-12345');
    expect(queryClient.getQueryData(organizationKeys.current())).toMatchObject({ name: ownerOrganization.name });
  });

  it('preloading the page check form fetches the landing pages and the latest runs', async () => {
    const queryClient = freshClient();
    const router = createTestRouter('/about', queryClient);
    await router.load();
    await router.preloadRoute({ to: '/projects/$id/page-relevance/new', params: { id: projectId } });
    expect(requested).toEqual(expect.arrayContaining([`/api/v1/projects/${projectId}/page-relevance/urls`, `/api/v1/projects/${projectId}/page-relevance`]));
    expect(queryClient.getQueryData(relevanceKeys.urls(projectId))).toMatchObject({ price_per_page: 1 });
  });

  it('preloading the AI screen fetches the overview (the plan itself is polled by the screen)', async () => {
    const queryClient = freshClient();
    const router = createTestRouter('/about', queryClient);
    await router.load();
    await router.preloadRoute({ to: '/projects/$id/analysis/$analysisId/ai-analysis/$aiAnalysisId', params: { id: projectId, analysisId, aiAnalysisId: '55555555-5555-4555-8555-555555555555' } });
    expect(queryClient.getQueryData(aiPlanKeys.overview(analysisId))).toMatchObject({ price: 5 });
    expect(requested.filter((path) => path.startsWith('/api/v1/ai-plans/'))).toEqual([]);
  });

  it('a failing load leaves the navigation to the screen, not the router error page', async () => {
    server.use(http.get('/api/v1/organizations/members', () => HttpResponse.json({ error: 'Сбой', code: 'INTERNAL' }, { status: 500 })));
    const router = createTestRouter('/organization', freshClient());
    await router.load();
    expect(router.state.location.pathname).toBe('/organization');
    expect(router.state.matches.map((match) => match.status)).not.toContain('error');
  });

  it('offline, a navigation is not held waiting for the network and asks nothing', async () => {
    onlineManager.setOnline(false);
    const router = createTestRouter('/organization', freshClient());
    await router.load();
    expect(router.state.location.pathname).toBe('/organization');
    expect(requested.filter((path) => path.startsWith('/api/v1/organizations/members'))).toEqual([]);
  });
});

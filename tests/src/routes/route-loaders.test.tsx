/**
 * Route loaders: preloading a route (what hovering a link does, defaultPreload 'intent') fetches the
 * screen's first data into the query cache, not only its code; a failing or offline load never holds
 * or breaks the navigation (the screen shows its own error or offline state).
 */
import { QueryClient, onlineManager } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/app/query-client';
import { adminKeys } from '@/features/admin/api';
import { adminInvoiceKeys } from '@/features/admin/invoices/api';
import { aiPlanKeys } from '@/features/analysis/ai-plan/api';
import { analysisKeys } from '@/features/analysis/api';
import { pageKeys } from '@/features/analysis/pages-api';
import { organizationKeys } from '@/features/organization/api';
import { pageCheckKeys } from '@/features/page-check/api';
import { paymentKeys } from '@/lib/payments-api';
import { tokenKeys } from '@/lib/paid-runs';
import { renderAt } from '../auth/render-app';
import { ownerOrganization, server, useTestServer, verifiedUser } from '../lib/test-server';
import { screen, waitFor } from '@testing-library/react';
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
    http.get('/api/v1/projects/:id/page-checks/urls', () => HttpResponse.json({ urls: [], price_per_page: 1, balance: 10 })),
    http.get('/api/v1/projects/:id/page-checks', () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 5 })),
    http.get('/api/v1/analyses/:id/ai-plans', () => HttpResponse.json({ available: true, price: 5, balance: 10, items: [] })),
    http.get('/api/v1/tokens/balance', () => HttpResponse.json({ balance: 10 })),
    http.get('/api/v1/tokens/history', () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 20 })),
    http.get('/api/v1/tokens/packages', () => HttpResponse.json({ packages: [{ id: 'start', name: 'Старт', tokens: 500, price_rub: 990 }], methods: { card: false, invoice: true }, contact: 'support@reklama-lab.example' })),
    http.get('/api/v1/tokens/payments', () => HttpResponse.json({ items: [] })),
    http.get('/api/v1/admin/users', ({ request }) => HttpResponse.json({ items: [], total: 0, page: Number(new URL(request.url).searchParams.get('page')), page_size: 20 })),
    http.get('/api/v1/admin/overview', () =>
      HttpResponse.json({
        counts: { organizations: 1, users: 1, projects: 0, analyses: 0, analyses_by_status: {}, tokens_spent: 0 },
        recent_analyses: [],
        projects: { items: [], total: 0, page: 1, page_size: 20 },
      }),
    ),
    http.get('/api/v1/admin/stats', () => HttpResponse.json({ days: 30, signups: [], tokens: [], runs: [] })),
    http.get('/api/v1/admin/invoices', () => HttpResponse.json({ items: [] })),
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
    await router.preloadRoute({ to: '/projects/$id/page-check/new', params: { id: projectId } });
    expect(requested).toEqual(expect.arrayContaining([`/api/v1/projects/${projectId}/page-checks/urls`, `/api/v1/projects/${projectId}/page-checks`]));
    expect(queryClient.getQueryData(pageCheckKeys.urls(projectId))).toMatchObject({ price_per_page: 1 });
  });

  it('preloading the AI screen fetches the overview (the plan itself is polled by the screen)', async () => {
    const queryClient = freshClient();
    const router = createTestRouter('/about', queryClient);
    await router.load();
    await router.preloadRoute({ to: '/projects/$id/analysis/$analysisId/ai-plan/$aiPlanId', params: { id: projectId, analysisId, aiPlanId: '55555555-5555-4555-8555-555555555555' } });
    expect(queryClient.getQueryData(aiPlanKeys.overview(analysisId))).toMatchObject({ price: 5 });
    expect(requested.filter((path) => path.startsWith('/api/v1/ai-plans/'))).toEqual([]);
  });

  it('preloading /tokens fetches the packages, the payments and the spending', async () => {
    const queryClient = freshClient();
    const router = createTestRouter('/about', queryClient);
    await router.load();
    await router.preloadRoute({ to: '/tokens' });
    expect(queryClient.getQueryData(paymentKeys.packages())).toMatchObject({ methods: { invoice: true } });
    expect(queryClient.getQueryData(paymentKeys.payments())).toEqual([]);
    expect(queryClient.getQueryData(tokenKeys.spending(30))).toEqual([]);
  });

  it('opening /tokens asks for each list once: what the loader fetched is not asked again as the screen mounts', async () => {
    let firstLedgerPages = 0;
    server.use(
      http.get('/api/v1/tokens/history', ({ request }) => {
        // The ledger's first page; the spending chart and the header's notifications ask with `from`.
        if (!new URL(request.url).searchParams.has('from')) firstLedgerPages += 1;
        return HttpResponse.json({ items: [], total: 0, page: 1, page_size: 20 });
      }),
    );
    // The app's own client: its default staleTime is what keeps the loader's data for the screen.
    const { router } = await renderAt('/tokens', { queryClient: createQueryClient() });
    expect(await screen.findByRole('heading', { name: 'Пополнить баланс' })).toBeInTheDocument();
    const queryClient = router.options.context!.queryClient!;
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    const count = (path: string) => requested.filter((item) => item === path).length;
    expect(count('/api/v1/tokens/payments')).toBe(1);
    expect(count('/api/v1/tokens/packages')).toBe(1);
    expect(firstLedgerPages).toBe(1);
  });

  it('preloading an admin screen fetches its page with the search of the link; a non-admin is turned away first', async () => {
    signIn({ ...verifiedUser, role: 'admin' }, ownerOrganization);
    const queryClient = freshClient();
    const router = createTestRouter('/about', queryClient);
    await router.load();
    await router.preloadRoute({ to: '/admin/users', search: { page: 2, q: 'anna' } });
    expect(queryClient.getQueryData(adminKeys.users(2, 'anna', null))).toMatchObject({ page: 2 });
    await router.preloadRoute({ to: '/admin' });
    expect(queryClient.getQueryData(adminKeys.overview(1, null))).toMatchObject({ counts: { users: 1 } });
    expect(queryClient.getQueryData(adminKeys.stats(30))).toMatchObject({ days: 30 });
    await router.preloadRoute({ to: '/admin/invoices' });
    expect(queryClient.getQueryData(adminInvoiceKeys.list('pending'))).toEqual([]);

    signIn(verifiedUser, ownerOrganization);
    requested = [];
    const userRouter = createTestRouter('/about', freshClient());
    await userRouter.load();
    await userRouter.preloadRoute({ to: '/admin/users' }).catch(() => undefined);
    expect(requested.filter((path) => path.startsWith('/api/v1/admin/'))).toEqual([]);
  });

  it('preloading the analysis history fetches its first page', async () => {
    server.use(http.get('/api/v1/projects/:id/analyses', () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 20 })));
    const queryClient = freshClient();
    const router = createTestRouter('/about', queryClient);
    await router.load();
    await router.preloadRoute({ to: '/projects/$id/analysis/history', params: { id: projectId } });
    expect(queryClient.getQueryData(analysisKeys.history(projectId, { page: 1, status: null }))).toMatchObject({ total: 0 });
  });

  it('preloading the results fetches them and the plan overview; a filtered address fetches its findings; the semantic screen its suggestions', async () => {
    const results = { analysis: { id: analysisId }, summary: {}, findings: { items: [], total: 0, page: 1, page_size: 50 }, decisions: { accepted: 0, rejected: 0, blockedQueries: null } };
    const findingsQueries: string[] = [];
    const suggestionsQueries: string[] = [];
    server.use(
      http.get('/api/v1/analyses/:id/results', () => HttpResponse.json(results)),
      http.get('/api/v1/analyses/:id/findings', ({ request }) => {
        findingsQueries.push(new URL(request.url).search);
        return HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50 });
      }),
      http.get('/api/v1/analyses/:id/suggestions', ({ request }) => {
        suggestionsQueries.push(new URL(request.url).search);
        return HttpResponse.json({ items: [], total: 7, page: 1, page_size: 50 });
      }),
    );
    const queryClient = freshClient();
    const router = createTestRouter('/about', queryClient);
    await router.load();
    await router.preloadRoute({ to: '/projects/$id/analysis/$analysisId/results', params: { id: projectId, analysisId } });
    expect(queryClient.getQueryData(pageKeys.results(analysisId))).toMatchObject({ decisions: { accepted: 0 } });
    expect(queryClient.getQueryData(aiPlanKeys.overview(analysisId))).toMatchObject({ price: 5 });
    expect(findingsQueries).toEqual([]);

    await router.preloadRoute({ to: '/projects/$id/analysis/$analysisId/results', params: { id: projectId, analysisId }, search: { severity: ['high'] } });
    expect(findingsQueries).toEqual(['?severity=high&page=1&page_size=50']);

    await router.preloadRoute({ to: '/projects/$id/analysis/$analysisId/semantic', params: { id: projectId, analysisId }, search: { kind: ['negative_keyword'] } });
    expect(suggestionsQueries).toEqual(['?kind=negative_keyword&page=1&page_size=50']);
    expect(queryClient.getQueryData(pageKeys.suggestions(analysisId, { kind: ['negative_keyword'] }))).toMatchObject({ pages: [{ total: 7 }] });
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

/**
 * Route loaders of the projects screens: preloading the list (with its search and sort) or a project
 * (what hovering a link does) fetches the screen's first data into the query cache, not only its code;
 * a failing load leaves the screen to show its own error.
 */
import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { projectKeys } from '@/lib/projects-api';
import { ownerOrganization, server, useTestServer, verifiedUser } from '../lib/test-server';
import { createTestRouter, resetSession, signIn } from './router-harness';

useTestServer();

const projectId = '33333333-3333-4333-8333-333333333333';
const emptyList = { items: [], total: 0, page: 1, page_size: 100 };

let requested: URL[];
beforeEach(() => {
  resetSession();
  signIn(verifiedUser, ownerOrganization);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  requested = [];
  server.events.on('request:start', ({ request }) => void requested.push(new URL(request.url)));
  server.use(http.get('/api/v1/projects', () => HttpResponse.json(emptyList)));
});
afterEach(() => server.events.removeAllListeners());

const freshClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

describe('route loaders of the projects screens', () => {
  it('preloading the list fetches the projects with the search and sort of the link', async () => {
    const queryClient = freshClient();
    const router = createTestRouter('/about', queryClient);
    await router.load();
    await router.preloadRoute({ to: '/projects', search: { search: 'окна', sort: 'name' } });
    const list = requested.find((url) => url.pathname === '/api/v1/projects');
    expect(list?.searchParams.get('search')).toBe('окна');
    expect(list?.searchParams.get('sort')).toBe('name');
    expect(queryClient.getQueryData(projectKeys.list({ search: 'окна', sort: 'name' }))).toEqual(emptyList);
  });

  it('preloading a project fetches it', async () => {
    server.use(http.get('/api/v1/projects/:id', ({ params }) => HttpResponse.json({ id: params.id, name: 'Окна Москва' })));
    const queryClient = freshClient();
    const router = createTestRouter('/about', queryClient);
    await router.load();
    await router.preloadRoute({ to: '/projects/$id', params: { id: projectId } });
    expect(queryClient.getQueryData(projectKeys.detail(projectId))).toMatchObject({ name: 'Окна Москва' });
  });

  it('a project that fails to load leaves the navigation to the screen, not the router error page', async () => {
    server.use(http.get('/api/v1/projects/:id', () => HttpResponse.json({ error: 'Проект не найден', code: 'PROJECT_NOT_FOUND' }, { status: 404 })));
    const router = createTestRouter(`/projects/${projectId}`, freshClient());
    await router.load();
    expect(router.state.location.pathname).toBe(`/projects/${projectId}`);
    expect(router.state.matches.map((match) => match.status)).not.toContain('error');
  });
});

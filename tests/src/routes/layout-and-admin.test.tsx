import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../auth/render-app';
import { ownerOrganization, server, useTestServer, verifiedUser } from '../lib/test-server';
import { resetSession, signIn } from './router-harness';

useTestServer();
beforeEach(() => {
  resetSession();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  server.use(http.get('/api/v1/tokens/balance', () => HttpResponse.json({ balance: 100 })));
});

const admin = { ...verifiedUser, role: 'admin' as const };

describe('root layout', () => {
  it('shows the header, the page and the footer on a normal route', async () => {
    await renderAt('/about');
    expect(await screen.findByRole('heading', { name: 'О сервисе Reklama Lab' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it('hides the header on a route with staticData.hideHeader (/auth), keeping the footer', async () => {
    await renderAt('/auth');
    await screen.findByRole('tab', { name: 'Вход' });
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });
});

describe('admin screens', () => {
  it('the overview lists projects of every organization with a link to each', async () => {
    signIn(admin, ownerOrganization);
    server.use(
      http.get('/api/v1/admin/stats', () => HttpResponse.json({ users: 12, organizations: 4, projects: 9, analyses: 30 })),
      http.get('/api/v1/admin/projects', () =>
        HttpResponse.json({ items: [{ id: 'p1', name: 'Окна Москва', organization_name: 'Ромашка', created_at: '2025-03-01T10:00:00Z' }], total: 1, page: 1, page_size: 20 }),
      ),
    );
    await renderAt('/admin');
    expect(await screen.findByText('Окна Москва')).toBeInTheDocument();
    expect(screen.getByText('Пользователей')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Открыть' })).toHaveAttribute('href', '/admin/projects/p1');
  });

  it('the overview says so when there are no projects', async () => {
    signIn(admin, ownerOrganization);
    server.use(
      http.get('/api/v1/admin/stats', () => HttpResponse.json({}, { status: 404 })),
      http.get('/api/v1/admin/projects', () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 20 })),
    );
    await renderAt('/admin');
    expect(await screen.findByText('Проектов пока нет.')).toBeInTheDocument();
  });

  it('shows the error and retries on request', async () => {
    signIn(admin, ownerOrganization);
    let calls = 0;
    server.use(
      http.get('/api/v1/admin/stats', () => HttpResponse.json({}, { status: 404 })),
      http.get('/api/v1/admin/projects', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ error: 'Внутренняя ошибка сервера', code: 'INTERNAL' }, { status: 500 })
          : HttpResponse.json({ items: [{ id: 'p2', name: 'Двери' }], total: 1, page: 1, page_size: 20 });
      }),
    );
    await renderAt('/admin');
    expect(await screen.findByText('Внутренняя ошибка сервера', {}, { timeout: 5000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(await screen.findByText('Двери')).toBeInTheDocument();
  });

  it('a project, analysis or result the server does not know shows a clear not-found state', async () => {
    signIn(admin, ownerOrganization);
    server.use(http.get('/api/v1/admin/analyses/:id/results', () => HttpResponse.json({ error: 'Не найдено', code: 'NOT_FOUND' }, { status: 404 })));
    await renderAt('/admin/analyses/a1/results');
    expect(await screen.findByText('Данные не найдены или раздел ещё недоступен на сервере.')).toBeInTheDocument();
  });

  it('the analysis detail shows its fields and links to the results', async () => {
    signIn(admin, ownerOrganization);
    server.use(
      http.get('/api/v1/admin/analyses/:id', () => HttpResponse.json({ id: 'a1', project_id: 'p1', status: 'completed', score: 72 })),
    );
    await renderAt('/admin/analyses/a1');
    expect(await screen.findByText('completed')).toBeInTheDocument();
    expect(screen.getByText('Статус')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Результаты' })).toHaveAttribute('href', '/admin/analyses/a1/results'));
    expect(screen.getByRole('link', { name: /Анализы проекта/ })).toHaveAttribute('href', '/admin/projects/p1/analyses');
  });
});

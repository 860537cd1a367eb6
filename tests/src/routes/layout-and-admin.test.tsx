import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import * as v from 'valibot';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminAnalysisResponseSchema, AdminOverviewSchema, AdminProjectDetailSchema } from '@contract/admin.js';
import { AnalysisHistoryPageSchema, AnalysisResultsSchema } from '@contract/analysis.js';
import { renderAt } from '../auth/render-app';
import { ownerOrganization, server, useTestServer, verifiedUser } from '../lib/test-server';
import { resetSession, signIn } from './router-harness';

useTestServer();
beforeEach(() => {
  resetSession();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  server.use(
    http.get('/api/v1/tokens/balance', () => HttpResponse.json({ balance: 100 })),
    // The overview's charts (their own test: tests/src/admin/admin-area.test.tsx).
    http.get('/api/v1/admin/stats', () => HttpResponse.json({ days: 30, signups: [], tokens: [], runs: [] })),
  );
});

const admin = { ...verifiedUser, role: 'admin' as const };

describe('root layout', () => {
  it('shows the header, the page and the footer on a normal route', async () => {
    await renderAt('/about');
    expect(await screen.findByRole('heading', { name: 'О сервисе Reklama Lab' })).toBeInTheDocument();
    // The header's code loads on demand (it is not part of /auth's first load).
    expect(await screen.findByRole('banner')).toBeInTheDocument();
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
  // Every answer below is checked against the contract schemas the server's routes declare, so these
  // screens are tested against the API as it is, not as a test imagines it.
  const org = { id: '33333333-3333-4333-8333-333333333333', name: 'Ромашка' };
  const project = { id: '44444444-4444-4444-8444-444444444444', name: 'Окна Москва' };
  const analysisId = '55555555-5555-4555-8555-555555555555';
  const author = { id: verifiedUser.id, full_name: 'Анна Петрова' };
  const summary = {
    account_score: 64,
    campaigns: [{ key: 'c1', name: 'Окна — поиск', score: 58, findings: 7, money_per_month: 12_400 }],
    by_severity: { high: { count: 3, money_per_month: 12_400 }, medium: { count: 2, money_per_month: 0 }, low: { count: 2, money_per_month: 0 } },
    findings_count: 7,
    suggestions_count: 11,
    wasted_spend: { period: 12_400, per_month: 12_400 },
    period: null,
    counts: { campaigns: 1, groups: 2, ads: 3, keywords: 40, search_queries: 0 },
    notices: [{ code: 'no_conversions', message: 'В статистике нет конверсий: оценки по деньгам приблизительные.' }],
  };
  const analysis = {
    id: analysisId,
    project_id: project.id,
    kind: 'audit',
    status: 'completed',
    stage: 'done',
    progress: 100,
    progress_detail: null,
    options: { campaign_ids: ['c1'], settings: {}, target_cpa: null },
    cost: 13,
    score: 64,
    summary,
    error: null,
    author,
    created_at: '2025-03-02T09:00:00.000Z',
    started_at: '2025-03-02T09:00:01.000Z',
    finished_at: '2025-03-02T09:00:09.000Z',
  };
  const overview = (items = [{ ...project, site_url: 'okna.example.ru', platform: 'yandex_direct', organization: org, author, created_at: '2025-03-01T10:00:00.000Z', updated_at: '2025-03-01T10:00:00.000Z', analyses_count: 1, last_analysis: { id: analysisId, score: 64, created_at: analysis.created_at } }]) =>
    v.parse(AdminOverviewSchema, {
      counts: { organizations: 4, users: 12, projects: 9, analyses: 30, analyses_by_status: { queued: 0, running: 1, completed: 27, failed: 1, cancelled: 1 }, tokens_spent: 540 },
      recent_analyses: [{ id: analysisId, status: 'completed', score: 64, cost: 13, created_at: analysis.created_at, finished_at: analysis.finished_at, author, project, organization: org }],
      projects: { items, total: items.length, page: 1, page_size: 20 },
    });

  it('the overview shows the platform counts, the newest analyses and the projects of every organization', async () => {
    signIn(admin, ownerOrganization);
    const searches: (string | null)[] = [];
    server.use(
      http.get('/api/v1/admin/overview', ({ request }) => {
        searches.push(new URL(request.url).searchParams.get('search'));
        return HttpResponse.json(overview());
      }),
    );
    await renderAt('/admin');
    expect(await screen.findByText('Пользователей')).toBeInTheDocument();
    expect(screen.getByText('Потрачено токенов').previousSibling).toHaveTextContent('540');
    const recent = screen.getByRole('table', { name: 'Последние анализы' });
    expect(within(recent).getByText('Завершён')).toBeInTheDocument();
    expect(within(recent).getByRole('link', { name: 'Подробнее' })).toHaveAttribute('href', `/admin/analyses/${analysisId}`);
    const projects = screen.getByRole('table', { name: 'Проекты всех организаций' });
    expect(within(projects).getByText('Окна Москва')).toBeInTheDocument();
    expect(within(projects).getByText('Яндекс Директ')).toBeInTheDocument();
    expect(within(projects).getByRole('link', { name: 'Открыть' })).toHaveAttribute('href', `/admin/projects/${project.id}`);

    await userEvent.type(screen.getByRole('searchbox', { name: 'Поиск проектов' }), 'Ромашка');
    await userEvent.click(screen.getByRole('button', { name: 'Найти' }));
    await waitFor(() => expect(searches).toContain('Ромашка'));
  });

  it('the overview says so when there are no projects', async () => {
    signIn(admin, ownerOrganization);
    server.use(http.get('/api/v1/admin/overview', () => HttpResponse.json(overview([]))));
    await renderAt('/admin');
    expect(await screen.findByText('Проектов пока нет.')).toBeInTheDocument();
  });

  it('shows the error and retries on request', async () => {
    signIn(admin, ownerOrganization);
    let calls = 0;
    server.use(
      http.get('/api/v1/admin/overview', () => {
        calls += 1;
        // The route's loader asks first and the screen once more as it opens: both fail here.
        return calls <= 2 ? HttpResponse.json({ error: 'Внутренняя ошибка сервера', code: 'INTERNAL' }, { status: 500 }) : HttpResponse.json(overview());
      }),
    );
    await renderAt('/admin');
    expect(await screen.findByText('Внутренняя ошибка сервера', {}, { timeout: 5000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(within(await screen.findByRole('table', { name: 'Проекты всех организаций' })).getByText('Окна Москва')).toBeInTheDocument();
  });

  it('the project page shows its organization, settings and campaigns, and links to its analyses', async () => {
    signIn(admin, ownerOrganization);
    const detail = v.parse(AdminProjectDetailSchema, {
      ...project,
      site_url: 'okna.example.ru',
      platform: 'yandex_direct',
      region: 'Москва',
      target_cpa: 1500,
      author,
      created_at: '2025-03-01T10:00:00.000Z',
      updated_at: '2025-03-01T10:00:00.000Z',
      counts: { campaigns: 1, groups: 2, ads: 3, keywords: 40 },
      last_analysis: null,
      settings: {},
      stats: null,
      period: null,
      search_queries: 0,
      campaigns: [{ id: 'c1', external_id: '1001', name: 'Окна — поиск', type: 'search', groups_count: 2, ads_count: 3, keywords_count: 40, negative_keywords: 5, stats: null, groups: [] }],
      imports: [],
      connection: null,
      organization: org,
    });
    server.use(http.get('/api/v1/admin/projects/:id', () => HttpResponse.json(detail)));
    await renderAt(`/admin/projects/${project.id}`);
    expect(await screen.findByRole('heading', { name: 'Окна Москва' })).toBeInTheDocument();
    expect(screen.getByText('Ромашка')).toBeInTheDocument();
    expect(screen.getByText('1 500 ₽')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Кампании' })).getByText('Окна — поиск')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Анализы проекта' })).toHaveAttribute('href', `/admin/projects/${project.id}/analyses`);
  });

  it("the project's analyses are listed with status, score and a link to each", async () => {
    signIn(admin, ownerOrganization);
    const page = v.parse(AnalysisHistoryPageSchema, { items: [{ id: analysisId, created_at: analysis.created_at, author, status: 'failed', score: null, cost: 13, campaigns_count: 1, finished_at: null }], total: 1, page: 1, page_size: 20 });
    server.use(http.get('/api/v1/admin/projects/:id/analyses', () => HttpResponse.json(page)));
    await renderAt(`/admin/projects/${project.id}/analyses`);
    expect(await screen.findByText('Ошибка')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Подробнее' })).toHaveAttribute('href', `/admin/analyses/${analysisId}`);
  });

  it('the analysis detail shows its project, organization and status, and links to the results', async () => {
    signIn(admin, ownerOrganization);
    server.use(http.get('/api/v1/admin/analyses/:id', () => HttpResponse.json(v.parse(AdminAnalysisResponseSchema, { analysis, project, organization: org }))));
    await renderAt(`/admin/analyses/${analysisId}`);
    expect(await screen.findByText('Завершён')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Окна Москва' })).toHaveAttribute('href', `/admin/projects/${project.id}`);
    expect(screen.getByText('Ромашка')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Результаты' })).toHaveAttribute('href', `/admin/analyses/${analysisId}/results`);
    expect(screen.getByRole('link', { name: /Анализы проекта/ })).toHaveAttribute('href', `/admin/projects/${project.id}/analyses`);
  });

  it('a failed analysis shows its message and the reason code the server stored', async () => {
    signIn(admin, ownerOrganization);
    const failed = { ...analysis, status: 'failed', score: null, summary: null, error: 'Результат анализа слишком большой, чтобы его сохранить. Токены возвращены на баланс', error_code: 'RESULT_TOO_LARGE' };
    server.use(http.get('/api/v1/admin/analyses/:id', () => HttpResponse.json(v.parse(AdminAnalysisResponseSchema, { analysis: failed, project, organization: org }))));
    await renderAt(`/admin/analyses/${analysisId}`);
    expect(await screen.findByText('Результат слишком большой для сохранения (RESULT_TOO_LARGE)')).toBeInTheDocument();
    expect(screen.getByText(failed.error)).toBeInTheDocument();
  });

  it('the results show the account score, findings by severity, money lost and campaign scores', async () => {
    signIn(admin, ownerOrganization);
    server.use(http.get('/api/v1/admin/analyses/:id/results', () => HttpResponse.json(v.parse(AnalysisResultsSchema, { analysis, result: {}, decisions: { accepted: [], rejected: [] } }))));
    await renderAt(`/admin/analyses/${analysisId}/results`);
    expect(await screen.findByText('оценка аккаунта из 100')).toBeInTheDocument();
    expect(screen.getByText('Деньги уходят сейчас: 3, 12 400 ₽ в месяц')).toBeInTheDocument();
    expect(screen.getByText('В статистике нет конверсий: оценки по деньгам приблизительные.')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Оценки кампаний' })).getByText('Окна — поиск')).toBeInTheDocument();
  });

  it('results of an analysis that is not finished say so (409)', async () => {
    signIn(admin, ownerOrganization);
    server.use(http.get('/api/v1/admin/analyses/:id/results', () => HttpResponse.json({ error: 'Анализ ещё не завершён', code: 'ANALYSIS_NOT_COMPLETED' }, { status: 409 })));
    await renderAt(`/admin/analyses/${analysisId}/results`);
    expect(await screen.findByText('Анализ ещё не завершён')).toBeInTheDocument();
  });

  it('a project, analysis or result the server does not know shows a clear not-found state', async () => {
    signIn(admin, ownerOrganization);
    server.use(http.get('/api/v1/admin/analyses/:id/results', () => HttpResponse.json({ error: 'Анализ не найден', code: 'ANALYSIS_NOT_FOUND' }, { status: 404 })));
    await renderAt(`/admin/analyses/${analysisId}/results`);
    expect(await screen.findByText('Не найдено: такой записи нет или она удалена.')).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProjectDetail } from '../../../src/contract/projects.js';
import { renderAt } from '../auth/render-app';
import { ownerOrganization, server, useTestServer, verifiedUser } from '../lib/test-server';
import { resetSession, signIn } from '../routes/router-harness';

useTestServer();

const id = '44444444-4444-4444-8444-444444444444';
const campaignId = '77777777-7777-4777-8777-777777777777';
const detail: ProjectDetail = {
  id,
  name: 'Окна Плюс',
  site_url: 'https://okna-plus.ru',
  platform: 'yandex_direct',
  region: 'Москва',
  target_cpa: 1500,
  author: { id: verifiedUser.id, full_name: 'Анна Петрова' },
  created_at: '2025-02-01T10:00:00.000Z',
  updated_at: '2025-02-03T10:00:00.000Z',
  counts: { campaigns: 1, groups: 2, ads: 1, keywords: 3 },
  last_analysis: null,
  settings: {},
  stats: { impressions: 1400, clicks: 60, cost: 3200, conversions: 2 },
  period: { from: '2025-01-01', to: '2025-01-31' },
  search_queries: 0,
  campaigns: [
    {
      id: campaignId,
      external_id: '1001',
      name: 'Окна — поиск',
      type: 'search',
      groups_count: 2,
      ads_count: 1,
      keywords_count: 3,
      negative_keywords: 2,
      stats: { impressions: 1400, clicks: 60, cost: 3200, conversions: 2 },
      groups: [
        { name: 'Пластиковые окна', external_id: '2001', ads: 1, keywords: 2, negative_keywords: 1 },
        { name: 'Окна на дачу', external_id: null, ads: 0, keywords: 1, negative_keywords: 0 },
      ],
    },
  ],
  imports: [
    {
      id: '88888888-8888-4888-8888-888888888888',
      source: 'files',
      mode: 'create',
      status: 'completed',
      file_names: ['direct.xlsx'],
      counts: { campaigns: 1, groups: 2, ads: 1, keywords: 3, searchQueries: 0 },
      problems: [],
      created_by: { id: verifiedUser.id, full_name: 'Анна Петрова' },
      created_at: '2025-02-01T10:00:00.000Z',
    },
  ],
  connection: null,
};

beforeEach(() => {
  resetSession();
  signIn(verifiedUser, ownerOrganization);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  server.use(
    http.get('/api/v1/tokens/balance', () => HttpResponse.json({ balance: 100 })),
    http.get(`/api/v1/projects/${id}`, () => HttpResponse.json(detail)),
    http.get('/api/v1/projects', () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 100 })),
  );
});

describe('project detail', () => {
  it('shows the campaign tree, opens a group with its keywords, and links to the analyses', async () => {
    server.use(
      http.get(`/api/v1/projects/${id}/campaigns/${campaignId}`, () =>
        HttpResponse.json({
          id: campaignId,
          campaign: {
            name: 'Окна — поиск',
            negativeKeywords: [],
            groups: [
              {
                name: 'Пластиковые окна',
                negativeKeywords: ['ремонт'],
                keywords: [{ phrase: 'пластиковые окна', negativeWords: ['б/у'], matchType: 'broad' }],
                ads: [{ kind: 'text', headlines: ['Пластиковые окна', 'Скидка 20%'], texts: ['Установка за 1 день'], sitelinks: [], callouts: [] }],
              },
              { name: 'Окна на дачу', negativeKeywords: [], keywords: [], ads: [] },
            ],
          },
        }),
      ),
    );
    const user = userEvent.setup();
    await renderAt(`/projects/${id}`);
    expect(await screen.findByRole('heading', { name: 'Окна Плюс' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Новый анализ' })).toHaveAttribute('href', `/projects/${id}/analysis/new`);
    expect(screen.getByRole('link', { name: 'Релевантность страниц' })).toHaveAttribute('href', `/projects/${id}/page-relevance/new`);
    expect(screen.getByRole('link', { name: 'История анализов' })).toHaveAttribute('href', `/projects/${id}/analysis/history`);
    expect(screen.getByText('direct.xlsx', { exact: false })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Окна — поиск/ }));
    await user.click(screen.getByRole('button', { name: /Пластиковые окна/ }));
    expect(await screen.findByText('пластиковые окна')).toBeInTheDocument();
    expect(screen.getByText('-б/у')).toBeInTheDocument();
    expect(screen.getByText('Пластиковые окна — Скидка 20%')).toBeInTheDocument();
  });

  it('deletes the project only after confirmation', async () => {
    const deleted = vi.fn();
    server.use(
      http.delete(`/api/v1/projects/${id}`, () => {
        deleted();
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup();
    const { router } = await renderAt(`/projects/${id}`);
    await user.click(await screen.findByRole('button', { name: 'Удалить проект' }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByText(/Удалить проект\?/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(deleted).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Удалить проект' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects'));
    expect(deleted).toHaveBeenCalledTimes(1);
  });

  it('says so when the project does not exist (or belongs to another organization)', async () => {
    server.use(http.get(`/api/v1/projects/${id}`, () => HttpResponse.json({ error: 'Проект не найден', code: 'PROJECT_NOT_FOUND' }, { status: 404 })));
    await renderAt(`/projects/${id}`);
    expect(await screen.findByRole('heading', { name: 'Проект не найден' })).toBeInTheDocument();
  });
});

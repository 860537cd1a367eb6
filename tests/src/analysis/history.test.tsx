import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AnalysisHistoryItem } from '@contract/analysis.js';
import { onlineManager } from '@tanstack/react-query';
import { createQueryClient } from '@/app/query-client';
import { historyQueryOptions } from '@/features/analysis/api';
import { resultsQueryOptions } from '@/lib/analysis-results';
import { renderAt } from '../auth/render-app';
import { reloadedOffline } from '../lib/persisted-cache';
import { server, useTestServer, verifiedUser } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { analysisId, makeResults, projectId } from './fixtures';


useTestServer();

const item = (index: number, patch: Partial<AnalysisHistoryItem> = {}): AnalysisHistoryItem => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  created_at: `2025-03-${String(10 + (index % 10)).padStart(2, '0')}T09:30:00.000Z`,
  author: { id: 'u1', full_name: 'Анна Петрова' },
  status: 'completed',
  score: 60 + index,
  cost: 20,
  campaigns_count: 2,
  finished_at: '2025-03-10T09:35:00.000Z',
  ...patch,
});

let requests: URLSearchParams[];

beforeEach(() => {
  requests = [];
  signInOwner(
    http.get(`/api/v1/projects/${projectId}/analyses`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      requests.push(params);
      const page = Number(params.get('page'));
      if (params.get('author_id') === verifiedUser.id) {
        return HttpResponse.json({ items: [item(50, { author: { id: verifiedUser.id, full_name: 'Я Сам' } })], total: 1, page: 1, page_size: 20 });
      }
      if (params.get('status') === 'failed') {
        return HttpResponse.json({ items: [item(99, { status: 'failed', score: null })], total: 1, page: 1, page_size: 20 });
      }
      const items = page === 1 ? Array.from({ length: 20 }, (_, index) => item(index + 1, index === 0 ? { money_per_month: 5187 } : {})) : [item(21, { status: 'running', score: null })];
      return HttpResponse.json({ items, total: 21, page, page_size: 20 });
    }),
  );
});

describe('analysis history', () => {
  it('lists date, author, status, score and cost, and pages', async () => {
    const user = userEvent.setup();
    await renderAt(`/projects/${projectId}/analysis/history`);
    const rows = await screen.findAllByTestId('history-item');
    expect(rows).toHaveLength(20);
    expect(rows[0]).toHaveTextContent('Анна Петрова · 2 кампании · 20 токенов');
    expect(rows[0]).toHaveTextContent('Завершён');
    expect(rows[0]).toHaveTextContent('61 / 100');
    // The one money figure of each analysis that has it; older ones show the score alone.
    expect(within(rows[0]!).getByTestId('money-line')).toHaveTextContent('Теряете ≈ 5 187 ₽ в месяц');
    expect(within(rows[1]!).queryByTestId('money-line')).not.toBeInTheDocument();
    expect(within(rows[0]).getByRole('link', { name: 'Результаты' })).toHaveAttribute(
      'href',
      `/projects/${projectId}/analysis/${item(1).id}/results`,
    );
    expect(screen.getByText('Страница 1 из 2')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Вперёд' }));
    await waitFor(() => expect(screen.getAllByTestId('history-item')).toHaveLength(1));
    const last = screen.getByTestId('history-item');
    expect(last).toHaveTextContent('Выполняется');
    expect(within(last).getByRole('link', { name: 'Ход анализа' })).toBeInTheDocument();
    expect(requests.at(-1)?.get('page')).toBe('2');
    expect(requests.at(-1)?.get('page_size')).toBe('20');
    expect(screen.getByRole('button', { name: 'Вперёд' })).toBeDisabled();
  });

  it('filters by status from the first page', async () => {
    const user = userEvent.setup();
    await renderAt(`/projects/${projectId}/analysis/history`);
    await screen.findAllByTestId('history-item');
    await user.click(screen.getByRole('button', { name: 'Вперёд' }));
    await waitFor(() => expect(screen.getAllByTestId('history-item')).toHaveLength(1));

    await user.selectOptions(screen.getByLabelText('Статус'), 'Ошибка');
    await waitFor(() => expect(screen.getByTestId('history-item')).toHaveTextContent('Ошибка'));
    expect(requests.at(-1)?.get('status')).toBe('failed');
    expect(requests.at(-1)?.get('page')).toBe('1');
    expect(screen.getByTestId('history-item')).toHaveTextContent('—');
  });

  it('filters by author: «Мои анализы» asks for the signed-in user’s only', async () => {
    const user = userEvent.setup();
    await renderAt(`/projects/${projectId}/analysis/history`);
    await screen.findAllByTestId('history-item');
    expect(requests.at(-1)?.get('author_id')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Автор'), 'Мои анализы');
    await waitFor(() => expect(screen.getByTestId('history-item')).toHaveTextContent('Я Сам'));
    expect(requests.at(-1)?.get('author_id')).toBe(verifiedUser.id);
    expect(requests.at(-1)?.get('page')).toBe('1');
  });

  it('is kept on disk and comes back after a reload without network, with the results answers opened (small since they are paged)', async () => {
    server.use(http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults())));
    const before = createQueryClient();
    const page = await before.fetchQuery(historyQueryOptions(projectId, { page: 1, status: null }));
    await before.fetchQuery(resultsQueryOptions(analysisId));
    try {
      const afterReload = await reloadedOffline(before);
      expect(afterReload.getQueryData(historyQueryOptions(projectId, { page: 1, status: null }).queryKey)).toEqual(page);
      expect(afterReload.getQueryData(resultsQueryOptions(analysisId).queryKey)).toEqual(makeResults());
    } finally {
      onlineManager.setOnline(true);
    }
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../auth/render-app';
import { ownerOrganization, server, useTestServer, verifiedUser } from '../lib/test-server';
import { resetSession, signIn } from '../routes/router-harness';
import { analysisId, makeResults, projectId } from './fixtures';

useTestServer();

const resultsPath = `/projects/${projectId}/analysis/${analysisId}/results`;

beforeEach(() => {
  resetSession();
  signIn(verifiedUser, ownerOrganization);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  server.use(
    http.get('/api/v1/tokens/balance', () => HttpResponse.json({ balance: 100 })),
    http.get(`/api/v1/analyses/${analysisId}/results`, () =>
      HttpResponse.json(makeResults({ decisions: { accepted: ['s-free', 's-cross'], rejected: ['s-jobs'] } })),
    ),
  );
});

describe('results', () => {
  it('puts the money first, then the score gauge, campaign scores and issues grouped by severity', async () => {
    await renderAt(resultsPath);
    expect(await screen.findByTestId('wasted-per-month')).toHaveTextContent('3 290 ₽ в месяц');
    expect(screen.getByRole('img', { name: 'Оценка аккаунта: 64 из 100' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Оценки кампаний из 100' })).toBeInTheDocument();
    expect(screen.getByText('Окна — РСЯ: 91 из 100')).toBeInTheDocument();

    const high = screen.getByTestId('severity-high');
    expect(within(high).getByRole('heading')).toHaveTextContent('Деньги уходят сейчас 1 · 3 290 ₽ в месяц');
    expect(within(screen.getByTestId('severity-medium')).getByText('Низкий CTR на поиске')).toBeInTheDocument();
    expect(within(screen.getByTestId('severity-low')).getByText('Заголовок длиннее лимита')).toBeInTheDocument();

    // Each example shows its numbers with the threshold, the period and the money.
    const example = within(high).getByTestId('finding');
    expect(example).toHaveTextContent('Клики42 клика (порог 30 кликов)');
    expect(example).toHaveTextContent('Расход без конверсий3 400 ₽ (порог 3 000 ₽)');
    expect(example).toHaveTextContent('3 290 ₽ в месяц');
    expect(example).toHaveTextContent('период 01.01.2025 — 31.01.2025');
    expect(within(screen.getByTestId('severity-medium')).getByTestId('finding')).toHaveTextContent('CTR1,2 % (порог 2 %)');
  });

  it('reflects the accepted decisions and downloads the export with the bearer token', async () => {
    const user = userEvent.setup();
    const createObjectURL = vi.fn(() => 'blob:export');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    let seen: { auth: string | null; url: string } | null = null;
    server.use(
      http.get(`/api/v1/analyses/${analysisId}/export`, ({ request }) => {
        seen = { auth: request.headers.get('authorization'), url: request.url };
        return new HttpResponse('Кампания;Минус-слова\n', {
          headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': "attachment; filename*=UTF-8''direct-changes.csv" },
        });
      }),
    );
    await renderAt(resultsPath);
    expect(await screen.findByText(/Принято 2 изменения: минус-слова — 1, кросс-минусовка и дубли — 1, объявления — 0/)).toBeInTheDocument();
    expect(screen.getByText(/Минус-слова отсекут запросы на 870 ₽ в месяц/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Яндекс Директ, CSV' }));
    await waitFor(() => expect(clicked).toEqual(['direct-changes.csv']));
    expect(seen).toEqual({ auth: 'Bearer access-1', url: expect.stringContaining('platform=yandex_direct&format=csv') });
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    expect(await blob.text()).toBe('Кампания;Минус-слова\n');
    expect(screen.getByRole('button', { name: 'Google Ads Editor, CSV' })).toBeEnabled();
  });

  it('disables the export until something is accepted', async () => {
    server.use(http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults())));
    await renderAt(resultsPath);
    expect(await screen.findByText('Пока не принято ни одного предложения: выгружать нечего.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Яндекс Директ, XLSX' })).toBeDisabled();
  });

  it('leads through «AI-анализ» to the action plan built from the findings, biggest roubles per month first, without pretending to be AI', async () => {
    // The server has no language model configured (the AI plan itself is tested in tests/src/ai-plan).
    server.use(http.get(`/api/v1/analyses/${analysisId}/ai-plans`, () => HttpResponse.json({ available: false, unavailable_reason: 'не настроена', price: 10, balance: 100, items: [] })));
    const user = userEvent.setup();
    const { router } = await renderAt(resultsPath);
    await user.click(await screen.findByRole('link', { name: 'AI-анализ' }));
    expect(await screen.findByRole('heading', { name: 'План действий по результатам аудита' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/projects/${projectId}/analysis/${analysisId}/ai-analysis/${analysisId}`);
    expect(screen.getByRole('note')).toHaveTextContent('AI-анализ с языковой моделью на этом сервере не подключён');
    const steps = screen.getAllByTestId('plan-step');
    expect(steps.map((step) => within(step).getByRole('heading').textContent)).toEqual([
      '1. Расход без конверсий',
      '2. Низкий CTR на поиске',
      '3. Заголовок длиннее лимита',
    ]);
    expect(steps[0]).toHaveTextContent('3 290 ₽ в месяц');
    expect(steps[0]).toHaveTextContent('Что сделать: Остановите фразу «окна бесплатно» или снизьте ставку.');
  });
});

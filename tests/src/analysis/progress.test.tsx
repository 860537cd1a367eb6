import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Analysis } from '@contract/analysis.js';
import { clearNotifications, notificationStore, notificationsAtom } from '@/app/notifications';
import { renderAt } from '../auth/render-app';
import { controlledStream } from '../lib/event-stream';
import { server, useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { analysisId, makeAnalysis, makeResults, projectId } from './fixtures';

useTestServer();

const progressPath = `/projects/${projectId}/analysis/${analysisId}/scoring-progress`;
const resultsPath = `/projects/${projectId}/analysis/${analysisId}/results`;
const running = (progress: number, extra: Partial<Analysis> = {}) =>
  makeAnalysis({ status: 'running', stage: 'lemmatize', progress, progress_detail: { stage: 'lemmatize', done: progress * 10, total: 1000 }, ...extra });
const event = (name: string, analysis: Analysis) => `event: ${name}\ndata: ${JSON.stringify({ analysis })}\n\n`;

const notifications = () => notificationStore.get(notificationsAtom);

beforeEach(() => {
  clearNotifications();
  signInOwner(
    http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults())),
    http.put(`/api/v1/analyses/${analysisId}/decisions`, async ({ request }) => HttpResponse.json({ decisions: await request.json() })),
  );
});

afterEach(() => {
  vi.useRealTimers();
});

describe('scoring progress', () => {
  it('shows stage, percent and counts from the event stream, then opens the results it announced and notifies once', async () => {
    const stream = controlledStream();
    let current = running(10);
    server.use(
      http.get(`/api/v1/analyses/${analysisId}`, () => HttpResponse.json({ analysis: current })),
      http.get(`/api/v1/analyses/${analysisId}/events`, ({ request }) => {
        expect(request.headers.get('authorization')).toBe('Bearer access-1');
        return stream.response();
      }),
    );
    const { router } = await renderAt(progressPath);
    expect(await screen.findByTestId('analysis-percent')).toHaveTextContent('10 %');
    expect(screen.getByText('Обновляется в реальном времени', { exact: false })).toBeInTheDocument();

    // An event cut in the middle still arrives whole.
    const text = event('progress', running(40));
    stream.push(text.slice(0, 25));
    stream.push(text.slice(25));
    await waitFor(() => expect(screen.getByTestId('analysis-percent')).toHaveTextContent('40 %'));
    expect(screen.getByTestId('analysis-stage')).toHaveTextContent('Лемматизация ключевых фраз и запросов');
    expect(screen.getByText(/400 из 1 000/)).toBeInTheDocument();

    current = makeAnalysis({ status: 'completed', stage: 'done', progress: 100, score: 64 });
    stream.push(event('done', current));
    stream.close();
    expect(await screen.findByText('Анализ завершён. Открываем результаты…')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe(resultsPath), { timeout: 3000 });

    expect(notifications()).toHaveLength(1);
    expect(notifications()[0]).toMatchObject({ title: 'Анализ завершён', message: 'Результаты аудита готовы. Оценка аккаунта: 64 из 100.' });
    expect(screen.getByRole('button', { name: 'Уведомления: непрочитанных 1' })).toBeInTheDocument();

    // Coming back to the finished run adds nothing.
    await act(() => router.navigate({ to: '/projects/$id/analysis/$analysisId/scoring-progress', params: { id: projectId, analysisId } }));
    await screen.findByText('Анализ завершён. Открываем результаты…');
    expect(notifications()).toHaveLength(1);
  });

  it('falls back to polling every 2 seconds when the stream answers 401', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const states = [running(20), running(55), makeAnalysis({ status: 'completed', stage: 'done', progress: 100, score: 70 })];
    let polls = 0;
    server.use(
      http.get(`/api/v1/analyses/${analysisId}/events`, () => new HttpResponse(null, { status: 401 })),
      http.get(`/api/v1/analyses/${analysisId}`, () => {
        const state = states[Math.min(polls, states.length - 1)];
        polls += 1;
        return HttpResponse.json({ analysis: state });
      }),
    );
    const { router } = await renderAt(progressPath);
    expect(await screen.findByTestId('analysis-percent')).toHaveTextContent('20 %');
    expect(await screen.findByText('Обновляется каждые 2 секунды', { exact: false })).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(2000));
    await waitFor(() => expect(screen.getByTestId('analysis-percent')).toHaveTextContent('55 %'));

    await act(() => vi.advanceTimersByTimeAsync(2000));
    await waitFor(() => expect(screen.getByTestId('analysis-percent')).toHaveTextContent('100 %'));
    const pollsWhenDone = polls;

    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(router.state.location.pathname).toBe(resultsPath));
    // Finished: no more polling.
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(polls).toBe(pollsWhenDone);
    expect(notifications()[0]).toMatchObject({ title: 'Анализ завершён' });
  });

  it('shows the error of a failed run, says the tokens were refunded, and notifies', async () => {
    const stream = controlledStream();
    server.use(
      http.get(`/api/v1/analyses/${analysisId}`, () => HttpResponse.json({ analysis: running(30) })),
      http.get(`/api/v1/analyses/${analysisId}/events`, () => stream.response()),
    );
    await renderAt(progressPath);
    await screen.findByText('30 %');
    stream.push(event('done', makeAnalysis({ status: 'failed', stage: 'scoring', progress: 70, error: 'Анализ прерван перезапуском сервера' })));
    stream.close();

    const alert = await screen.findByText('Анализ прерван перезапуском сервера. Токены возвращены на баланс');
    expect(alert.closest('[role="alert"]')).not.toBeNull();
    expect(screen.getByRole('link', { name: 'Запустить заново' })).toHaveAttribute('href', `/projects/${projectId}/analysis/new`);
    expect(notifications()).toEqual([expect.objectContaining({ title: 'Анализ не выполнен', message: 'Анализ прерван перезапуском сервера. Токены возвращены на баланс' })]);
  });

  it('cancels a running analysis after a confirmation', async () => {
    const user = userEvent.setup();
    const stream = controlledStream();
    let cancelled = 0;
    server.use(
      http.get(`/api/v1/analyses/${analysisId}`, () => HttpResponse.json({ analysis: running(30) })),
      http.get(`/api/v1/analyses/${analysisId}/events`, () => stream.response()),
      http.post(`/api/v1/analyses/${analysisId}/cancel`, () => {
        cancelled += 1;
        return HttpResponse.json({ analysis: makeAnalysis({ status: 'cancelled', progress: 30 }) });
      }),
    );
    await renderAt(progressPath);
    await user.click(await screen.findByRole('button', { name: 'Отменить анализ' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(dialog.querySelector('.btn--danger') as HTMLElement);

    expect(await screen.findByText('Анализ отменён. Токены возвращены на баланс.')).toBeInTheDocument();
    expect(cancelled).toBe(1);
    expect(screen.queryByRole('button', { name: 'Отменить анализ' })).not.toBeInTheDocument();
    expect(notifications()).toHaveLength(0);
  });

  /** A running analysis on screen; the header's balance is 100 until `refund()` books its tokens back (130). */
  async function watchedWithBalance() {
    const stream = controlledStream();
    let refunded = false;
    const refund = () => (refunded = true);
    server.use(
      http.get('/api/v1/tokens/balance', () => HttpResponse.json({ balance: refunded ? 130 : 100 })),
      http.get(`/api/v1/analyses/${analysisId}`, () => HttpResponse.json({ analysis: running(30) })),
      http.get(`/api/v1/analyses/${analysisId}/events`, () => stream.response()),
      http.post(`/api/v1/analyses/${analysisId}/cancel`, () => {
        refund();
        return HttpResponse.json({ analysis: makeAnalysis({ status: 'cancelled', progress: 30 }) });
      }),
    );
    await renderAt(progressPath);
    await screen.findByText('30 %');
    await waitFor(() => expect(screen.getByTestId('balance-value')).toHaveTextContent(/^100$/));
    return { stream, refund };
  }

  it('shows the refund in the header at once after a cancel', async () => {
    const user = userEvent.setup();
    await watchedWithBalance();
    await user.click(await screen.findByRole('button', { name: 'Отменить анализ' }));
    await user.click((await screen.findByRole('alertdialog')).querySelector('.btn--danger') as HTMLElement);
    await waitFor(() => expect(screen.getByTestId('balance-value')).toHaveTextContent(/^130$/));
  });

  it('refreshes the header balance when the watched run fails (its tokens came back)', async () => {
    const { stream, refund } = await watchedWithBalance();
    refund();
    stream.push(event('done', makeAnalysis({ status: 'failed', stage: 'scoring', progress: 70, error: 'Анализ прерван перезапуском сервера' })));
    stream.close();
    await waitFor(() => expect(screen.getByTestId('balance-value')).toHaveTextContent(/^130$/));
  });
});

import { act, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { onlineManager, QueryClientProvider } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AiPlanOverview } from '@contract/ai-plan.js';
import type { LandingUrlsResponse } from '@contract/page-check.js';
import { createQueryClient } from '@/app/query-client';
import { stopTracking } from '@/features/analysis/outcome';
import { usePaidRunStart } from '@/lib/paid-runs';
import { renderAt } from '../auth/render-app';
import { server, useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { analysisId, campaignIds, makeAnalysis, makeResults, project, projectId } from './fixtures';

/**
 * Paid starts (audit, page check, AI plan) go out only online, with the price on screen, and carry that
 * price: offline or while the price is unknown the button is disabled and says why; nothing clicked
 * offline is queued and sent later; a price the server no longer agrees with is refused and re-asked.
 */
useTestServer();

const costAnswer = (total: number) => ({
  total,
  currency: 'tokens',
  balance: 100,
  sufficient: total <= 100,
  breakdown: [{ index: 0, id: campaignIds[0], name: 'Окна — поиск', cost: total, items: [{ label: 'Базовая стоимость кампании', amount: total }] }],
});

let costRequests: number;
let starts: Record<string, unknown>[];
let price: number;

beforeEach(() => {
  costRequests = 0;
  starts = [];
  price = 20;
  signInOwner(
    http.get(`/api/v1/projects/${projectId}`, () => HttpResponse.json(project)),
    http.post('/api/v1/tokens/calculate-cost', () => {
      costRequests += 1;
      return HttpResponse.json(costAnswer(price));
    }),
    http.post(`/api/v1/projects/${projectId}/analyses`, async ({ request }) => {
      starts.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json({ analysis: makeAnalysis() }, { status: 201 });
    }),
    http.get(`/api/v1/analyses/${analysisId}`, () => HttpResponse.json({ analysis: makeAnalysis() })),
    http.get(`/api/v1/analyses/${analysisId}/events`, () => new HttpResponse(null, { status: 401 })),
  );
});

afterEach(() => {
  act(() => onlineManager.setOnline(true));
  stopTracking(analysisId);
});

const OFFLINE_BUTTON = 'Нет связи — запуск недоступен';

describe('«Новый анализ»: the start waits for the network and the price', () => {
  it('offline the button is disabled and says why; nothing is sent, then or when the network returns', async () => {
    const user = userEvent.setup();
    const { router } = await renderAt(`/projects/${projectId}/analysis/new`);
    await screen.findByTestId('analysis-cost');

    act(() => onlineManager.setOnline(false));
    const waiting = screen.getByRole('button', { name: OFFLINE_BUTTON });
    expect(waiting).toBeDisabled();
    expect(waiting).toHaveAccessibleDescription(/работает только онлайн: сначала вы видите цену, потом подтверждаете её. Ничего не отправлено и не списано/);
    await user.click(waiting);
    // Enter in the form does not start it either.
    await user.type(screen.getByRole('checkbox', { name: /Окна — РСЯ/ }), '{Enter}');

    act(() => onlineManager.setOnline(true));
    expect(await screen.findByRole('button', { name: 'Запустить анализ' })).toBeEnabled();
    // Nothing was queued: the person presses the button again, online, seeing the price.
    expect(starts).toHaveLength(0);
    expect(router.state.location.pathname).toBe(`/projects/${projectId}/analysis/new`);
  });

  it('while the price is being computed the button waits for it; the start carries the price shown', async () => {
    let answerPrice: () => void = () => undefined;
    server.use(
      http.post('/api/v1/tokens/calculate-cost', async () => {
        await new Promise<void>((resolve) => {
          answerPrice = resolve;
        });
        return HttpResponse.json(costAnswer(20));
      }),
    );
    const user = userEvent.setup();
    const { router } = await renderAt(`/projects/${projectId}/analysis/new`);
    const waiting = await screen.findByRole('button', { name: 'Ждём расчёт стоимости…' });
    expect(waiting).toBeDisabled();
    expect(screen.getByText('Считаем стоимость…')).toBeInTheDocument();

    answerPrice();
    expect(await screen.findByTestId('analysis-cost')).toHaveTextContent('20 токенов');
    await user.click(screen.getByRole('button', { name: 'Запустить анализ' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${projectId}/analysis/${analysisId}/scoring-progress`));
    expect(starts).toEqual([expect.objectContaining({ campaign_ids: campaignIds, expected_cost: 20 })]);
  });

  it('a price changed on the server is refused: the screen says so, shows the new price, and the next start carries it', async () => {
    server.use(
      http.post(`/api/v1/projects/${projectId}/analyses`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        starts.push(body);
        if (body.expected_cost !== 24) {
          // As server/runs/paid-run.ts answers it.
          const message = 'Цена изменилась: вы видели 20 токенов, сейчас 24 токена. Токены не списаны — проверьте новую цену и запустите ещё раз';
          return HttpResponse.json(
            {
              error: message,
              code: 'PRICE_CHANGED',
              detail: [{ loc: ['body', 'expected_cost'], msg: message }],
              expected_cost: body.expected_cost,
              cost: 24,
            },
            { status: 409 },
          );
        }
        return HttpResponse.json({ analysis: makeAnalysis() }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    const { router } = await renderAt(`/projects/${projectId}/analysis/new`);
    expect(await screen.findByTestId('analysis-cost')).toHaveTextContent('20 токенов');
    const asked = costRequests;
    price = 24;

    await user.click(screen.getByRole('button', { name: 'Запустить анализ' }));
    expect(await screen.findByText(/Анализ не запущен: Цена изменилась: вы видели 20 токенов, сейчас 24 токена. Токены не списаны/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('analysis-cost')).toHaveTextContent('24 токена'));
    expect(costRequests).toBeGreaterThan(asked);

    await user.click(screen.getByRole('button', { name: 'Запустить анализ' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${projectId}/analysis/${analysisId}/scoring-progress`));
    expect(starts.map((start) => start.expected_cost)).toEqual([20, 24]);
    // A refusal creates nothing: the second start is a new one, with its own key.
    expect(starts[1].idempotency_key).not.toBe(starts[0].idempotency_key);
  });
});

describe('the page check and the AI plan wait offline too', () => {
  it('«Проверить страницы» is disabled offline and says why', async () => {
    const landing: LandingUrlsResponse = { urls: [{ url: 'https://okna.ru/dacha', campaigns: 1, groups: 1, keywords: 2, ads: 1 }], price_per_page: 1, balance: 10 };
    server.use(
      http.get(`/api/v1/projects/${projectId}/page-checks/urls`, () => HttpResponse.json(landing)),
      http.get(`/api/v1/projects/${projectId}/page-checks`, () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 5 })),
    );
    await renderAt(`/projects/${projectId}/page-check/new`);
    expect(await screen.findByRole('button', { name: 'Проверить страницы' })).toBeEnabled();
    act(() => onlineManager.setOnline(false));
    const waiting = screen.getByRole('button', { name: OFFLINE_BUTTON });
    expect(waiting).toBeDisabled();
    expect(waiting).toHaveAccessibleDescription(/Ничего не отправлено и не списано/);
  });

  it('«Запросить ИИ-план» is disabled offline and says why', async () => {
    const overview: AiPlanOverview = { available: true, unavailable_reason: null, price: 10, balance: 100, items: [] };
    server.use(
      http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults())),
      http.get(`/api/v1/analyses/${analysisId}/ai-plans`, () => HttpResponse.json(overview)),
    );
    await renderAt(`/projects/${projectId}/analysis/${analysisId}/ai-plan/${analysisId}`);
    expect(await screen.findByRole('button', { name: 'Запросить ИИ-план · 10 токенов' })).toBeEnabled();
    act(() => onlineManager.setOnline(false));
    expect(screen.getByRole('button', { name: OFFLINE_BUTTON })).toBeDisabled();
  });
});

describe('usePaidRunStart', () => {
  it('a start fired offline fails at once and is never sent, not even when the network returns', async () => {
    const client = createQueryClient();
    // Mounted as the app mounts it: a mounted client resumes paused mutations when the network returns.
    client.mount();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const start = vi.fn(async () => ({ id: 'run' }));
    const { result } = renderHook(() => usePaidRunStart(start, { price: 5, onStarted: () => undefined }), { wrapper });
    expect(result.current.wait).toBeNull();

    act(() => onlineManager.setOnline(false));
    expect(result.current.wait).toBe('offline');
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error?.message).toMatch(/^Нет связи — запуск недоступен/);

    act(() => onlineManager.setOnline(true));
    await act(async () => client.resumePausedMutations());
    expect(start).not.toHaveBeenCalled();
    client.unmount();
  });
});

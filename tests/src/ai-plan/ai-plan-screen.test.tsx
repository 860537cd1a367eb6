import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AiPlan, AiPlanOverview } from '@contract/ai-plan.js';
import { aiPlanMessages } from '@contract/messages.js';
import { renderAt } from '../auth/render-app';
import { server, useTestServer, verifiedUser } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { controlledStream, sseEvent, streamUnreachable } from '../lib/event-stream';
import { analysisId, makeResults, projectId } from '../analysis/fixtures';

useTestServer();

const planId = '99999999-9999-4999-8999-999999999999';
const earlierId = '99999999-9999-4999-8999-999999999998';
const entryPath = `/projects/${projectId}/analysis/${analysisId}/ai-plan/${analysisId}`;
const planPath = (id: string) => `/projects/${projectId}/analysis/${analysisId}/ai-plan/${id}`;

const overview = (patch: Partial<AiPlanOverview> = {}): AiPlanOverview => ({
  available: true,
  unavailable_reason: null,
  price: 10,
  balance: 100,
  items: [{ id: earlierId, status: 'completed', model: 'qwen2.5-7b', cost: 10, error: null, created_at: '2025-03-02T09:00:00.000Z', finished_at: '2025-03-02T09:01:00.000Z' }],
  ...patch,
});

const aiPlan = (patch: Partial<AiPlan> = {}): AiPlan => ({
  id: planId,
  analysis_id: analysisId,
  project_id: projectId,
  status: 'queued',
  model: 'qwen2.5-7b',
  prompt_chars: null,
  cost: 10,
  usage: null,
  error: null,
  plan: null,
  author: { id: verifiedUser.id, full_name: 'Анна Петрова' },
  created_at: '2025-03-03T10:00:00.000Z',
  started_at: null,
  finished_at: null,
  ...patch,
});

const completed = aiPlan({
  status: 'completed',
  prompt_chars: 6120,
  usage: { prompt_tokens: 1530, completion_tokens: 410, total_tokens: 1940 },
  finished_at: '2025-03-03T10:00:40.000Z',
  plan: {
    summary: 'Главная утечка — фразы без конверсий в поиске.',
    money_per_month_total: 3290,
    steps: [
      {
        position: 1,
        title: 'Остановите фразы без конверсий',
        why: 'Фраза «окна бесплатно» потратила 3 400 ₽ без заказов.',
        expected_effect: 'Бюджет перестанет уходить на нецелевые клики.',
        money_per_month: 3290,
        findings: [{ id: 'f1', check_id: 'stats.wasted_spend', title: 'Расход без конверсий', severity: 'high', target: 'Кампания «Окна — поиск» / группа «Пластиковые окна» / «окна бесплатно»', money_per_month: 3290 }],
      },
      { position: 2, title: 'Сократите заголовки', why: 'Длинные заголовки обрезаются.', expected_effect: null, money_per_month: null, findings: [] },
    ],
  },
});

beforeEach(() => {
  signInOwner(
    // The live stream is not served unless a test does: these screens poll, as without one.
    streamUnreachable('/api/v1/ai-plans/:id/events'),
    http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults())),
    http.get(`/api/v1/analyses/${analysisId}/ai-plans`, () => HttpResponse.json(overview())),
  );
});
afterEach(() => {
  vi.useRealTimers();
});

describe('AI plan screen', () => {
  it('without a language model shows the rule-based plan and says why, with no request button', async () => {
    server.use(http.get(`/api/v1/analyses/${analysisId}/ai-plans`, () => HttpResponse.json(overview({ available: false, unavailable_reason: aiPlanMessages.notConfigured, items: [] }))));
    await renderAt(entryPath);
    expect(await screen.findByRole('heading', { name: 'План действий по результатам аудита' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('ИИ-анализ с языковой моделью на этом сервере не подключён');
    expect(screen.getAllByTestId('plan-step')[0]).toHaveTextContent('Расход без конверсий');
    expect(screen.queryByRole('button', { name: /Запросить ИИ-план/ })).not.toBeInTheDocument();
  });

  it('asks for a plan at the shown price, opens it, polls while the model works and shows the plan', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const sent: unknown[] = [];
    const states = [aiPlan(), aiPlan({ status: 'running', prompt_chars: 6120, started_at: '2025-03-03T10:00:01.000Z' }), completed];
    let polls = 0;
    server.use(
      http.post(`/api/v1/analyses/${analysisId}/ai-plans`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ ai_plan: aiPlan() }, { status: 201 });
      }),
      http.get(`/api/v1/ai-plans/${planId}`, () => {
        polls += 1;
        return HttpResponse.json({ ai_plan: states[Math.min(polls - 1, states.length - 1)] });
      }),
    );
    const { router } = await renderAt(entryPath);
    expect(await screen.findByRole('heading', { name: 'ИИ-анализ' })).toBeInTheDocument();
    expect(screen.getByText('На балансе 100 токенов.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^02\.03\.2025/ })).toHaveAttribute('href', planPath(earlierId));

    await user.click(screen.getByRole('button', { name: 'Запросить ИИ-план · 10 токенов' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(planPath(planId)));
    expect(sent).toEqual([{ idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/), expected_cost: 10 }]);
    expect(await screen.findByRole('heading', { name: 'ИИ-план действий' })).toBeInTheDocument();
    expect(screen.getByText('Запрос в очереди: языковая модель скоро возьмётся за план.')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByText('Языковая модель читает аудит и составляет план. Обычно это занимает до минуты.')).toBeInTheDocument();
    expect(screen.getByTestId('ai-plan-facts')).toHaveTextContent('модель qwen2.5-7b · запрос 6 120 симв.');

    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByText('Главная утечка — фразы без конверсий в поиске.')).toBeInTheDocument();
    const steps = screen.getAllByTestId('ai-plan-step');
    expect(steps.map((step) => within(step).getByRole('heading').textContent)).toEqual(['1. Остановите фразы без конверсий', '2. Сократите заголовки']);
    expect(steps[0]).toHaveTextContent('3 290 ₽ в месяц по оценке аудита');
    expect(steps[0]).toHaveTextContent('Почему: Фраза «окна бесплатно» потратила 3 400 ₽ без заказов.');
    expect(steps[0]).toHaveTextContent('Что изменится: Бюджет перестанет уходить на нецелевые клики.');
    expect(within(steps[0]!).getByTestId('ai-plan-finding')).toHaveTextContent('Расход без конверсий — Кампания «Окна — поиск» / группа «Пластиковые окна» / «окна бесплатно» · Деньги уходят сейчас · 3 290 ₽ в месяц');
    expect(steps[1]).not.toHaveTextContent('по оценке аудита');
    expect(screen.getByTestId('ai-plan-total')).toHaveTextContent('аудит оценил в 3 290 ₽ в месяц');
    expect(screen.getByTestId('ai-plan-facts')).toHaveTextContent('модель потратила 1 940 ток. · стоимость 10 токенов');
    expect(screen.getByRole('button', { name: 'Запросить новый ИИ-план · 10 токенов' })).toBeEnabled();

    // Finished: the poll stops.
    const seen = polls;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(polls).toBe(seen);
  });

  it('follows a plan the model works on over its live stream, without polling, and shows it once done', async () => {
    const stream = controlledStream();
    let reads = 0;
    server.use(
      http.get(`/api/v1/ai-plans/${planId}`, () => {
        reads += 1;
        return HttpResponse.json({ ai_plan: aiPlan() });
      }),
      http.get(`/api/v1/ai-plans/${planId}/events`, () => stream.response()),
    );
    await renderAt(planPath(planId));
    expect(await screen.findByText('Запрос в очереди: языковая модель скоро возьмётся за план.')).toBeInTheDocument();
    stream.push(sseEvent('progress', { ai_plan: aiPlan({ status: 'running', prompt_chars: 6120, started_at: '2025-03-03T10:00:01.000Z' }) }));
    expect(await screen.findByText('Языковая модель читает аудит и составляет план. Обычно это занимает до минуты.')).toBeInTheDocument();
    stream.push(sseEvent('progress', { ai_plan: completed }) + sseEvent('done', { ai_plan: completed }));
    stream.close();
    expect(await screen.findByText('Главная утечка — фразы без конверсий в поиске.')).toBeInTheDocument();
    expect(reads).toBe(1);
  });

  it('shows the plan’s total against the audit’s headline in the server’s words, what it leaves out included', async () => {
    const note =
      'План охватывает 12 400 ₽ из 29 100 ₽ потерь в месяц. Не вошли: «Неработающие страницы» — 16 700 ₽: ни один шаг плана на эти замечания не ссылается. Отдельно от потерь можно сэкономить 11 900 ₽ в месяц на конверсиях дороже целевой цены: план этого не касается. К потерям эта сумма не прибавляется.';
    const plan = { ...completed.plan!, money_per_month_total: 12_400, money_note: note };
    server.use(http.get(`/api/v1/ai-plans/${planId}`, () => HttpResponse.json({ ai_plan: { ...completed, plan, finished_at: '2025-03-03T10:00:40.000Z' } })));
    await renderAt(planPath(planId));
    expect(await screen.findByTestId('ai-plan-total')).toHaveTextContent(note);
    expect(screen.getByTestId('ai-plan-total')).not.toHaveTextContent('аудит оценил');
  });

  it('shows a failed plan with the reason and offers another try', async () => {
    server.use(http.get(`/api/v1/ai-plans/${planId}`, () => HttpResponse.json({ ai_plan: aiPlan({ status: 'failed', error: `${aiPlanMessages.notJson}. ${aiPlanMessages.refundNote}`, finished_at: '2025-03-03T10:00:30.000Z' }) })));
    await renderAt(planPath(planId));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('ИИ-план не построен');
    expect(alert).toHaveTextContent('Языковая модель вернула ответ не в формате JSON. Токены возвращены на баланс');
    expect(screen.getByTestId('ai-plan-facts')).toHaveTextContent('стоимость 10 токенов возвращена');
    expect(await screen.findByRole('button', { name: 'Попробовать ещё раз · 10 токенов' })).toBeEnabled();
  });

  it('shows why a start was refused (short balance) and stays on the screen', async () => {
    const user = userEvent.setup();
    server.use(
      http.post(`/api/v1/analyses/${analysisId}/ai-plans`, () =>
        HttpResponse.json({ error: 'Недостаточно токенов на балансе', code: 'INSUFFICIENT_TOKENS', detail: [{ loc: ['body'], msg: 'Стоимость ИИ-плана — 10 токенов, на балансе 4. Пополните баланс на странице «Токены»' }] }, { status: 402 }),
      ),
    );
    const { router } = await renderAt(entryPath);
    await user.click(await screen.findByRole('button', { name: 'Запросить ИИ-план · 10 токенов' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Стоимость ИИ-плана — 10 токенов, на балансе 4. Пополните баланс на странице «Токены»');
    expect(router.state.location.pathname).toBe(entryPath);
  });

  it('disables the request when the balance is short', async () => {
    server.use(http.get(`/api/v1/analyses/${analysisId}/ai-plans`, () => HttpResponse.json(overview({ balance: 4, items: [] }))));
    await renderAt(entryPath);
    expect(await screen.findByRole('button', { name: 'Запросить ИИ-план · 10 токенов' })).toBeDisabled();
    expect(screen.getByText('На балансе 4 токена. Этого не хватает: пополните баланс на странице «Токены».')).toBeInTheDocument();
  });

  it('says when the plan does not exist (another organization, a wrong link)', async () => {
    server.use(http.get(`/api/v1/ai-plans/${planId}`, () => HttpResponse.json({ error: aiPlanMessages.planNotFound, code: 'AI_PLAN_NOT_FOUND' }, { status: 404 })));
    await renderAt(planPath(planId));
    expect(await screen.findByRole('heading', { name: 'ИИ-план не найден' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'К ИИ-анализу аудита' })).toHaveAttribute('href', entryPath);
  });
});

describe('the AI plan\'s former address (ai-analysis, in the spec\'s route table)', () => {
  it('opens the same plan at its new address', async () => {
    server.use(http.get(`/api/v1/ai-plans/${planId}`, () => HttpResponse.json({ ai_plan: completed })));
    const { router } = await renderAt(`/projects/${projectId}/analysis/${analysisId}/ai-analysis/${planId}`);
    expect(await screen.findByText('Главная утечка — фразы без конверсий в поиске.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe(planPath(planId)));
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../auth/render-app';
import { server, useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { analysisId, auditResult, makeResults, projectId } from './fixtures';

useTestServer();

const resultsPath = `/projects/${projectId}/analysis/${analysisId}/results`;

beforeEach(() => {
  signInOwner(
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

  it('shows the cost of the non-target queries as a second figure, not added to the first, with a way to the negatives', async () => {
    server.use(http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults())));
    const user = userEvent.setup();
    const { router } = await renderAt(resultsPath);
    const money = within(await screen.findByRole('region', { name: 'Расход без конверсий' }));
    expect(money.getByTestId('wasted-per-month')).toHaveTextContent('3 290 ₽ в месяц');
    const queries = within(money.getByTestId('non-target-queries'));
    expect(queries.getByRole('heading', { name: 'Нецелевые запросы' })).toBeInTheDocument();
    // Four distinct queries, 1 960 ₽ over January: the negatives' own costs (2 270 ₽) would count the shared one twice.
    expect(money.getByTestId('non-target-queries')).toHaveTextContent(
      '1 897 ₽ в месяц4 запроса без конверсий за 01.01.2025 — 31.01.2025 (1 960 ₽ за период) — их отсекут предложенные минус-слова.',
    );
    expect(money.getByTestId('non-target-queries')).toHaveTextContent('суммы не складываются');
    // Nothing accepted yet: no claim about what is covered.
    expect(queries.queryByTestId('non-target-accepted')).not.toBeInTheDocument();

    await user.click(queries.getByRole('link', { name: 'Минус-слова и запросы' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${projectId}/analysis/${analysisId}/semantic`));
  });

  it('says how much of it the accepted negatives cover, a query blocked by two of them once', async () => {
    server.use(
      http.get(`/api/v1/analyses/${analysisId}/results`, () =>
        HttpResponse.json(makeResults({ decisions: { accepted: ['s-free', 's-jobs', 's-reviews'], rejected: [] } })),
      ),
    );
    await renderAt(resultsPath);
    // (900 + 310 + 300) × 30 / 31 = 1 461 ₽, not (1 210 + 610) × 30 / 31 = 1 761 ₽; the check-by-hand «отзывы» blocks nothing counted.
    expect(await screen.findByTestId('non-target-accepted')).toHaveTextContent('Принятые минус-слова отсекут 3 из 4 запросов — 1 461 ₽ в месяц.');
    expect(screen.getByText(/Минус-слова отсекут запросы на 1 461 ₽ в месяц/)).toBeInTheDocument();
  });

  it('still renders a result stored before the query figure existed', async () => {
    const { nonTargetQueries: _absent, ...semantic } = auditResult.semantic;
    server.use(
      http.get(`/api/v1/analyses/${analysisId}/results`, () =>
        HttpResponse.json(makeResults({ result: { ...auditResult, semantic }, decisions: { accepted: ['s-free'], rejected: [] } })),
      ),
    );
    await renderAt(resultsPath);
    expect(await screen.findByTestId('wasted-per-month')).toHaveTextContent('3 290 ₽ в месяц');
    expect(screen.queryByTestId('non-target-queries')).not.toBeInTheDocument();
    expect(screen.getByText(/Принято 1 изменение: минус-слова — 1/)).toBeInTheDocument();
    expect(screen.queryByText(/Минус-слова отсекут запросы на/)).not.toBeInTheDocument();
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
    // «бесплатно» accepted: its two queries, 1 210 ₽ over 31 days.
    expect(screen.getByText(/Минус-слова отсекут запросы на 1 171 ₽ в месяц/)).toBeInTheDocument();

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
      '2. Нецелевые запросы: добавьте минус-слова',
      '3. Низкий CTR на поиске',
      '4. Заголовок длиннее лимита',
    ]);
    expect(steps[0]).toHaveTextContent('3 290 ₽ в месяц');
    expect(steps[0]).toHaveTextContent('Что сделать: Остановите фразу «окна бесплатно» или снизьте ставку.');

    // The negatives: priced once per query (1 960 ₽ × 30 / 31 ≈ 1 897 ₽), not 1 170,97 + 590,32 + 435 ≈ 2 196 ₽; «отзывы» is checked by hand, not listed.
    expect(steps[1]).toHaveTextContent('1 897 ₽ в месяц · 4 запроса без конверсий');
    expect(steps[1]).toHaveTextContent('Что сделать: Добавьте минус-слова: -бесплатно, -вакансии, -окна пвх rehau (3 шт.) — на экране предложений.');
    expect(steps[1]).not.toHaveTextContent('отзывы');
    expect(steps[1]).toHaveTextContent('1 960 ₽ за 01.01.2025 — 31.01.2025');
    // Accepted: «бесплатно» (900 + 310) × 30 / 31.
    expect(within(steps[1]!).getByTestId('plan-negatives-accepted')).toHaveTextContent('Вы уже приняли 1 из 3: они отсекут 2 из 4 запросов — 1 171 ₽ в месяц.');
    // Part of the same spend: beside the checks' total, not added to it.
    expect(screen.getByText(/вы перестанете терять около/)).toHaveTextContent('около 3 290 ₽ в месяц.');
    expect(screen.getByTestId('plan-negatives-total')).toHaveTextContent('Минус-слова (шаг 2) отсекут нецелевые запросы на 1 897 ₽ в месяц — это часть того же расхода');

    await user.click(within(steps[1]!).getByRole('link', { name: 'на экране предложений' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${projectId}/analysis/${analysisId}/semantic`));
  });

  it('gives the money story («Теряете ≈ X») as the plan\'s total, the figure every screen shows, and counts places per check', async () => {
    server.use(http.get(`/api/v1/analyses/${analysisId}/ai-plans`, () => HttpResponse.json({ available: false, unavailable_reason: 'не настроена', price: 10, balance: 100, items: [] })));
    const money = {
      perMonth: 4500,
      period: 4650,
      causes: [
        { cause: 'wasted_keywords' as const, perMonth: 3290, period: 3400, count: 1, list: { kind: 'findings' as const, checks: ['keyword.action_stop', 'stats.wasted_spend'] } },
        { cause: 'non_target_queries' as const, perMonth: 1210, period: 1250, count: 3, list: { kind: 'suggestions' as const, suggestionKind: 'negative_keyword' as const } },
      ],
    };
    // «Низкий CTR на поиске» as one aggregated finding over 12 keywords.
    const byCheck = auditResult.scoring.byCheck.map((check) => (check.checkId === 'stats.low_ctr' ? { ...check, entities: 12 } : check));
    server.use(http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults({ result: { ...auditResult, scoring: { ...auditResult.scoring, byCheck }, money } }))));
    await renderAt(`/projects/${projectId}/analysis/${analysisId}/ai-analysis/${analysisId}`);
    expect(await screen.findByTestId('plan-money-story')).toHaveTextContent('Теряете ≈ 4 500 ₽ в месяц: фразы без конверсий — 3 290 ₽, нецелевые запросы — 1 210 ₽.');
    expect(screen.queryByText(/вы перестанете терять около/)).not.toBeInTheDocument();
    expect(screen.getByTestId('plan-negatives-total')).toHaveTextContent('в сумме выше из них учтены только запросы фраз, которые не попали в «Фразы без конверсий»');
    const ctrStep = screen.getAllByTestId('plan-step').find((step) => within(step).getByRole('heading').textContent?.includes('Низкий CTR'))!;
    expect(ctrStep).toHaveTextContent('12 мест');
  });

  it('puts the negatives first when the checks price nothing, and renders an older result without them as before', async () => {
    server.use(http.get(`/api/v1/analyses/${analysisId}/ai-plans`, () => HttpResponse.json({ available: false, unavailable_reason: 'не настроена', price: 10, balance: 100, items: [] })));
    const planPath = `/projects/${projectId}/analysis/${analysisId}/ai-analysis/${analysisId}`;
    const unpriced = { ...auditResult, scoring: { ...auditResult.scoring, byCheck: auditResult.scoring.byCheck.filter((check) => check.moneyPerMonth === 0) } };
    server.use(http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults({ result: unpriced }))));
    const first = await renderAt(planPath);
    const steps = await screen.findAllByTestId('plan-step');
    expect(within(steps[0]!).getByRole('heading')).toHaveTextContent('1. Нецелевые запросы: добавьте минус-слова');
    expect(steps[0]).toHaveTextContent('1 897 ₽ в месяц');
    expect(within(steps[0]!).queryByTestId('plan-negatives-accepted')).not.toBeInTheDocument();
    expect(screen.queryByText(/вы перестанете терять около/)).not.toBeInTheDocument();
    expect(screen.getByTestId('plan-negatives-total')).toHaveTextContent('Минус-слова (шаг 1) отсекут нецелевые запросы на 1 897 ₽ в месяц.');
    first.unmount();

    const { nonTargetQueries: _absent, ...semantic } = auditResult.semantic;
    server.use(http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults({ result: { ...auditResult, semantic } }))));
    await renderAt(planPath);
    await waitFor(() =>
      expect(screen.getAllByTestId('plan-step').map((step) => within(step).getByRole('heading').textContent)).toEqual([
        '1. Расход без конверсий',
        '2. Низкий CTR на поиске',
        '3. Заголовок длиннее лимита',
      ]),
    );
    expect(screen.queryByTestId('plan-negatives-total')).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stopTracking } from '@/features/analysis/outcome';
import { renderAt } from '../auth/render-app';
import { server, useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { analysisId, campaignIds, makeAnalysis, project, projectId } from './fixtures';

useTestServer();

const costAnswer = (total: number, balance: number) => ({
  total,
  currency: 'tokens',
  balance,
  sufficient: balance >= total,
  breakdown: [{ index: 0, id: campaignIds[0], name: 'Окна — поиск', cost: total, items: [{ label: 'Базовая стоимость кампании', amount: 5 }] }],
});

let costRequests: unknown[];

beforeEach(() => {
  costRequests = [];
  signInOwner(
    http.get(`/api/v1/projects/${projectId}`, () => HttpResponse.json(project)),
    http.post('/api/v1/tokens/calculate-cost', async ({ request }) => {
      const body = (await request.json()) as { campaigns: unknown[] };
      costRequests.push(body);
      return HttpResponse.json(costAnswer(body.campaigns.length * 10, 100));
    }),
    http.get(`/api/v1/analyses/${analysisId}`, () => HttpResponse.json({ analysis: makeAnalysis() })),
    http.get(`/api/v1/analyses/${analysisId}/events`, () => new HttpResponse(null, { status: 401 })),
  );
});

// A successful start keeps watching the run in the background; the next test starts clean.
afterEach(() => stopTracking(analysisId));

const startButton = () => screen.getByRole('button', { name: 'Запустить анализ' });

describe('new analysis', () => {
  it('puts the campaigns, the price and «Запустить анализ» first and folds the default thresholds under «Настройки порогов»', async () => {
    server.use(http.get(`/api/v1/projects/${projectId}`, () => HttpResponse.json({ ...project, settings: {} })));
    const user = userEvent.setup();
    await renderAt(`/projects/${projectId}/analysis/new`);
    await screen.findByTestId('analysis-cost');
    const thresholds = screen.getByText('Настройки порогов').closest('details')!;
    expect(thresholds).not.toHaveAttribute('open');
    // Document order is reading and tab order: price and start come before the folded thresholds.
    const following = (first: Element, second: Element) => Boolean(first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(following(screen.getByTestId('analysis-cost'), thresholds)).toBe(true);
    expect(following(startButton(), thresholds)).toBe(true);
    await user.click(screen.getByText('Настройки порогов'));
    expect(thresholds).toHaveAttribute('open');
    expect(screen.getByLabelText('Минимум кликов для минус-слова')).toBeVisible();
  });

  it('opens «Настройки порогов» when the project has thresholds of its own', async () => {
    server.use(http.get(`/api/v1/projects/${projectId}`, () => HttpResponse.json({ ...project, settings: { min_clicks_for_negative: 11 } })));
    await renderAt(`/projects/${projectId}/analysis/new`);
    await screen.findByTestId('analysis-cost');
    expect(screen.getByText('Настройки порогов').closest('details')).toHaveAttribute('open');
    expect(screen.getByLabelText('Минимум кликов для минус-слова')).toHaveValue('11');
  });

  it('lists campaigns with their counts and shows the cost from calculate-cost before starting', async () => {
    const user = userEvent.setup();
    await renderAt(`/projects/${projectId}/analysis/new`);

    expect(await screen.findByText('Окна — поиск')).toBeInTheDocument();
    expect(screen.getByText(/2 группы · 3 объявления · 300 фраз/)).toBeInTheDocument();
    expect(await screen.findByTestId('analysis-cost')).toHaveTextContent('20 токенов');
    expect(costRequests.at(-1)).toEqual({
      campaigns: [
        { id: campaignIds[0], name: 'Окна — поиск', keywords_count: 300, ads_count: 3, groups_count: 2 },
        { id: campaignIds[1], name: 'Окна — РСЯ', keywords_count: 20, ads_count: 1, groups_count: 1 },
      ],
      analysis_kinds: ['scoring', 'semantic'],
    });
    // Thresholds start from the project's settings, then the defaults.
    expect(screen.getByLabelText('Минимум кликов для минус-слова')).toHaveValue('7');
    expect(screen.getByLabelText('Низкий CTR на поиске, %')).toHaveValue('2');

    await user.click(screen.getByRole('checkbox', { name: /Окна — РСЯ/ }));
    await waitFor(() => expect(screen.getByTestId('analysis-cost')).toHaveTextContent('10 токенов'));
  });

  it('sends one idempotency key per form: a retry after a lost answer and a double click reuse it', async () => {
    const user = userEvent.setup();
    const starts: { idempotency_key: string; campaign_ids: string[]; settings: Record<string, number> }[] = [];
    let attempt = 0;
    server.use(
      http.post(`/api/v1/projects/${projectId}/analyses`, async ({ request }) => {
        starts.push((await request.json()) as (typeof starts)[number]);
        attempt += 1;
        // The first answer is lost on the way back.
        if (attempt === 1) return HttpResponse.error();
        await new Promise((resolve) => setTimeout(resolve, 30));
        return HttpResponse.json({ analysis: makeAnalysis() }, { status: 201 });
      }),
    );
    const { router } = await renderAt(`/projects/${projectId}/analysis/new`);
    await screen.findByTestId('analysis-cost');

    await user.click(startButton());
    expect(await screen.findByText(/Анализ не запущен: Нет подключения к сети/)).toBeInTheDocument();

    await user.dblClick(startButton());
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${projectId}/analysis/${analysisId}/scoring-progress`));

    expect(starts).toHaveLength(2);
    expect(starts[0].idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(starts[1].idempotency_key).toBe(starts[0].idempotency_key);
    expect(starts[0].campaign_ids).toEqual(campaignIds);
    expect(starts[0].settings).toMatchObject({ min_clicks_for_negative: 7, low_search_ctr: 0.02 });
  });

  it('sends every threshold and the competitors, and saves them in the project when asked', async () => {
    const user = userEvent.setup();
    const starts: { settings: Record<string, unknown> }[] = [];
    const patches: { settings: Record<string, unknown> }[] = [];
    server.use(
      http.patch(`/api/v1/projects/${projectId}`, async ({ request }) => {
        const body = (await request.json()) as (typeof patches)[number];
        patches.push(body);
        return HttpResponse.json({ ...project, settings: body.settings });
      }),
      http.post(`/api/v1/projects/${projectId}/analyses`, async ({ request }) => {
        starts.push((await request.json()) as (typeof starts)[number]);
        return HttpResponse.json({ analysis: makeAnalysis() }, { status: 201 });
      }),
    );
    const { router } = await renderAt(`/projects/${projectId}/analysis/new`);
    await screen.findByTestId('analysis-cost');
    expect(screen.getByText(/Регион проекта: Москва/)).toBeInTheDocument();

    await user.click(screen.getByText('Остальные пороги и конкуренты'));
    const sameText = screen.getByLabelText('Один текст объявления в группах, от');
    expect(sameText).toHaveValue('3');
    await user.clear(sameText);
    await user.type(sameText, '1');
    await user.type(screen.getByLabelText('Конкуренты'), 'Rehau, Veka,rehau');
    await user.click(startButton());
    // One group is not "many groups": refused on the spot, nothing sent.
    expect(await screen.findByText('Не меньше 2')).toBeInTheDocument();
    expect(starts).toHaveLength(0);

    await user.clear(sameText);
    await user.type(sameText, '4');
    await user.clear(screen.getByLabelText('Минимальная релевантность объявлений группы, %'));
    await user.type(screen.getByLabelText('Минимальная релевантность объявлений группы, %'), '40');
    await user.click(screen.getByRole('checkbox', { name: 'Сохранить эти пороги в настройках проекта' }));
    await user.click(startButton());
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${projectId}/analysis/${analysisId}/scoring-progress`));

    const expected = { min_clicks_for_negative: 7, same_ad_text_groups: 4, min_group_relevance: 0.4, min_impressions_for_ctr: 100, expensive_cpc_median_multiple: 2, competitors: ['Rehau', 'Veka'] };
    expect(starts[0].settings).toMatchObject(expected);
    expect(patches).toEqual([{ settings: starts[0].settings }]);
  });

  it('disables the button while the start is being sent', async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    server.use(
      http.post(`/api/v1/projects/${projectId}/analyses`, async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return HttpResponse.json({ analysis: makeAnalysis() }, { status: 201 });
      }),
    );
    await renderAt(`/projects/${projectId}/analysis/new`);
    await screen.findByTestId('analysis-cost');
    await user.click(startButton());
    await waitFor(() => expect(startButton()).toBeDisabled());
    release();
  });

  it('explains a short balance in Russian with a link to /tokens (402 from the start)', async () => {
    const user = userEvent.setup();
    server.use(
      http.post(`/api/v1/projects/${projectId}/analyses`, () =>
        HttpResponse.json(
          { error: 'Недостаточно токенов на балансе', code: 'INSUFFICIENT_TOKENS', detail: [{ loc: [], msg: 'Недостаточно токенов на балансе' }], required: 20, balance: 5 },
          { status: 402 },
        ),
      ),
    );
    await renderAt(`/projects/${projectId}/analysis/new`);
    await screen.findByTestId('analysis-cost');
    await user.click(startButton());

    const alert = await screen.findByText(/Недостаточно токенов на балансе/, { selector: 'strong' });
    const box = alert.closest('[role="alert"]') as HTMLElement;
    expect(box).toHaveTextContent('Анализ стоит 20 токенов, на балансе 5 токенов.');
    expect(within(box).getByRole('link', { name: /Пополнить баланс/ })).toHaveAttribute('href', '/tokens');
  });

  it('warns before starting when the cost says the balance does not cover it', async () => {
    server.use(http.post('/api/v1/tokens/calculate-cost', () => HttpResponse.json(costAnswer(130, 40))));
    await renderAt(`/projects/${projectId}/analysis/new`);
    expect(await screen.findByText('Анализ стоит 130 токенов, на балансе 40 токенов.', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Пополнить баланс/ })).toHaveAttribute('href', '/tokens');
    expect(startButton()).toBeDisabled();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AnalysisDecisions } from '../../../src/contract/analysis.js';
import { renderAt } from '../auth/render-app';
import { server, useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import type { AdFieldFixSuggestion } from '../../../src/contract/analysis-results.js';
import { analysisId, auditResult, makeAnalysis, makeResults, projectId } from './fixtures';

useTestServer();

const semanticPath = `/projects/${projectId}/analysis/${analysisId}/semantic`;
let saved: AnalysisDecisions[];

beforeEach(() => {
  saved = [];
  signInOwner(
    http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults({ decisions: { accepted: ['s-cross'], rejected: [] } }))),
    http.put(`/api/v1/analyses/${analysisId}/decisions`, async ({ request }) => {
      const body = (await request.json()) as AnalysisDecisions;
      saved.push(body);
      return HttpResponse.json({ decisions: body });
    }),
  );
});

const section = (title: string) => screen.getByRole('heading', { name: new RegExp(title) }).closest('section') as HTMLElement;
const itemWith = (text: string) => screen.getByText(text).closest('[data-testid="suggestion"]') as HTMLElement;

describe('semantic suggestions', () => {
  it('groups the suggestions: campaign negatives by category, check by hand, cross-minus, ad fixes', async () => {
    await renderAt(semanticPath);
    await screen.findByRole('heading', { name: 'Семантика: предложения' });

    const campaign = section('Минус-слова на уровне кампании');
    expect(within(campaign).getByText('Бесплатное и скачивание')).toBeInTheDocument();
    expect(within(campaign).getByText('Работа и вакансии')).toBeInTheDocument();
    expect(within(campaign).getByText('-бесплатно')).toBeInTheDocument();

    // A query phrase shows its numbers, the threshold it passed and the period of the report.
    const phrase = itemWith('-окна пвх rehau');
    expect(within(section('Минус-фразы на уровне групп')).getByText('-окна пвх rehau')).toBeInTheDocument();
    expect(phrase).toHaveTextContent('9 кл. · 450 ₽ без конверсий · 435 ₽ в месяц · период 01.01.2025 — 31.01.2025');
    expect(phrase).toHaveTextContent('Клики9 кликов (порог 5 кликов)');

    const byHand = section('Проверить вручную');
    expect(within(byHand).getByText('-отзывы')).toBeInTheDocument();
    // Ambiguous intents are never accepted in bulk.
    expect(within(byHand).queryByRole('button', { name: 'Принять все' })).not.toBeInTheDocument();

    expect(within(section('Кросс-минусовка')).getByText('окна → окна -пластиковые')).toBeInTheDocument();
    expect(within(section('Исправления объявлений')).getByText(/Пластиковые окна от завода с установкой под ключ$/)).toBeInTheDocument();
    // The earlier choice comes back from the server.
    expect(within(itemWith('окна → окна -пластиковые')).getByRole('button', { name: 'Принять' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('saves each accept and reject with PUT decisions, bulk included, then opens the results', async () => {
    const user = userEvent.setup();
    const { router } = await renderAt(semanticPath);
    await screen.findByRole('heading', { name: 'Семантика: предложения' });

    await user.click(within(itemWith('-бесплатно')).getByRole('button', { name: 'Принять' }));
    await waitFor(() => expect(saved.at(-1)).toEqual({ accepted: ['s-cross', 's-free'], rejected: [] }));

    await user.click(within(itemWith('-отзывы')).getByRole('button', { name: 'Отклонить' }));
    await waitFor(() => expect(saved.at(-1)).toEqual({ accepted: ['s-cross', 's-free'], rejected: ['s-reviews'] }));

    await user.click(within(section('Минус-слова на уровне кампании')).getByRole('button', { name: 'Отклонить все' }));
    await waitFor(() => expect(saved.at(-1)).toEqual({ accepted: ['s-cross'], rejected: ['s-reviews', 's-free', 's-jobs'] }));

    // A second click on the pressed button clears the choice.
    await user.click(within(itemWith('-вакансии')).getByRole('button', { name: 'Отклонить' }));
    await waitFor(() => expect(saved.at(-1)).toEqual({ accepted: ['s-cross'], rejected: ['s-reviews', 's-free'] }));
    expect(await screen.findByText('Решения сохранены')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'К результатам' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${projectId}/analysis/${analysisId}/results`));
    // The results show the choice just made.
    expect(await screen.findByText(/Принято 1 изменение/)).toBeInTheDocument();
  });

  it('keeps the last choice when clicks come faster than the saves', async () => {
    const user = userEvent.setup();
    server.use(
      http.put(`/api/v1/analyses/${analysisId}/decisions`, async ({ request }) => {
        const body = (await request.json()) as AnalysisDecisions;
        await new Promise((resolve) => setTimeout(resolve, 40));
        saved.push(body);
        return HttpResponse.json({ decisions: body });
      }),
    );
    await renderAt(semanticPath);
    await screen.findByRole('heading', { name: 'Семантика: предложения' });
    await user.click(within(itemWith('-бесплатно')).getByRole('button', { name: 'Принять' }));
    await user.click(within(itemWith('-вакансии')).getByRole('button', { name: 'Принять' }));
    await user.click(within(itemWith('-отзывы')).getByRole('button', { name: 'Принять' }));
    await waitFor(() => expect(saved.at(-1)).toEqual({ accepted: ['s-cross', 's-free', 's-jobs', 's-reviews'], rejected: [] }));
    await screen.findByText('Решения сохранены');
  });

  it('lets the user correct an accepted ad fix before it is exported', async () => {
    const user = userEvent.setup();
    await renderAt(semanticPath);
    await screen.findByRole('heading', { name: 'Семантика: предложения' });
    const adItem = within(section('Исправления объявлений')).getByTestId('suggestion');
    await user.click(within(adItem).getByRole('button', { name: 'Принять' }));
    const input = within(adItem).getByLabelText('Новое значение (можно поправить)');
    expect(input).toHaveValue('Пластиковые окна от завода с установкой под ключ');
    await user.clear(input);
    await user.type(input, 'Окна от завода под ключ');
    await user.tab();
    await waitFor(() =>
      expect(saved.at(-1)).toEqual({ accepted: ['s-cross', 's-ad'], rejected: [], values: { 's-ad': 'Окна от завода под ключ' } }),
    );
  });

  it('shows a fix no cut can make as «переписать вручную» with the numbers, and saves only what the user types', async () => {
    const manual: AdFieldFixSuggestion = {
      id: 's-ad',
      kind: 'ad_field',
      target: auditResult.scoring.suggestions[0].target,
      field: 'text',
      index: 0,
      before: 'Сверхпрочныеэнергосберегающиестеклопакеты для любого дома',
      after: '',
      manual: { limit: 81, length: 94 },
      reason: 'Текст: 94 символов при лимите 81. Сократить без потери смысла не получается: перепишите вручную.',
    };
    const result = { ...auditResult, scoring: { ...auditResult.scoring, suggestions: [manual] } };
    server.use(http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults({ result, decisions: { accepted: ['s-cross'], rejected: [] } }))));
    const user = userEvent.setup();
    await renderAt(semanticPath);
    await screen.findByRole('heading', { name: 'Семантика: предложения' });
    const adItem = within(section('Исправления объявлений')).getByTestId('suggestion');
    expect(adItem).toHaveTextContent('Сверхпрочныеэнергосберегающиестеклопакеты для любого дома → переписать вручную (сейчас 94, лимит 81)');
    await user.click(within(adItem).getByRole('button', { name: 'Принять' }));
    const input = within(adItem).getByLabelText('Ваш вариант (лимит 81; без него в файл ничего не попадёт)');
    expect(input).toHaveValue('');
    await user.type(input, 'Энергосберегающие стеклопакеты для любого дома');
    await user.tab();
    await waitFor(() =>
      expect(saved.at(-1)).toEqual({ accepted: ['s-cross', 's-ad'], rejected: [], values: { 's-ad': 'Энергосберегающие стеклопакеты для любого дома' } }),
    );
  });

  it('says so when the analysis is still running', async () => {
    server.use(
      http.get(`/api/v1/analyses/${analysisId}/results`, () =>
        HttpResponse.json({ analysis: makeAnalysis({ status: 'running', progress: 40 }), result: null, decisions: { accepted: [], rejected: [] } }),
      ),
    );
    await renderAt(semanticPath);
    expect(await screen.findByText('Анализ ещё выполняется')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'К ходу анализа' })).toHaveAttribute('href', `/projects/${projectId}/analysis/${analysisId}/scoring-progress`);
  });
});

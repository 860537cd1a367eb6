import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { NegativeKeywordSuggestion } from '@contract/analysis-results.js';
import { renderAt } from '../auth/render-app';
import { server, useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import type { AdFieldFixSuggestion } from '@contract/analysis-results.js';
import { allSuggestions, analysisId, fakePagedApi, makeAnalysis, projectId } from './fixtures';

useTestServer();

const semanticPath = `/projects/${projectId}/analysis/${analysisId}/semantic`;
let api: ReturnType<typeof fakePagedApi>;

beforeEach(() => {
  api = fakePagedApi({ decisions: { 's-cross': 'accepted' } });
  signInOwner(...api.handlers);
});

const list = () => screen.getByRole('list', { name: 'Список предложений' });
const itemWith = (text: string) => within(list()).getByText(text).closest('[data-testid="suggestion"]') as HTMLElement;
const counts = () => [screen.getByTestId('accepted-count').textContent, screen.getByTestId('rejected-count').textContent, screen.getByTestId('undecided-count').textContent];

describe('semantic suggestions, read page by page', () => {
  it('lists the suggestions by money with their decisions, and narrows them with the ready-made filters', async () => {
    const user = userEvent.setup();
    const { router } = await renderAt(semanticPath);
    await screen.findByRole('heading', { name: 'Семантика: предложения' });
    await waitFor(() => expect(within(list()).getAllByTestId('suggestion')).toHaveLength(6));
    expect(counts()).toEqual(['1', '0', '5']);

    // A query phrase shows its numbers, the threshold it passed and the period of the report.
    const phrase = itemWith('-окна пвх rehau');
    expect(phrase).toHaveTextContent('9 кл. · 450 ₽ без конверсий · 435 ₽ в месяц · период 01.01.2025 — 31.01.2025');
    expect(phrase).toHaveTextContent('Клики9 кликов (порог 5 кликов)');
    // The earlier choice comes back from the server.
    expect(within(itemWith('окна → окна -пластиковые')).getByRole('button', { name: 'Принять' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('link', { name: 'Проверить вручную' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ kind: ['negative_keyword'], status: ['check_by_hand'] }));
    await waitFor(() => expect(within(list()).getAllByTestId('suggestion')).toHaveLength(1));
    expect(list()).toHaveTextContent('-отзывы');
    // Ambiguous intents are never accepted in bulk.
    expect(screen.queryByRole('button', { name: /^Принять все/ })).not.toBeInTheDocument();
    expect(api.requestsTo('/suggestions').at(-1)?.params.getAll('status')).toEqual(['check_by_hand']);
  });

  it('accepts and rejects one suggestion: only that change goes to PATCH decisions, the counts follow', async () => {
    const user = userEvent.setup();
    await renderAt(semanticPath);
    await waitFor(() => expect(within(list()).getAllByTestId('suggestion')).toHaveLength(6));

    await user.click(within(itemWith('-бесплатно')).getByRole('button', { name: 'Принять' }));
    await waitFor(() => expect(api.patches.at(-1)).toEqual({ changes: [{ id: 's-free', decision: 'accepted' }] }));
    expect(within(itemWith('-бесплатно')).getByRole('button', { name: 'Принять' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(counts()).toEqual(['2', '0', '4']));

    await user.click(within(itemWith('-отзывы')).getByRole('button', { name: 'Отклонить' }));
    await waitFor(() => expect(api.patches.at(-1)).toEqual({ changes: [{ id: 's-reviews', decision: 'rejected' }] }));
    // A second click on the pressed button clears the choice.
    await user.click(within(itemWith('-бесплатно')).getByRole('button', { name: 'Принять' }));
    await waitFor(() => expect(api.patches.at(-1)).toEqual({ changes: [{ id: 's-free', decision: 'undecided' }] }));
    await waitFor(() => expect(counts()).toEqual(['1', '1', '4']));
    expect(await screen.findByText('Решения сохранены')).toBeInTheDocument();
    // One small request per click; the decided suggestions are never gathered.
    expect(api.patches).toHaveLength(3);
    expect(api.requestsTo('/suggestions').filter((entry) => entry.params.getAll('decision').length > 0)).toEqual([]);
    expect(Object.fromEntries(api.decisions)).toEqual({ 's-cross': 'accepted', 's-reviews': 'rejected' });
  });

  it('keeps the last choice when clicks come faster than the saves', async () => {
    const user = userEvent.setup();
    await renderAt(semanticPath);
    await waitFor(() => expect(within(list()).getAllByTestId('suggestion')).toHaveLength(6));
    await user.click(within(itemWith('-бесплатно')).getByRole('button', { name: 'Принять' }));
    await user.click(within(itemWith('-вакансии')).getByRole('button', { name: 'Принять' }));
    await user.click(within(itemWith('-отзывы')).getByRole('button', { name: 'Принять' }));
    await screen.findByText('Решения сохранены');
    // One after another, in the order of the clicks.
    expect(api.patches.map((body) => body.changes)).toEqual([
      [{ id: 's-free', decision: 'accepted' }],
      [{ id: 's-jobs', decision: 'accepted' }],
      [{ id: 's-reviews', decision: 'accepted' }],
    ]);
    expect(Object.fromEntries(api.decisions)).toEqual({ 's-cross': 'accepted', 's-free': 'accepted', 's-jobs': 'accepted', 's-reviews': 'accepted' });
  });

  it('accepts every negative of a category in bulk by its filter, and the counts update', async () => {
    const user = userEvent.setup();
    const { router } = await renderAt(semanticPath);
    await waitFor(() => expect(within(list()).getAllByTestId('suggestion')).toHaveLength(6));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Категория минус-слов' }), 'Работа и вакансии');
    await waitFor(() => expect(router.state.location.search).toEqual({ category: ['jobs'], kind: ['negative_keyword'] }));
    await waitFor(() => expect(within(list()).getAllByTestId('suggestion')).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Принять все минус-слова категории „Работа и вакансии“' }));
    await waitFor(() => expect(api.bulk).toEqual([{ filter: { category: ['jobs'], kind: ['negative_keyword'], status: ['ready'] }, decision: 'accepted' }]));
    await waitFor(() => expect(counts()).toEqual(['2', '0', '4']));
    // The list is read again: the suggestion shows its new decision.
    await waitFor(() => expect(within(itemWith('-вакансии')).getByRole('button', { name: 'Принять' })).toHaveAttribute('aria-pressed', 'true'));
    expect(await screen.findByText('Принято: 1 предложение')).toBeInTheDocument();
  });

  it('narrows the suggestions to a campaign and to the undecided ones', async () => {
    const user = userEvent.setup();
    const { router } = await renderAt(semanticPath);
    await waitFor(() => expect(within(list()).getAllByTestId('suggestion')).toHaveLength(6));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Кампания' }), 'Окна — РСЯ');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Решение' }), 'Без решения');
    await waitFor(() => expect(router.state.location.search).toEqual({ campaign: ['c1'], decision: ['undecided'] }));
    await waitFor(() => expect(api.requestsTo('/suggestions').at(-1)?.params.getAll('campaign')).toEqual(['c1']));
    expect(api.requestsTo('/suggestions').at(-1)?.params.getAll('decision')).toEqual(['undecided']);
  });

  it('rejects a whole long list at once, read page by page', async () => {
    const many: NegativeKeywordSuggestion[] = Array.from({ length: 130 }, (_, index) => ({ ...(allSuggestions[0] as NegativeKeywordSuggestion), id: `s-${index}`, text: `слово${index}` }));
    api = fakePagedApi({ suggestions: many });
    server.use(...api.handlers);
    const user = userEvent.setup();
    await renderAt(semanticPath);
    expect(await screen.findByText('Показано 50 из 130')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Показать ещё' }));
    expect(await screen.findByText('Показано 100 из 130')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Отклонить все предложения' }));
    await waitFor(() => expect(api.bulk).toEqual([{ filter: {}, decision: 'rejected' }]));
    await waitFor(() => expect(screen.getByTestId('rejected-count')).toHaveTextContent('130'));
  });

  it('says «более N» when the server stopped counting, and reads on while the pages are full', async () => {
    const many: NegativeKeywordSuggestion[] = Array.from({ length: 130 }, (_, index) => ({ ...(allSuggestions[0] as NegativeKeywordSuggestion), id: `s-${index}`, text: `слово${index}` }));
    api = fakePagedApi({ suggestions: many, totalCap: 100 });
    server.use(...api.handlers);
    const user = userEvent.setup();
    await renderAt(semanticPath);
    expect(await screen.findByText('Показано 50 из более 100')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Предложения/ })).toHaveTextContent('Предложения (более 100)');
    await user.click(screen.getByRole('button', { name: 'Показать ещё' }));
    expect(await screen.findByText('Показано 100 из более 100')).toBeInTheDocument();
    // Page 3 is past the counted 100: asked for because page 2 was full, and the last since it is not.
    await user.click(screen.getByRole('button', { name: 'Показать ещё' }));
    expect(await screen.findByText('Показано 130 из 130')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Показать ещё' })).not.toBeInTheDocument();
  });

  it('lets the user correct an accepted ad fix before it is exported', async () => {
    const user = userEvent.setup();
    const { router } = await renderAt(semanticPath);
    await screen.findByRole('heading', { name: 'Семантика: предложения' });
    await user.click(screen.getByRole('link', { name: 'Объявления' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ kind: ['ad_field'] }));
    await waitFor(() => expect(within(list()).getAllByTestId('suggestion')).toHaveLength(1));
    const adItem = () => within(list()).getByTestId('suggestion');
    await user.click(within(adItem()).getByRole('button', { name: 'Принять' }));
    const input = await within(adItem()).findByLabelText('Новое значение (можно поправить)');
    expect(input).toHaveValue('Пластиковые окна от завода с установкой под ключ');
    await user.clear(input);
    await user.type(input, 'Окна от завода под ключ');
    await user.tab();
    await waitFor(() => expect(api.patches.at(-1)).toEqual({ changes: [{ id: 's-ad', decision: 'accepted', value: 'Окна от завода под ключ' }] }));
  });

  it('shows a fix no cut can make as «переписать вручную» with the numbers, and saves only what the user types', async () => {
    const adFix = allSuggestions.find((item): item is AdFieldFixSuggestion => item.kind === 'ad_field')!;
    const manual: AdFieldFixSuggestion = {
      ...adFix,
      field: 'text',
      index: 0,
      before: 'Сверхпрочныеэнергосберегающиестеклопакеты для любого дома',
      after: '',
      manual: { limit: 81, length: 94 },
      reason: 'Текст: 94 символов при лимите 81. Сократить без потери смысла не получается: перепишите вручную.',
    };
    api = fakePagedApi({ decisions: { 's-cross': 'accepted' }, suggestions: allSuggestions.map((item) => (item.id === adFix.id ? manual : item)) });
    server.use(...api.handlers);
    const user = userEvent.setup();
    const { router } = await renderAt(semanticPath);
    await screen.findByRole('heading', { name: 'Семантика: предложения' });
    await user.click(screen.getByRole('link', { name: 'Объявления' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ kind: ['ad_field'] }));
    await waitFor(() => expect(within(list()).getAllByTestId('suggestion')).toHaveLength(1));
    const adItem = () => within(list()).getByTestId('suggestion');
    expect(adItem()).toHaveTextContent('Сверхпрочныеэнергосберегающиестеклопакеты для любого дома → переписать вручную (сейчас 94, лимит 81)');
    await user.click(within(adItem()).getByRole('button', { name: 'Принять' }));
    const input = await within(adItem()).findByLabelText('Ваш вариант (лимит 81; без него в файл ничего не попадёт)');
    expect(input).toHaveValue('');
    await user.type(input, 'Энергосберегающие стеклопакеты для любого дома');
    await user.tab();
    await waitFor(() =>
      expect(api.patches.at(-1)).toEqual({ changes: [{ id: manual.id, decision: 'accepted', value: 'Энергосберегающие стеклопакеты для любого дома' }] }),
    );
  });

  it('says so when the analysis is still running', async () => {
    server.use(
      http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json({ error: 'Анализ ещё не завершён', code: 'ANALYSIS_NOT_COMPLETED' }, { status: 409 })),
      http.get(`/api/v1/analyses/${analysisId}`, () => HttpResponse.json({ analysis: makeAnalysis({ status: 'running', progress: 40 }) })),
    );
    await renderAt(semanticPath);
    expect(await screen.findByText('Анализ ещё выполняется')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'К ходу анализа' })).toHaveAttribute('href', `/projects/${projectId}/analysis/${analysisId}/scoring-progress`);
  });
});

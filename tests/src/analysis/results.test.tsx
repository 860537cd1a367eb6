import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeExportNotes, EXPORT_NOTES_HEADER } from '@contract/analysis.js';
import type { Finding } from '@contract/analysis-results.js';
import { renderAt } from '../auth/render-app';
import { server, useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { aggregatedWaste, allFindings, analysisId, fakePagedApi, makeAnalysis, makeResults, projectId, summary } from './fixtures';

useTestServer();

const resultsPath = `/projects/${projectId}/analysis/${analysisId}/results`;
const editorNote =
  'Объявлений не выгружено в файл Google Ads Editor: 1 — из их текстов, быстрых ссылок, уточнений и фраз группы не набралось 3 разных заголовков до 30 знаков и 2 описаний до 90 знаков. Например: «Окна» (кампания «Окна — поиск», группа «Окна»).';
let api: ReturnType<typeof fakePagedApi>;

beforeEach(() => {
  api = fakePagedApi();
  signInOwner(...api.handlers);
});

const findingsList = () => screen.getByRole('list', { name: 'Список замечаний' });

describe('results header', () => {
  it('shows the one money figure with its causes, the scores and the severity counts from the results answer alone', async () => {
    await renderAt(resultsPath);
    expect(await screen.findByTestId('money-headline')).toHaveTextContent('Теряете ≈ 5 187 ₽ в месяц');
    const causes = within(screen.getByRole('list', { name: 'Из чего складываются потери' })).getAllByRole('listitem');
    // Biggest cause first, each with its money and how many places make it up.
    expect(causes.map((cause) => cause.textContent?.replace(/\s/g, ' '))).toEqual(['Фразы без конверсий3 290 ₽ в месяц13 мест', 'Нецелевые запросы1 897 ₽ в месяц4 места']);
    expect(screen.getByText(/5 360 ₽ за 01.01.2025 — 31.01.2025, пересчитано на месяц/)).toBeInTheDocument();

    expect(screen.getByRole('img', { name: 'Оценка аккаунта: 64 из 100' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Оценки кампаний из 100' })).toBeInTheDocument();
    expect(screen.getByText('Окна — РСЯ: 91 из 100')).toBeInTheDocument();
    // Severities are counts, not competing money figures.
    expect(screen.getByTestId('severity-count-high')).toHaveTextContent(/^Деньги уходят сейчас: 2$/);
    expect(screen.getByTestId('severity-count-medium')).toHaveTextContent(/^Упущенные возможности: 1$/);
    expect(screen.queryByTestId('wasted-per-month')).not.toBeInTheDocument();
    expect(screen.queryByTestId('non-target-queries')).not.toBeInTheDocument();

    // The first findings page came with the results answer: no list request was needed.
    expect(within(findingsList()).getAllByTestId('finding').length).toBeGreaterThan(0);
    expect(api.requestsTo('/findings')).toHaveLength(0);
    expect(api.requestsTo('/results')).toHaveLength(1);
  });

  it('shows each finding with its evidence, and an aggregated one «12 фраз» with its examples and the full list a click away', async () => {
    const user = userEvent.setup();
    await renderAt(resultsPath);
    const list = within(await screen.findByRole('list', { name: 'Список замечаний' }));
    const single = list.getAllByTestId('finding')[0]!;
    expect(single).toHaveTextContent('Клики42 клика (порог 30 кликов)');
    expect(single).toHaveTextContent('Расход без конверсий3 400 ₽ (порог 3 000 ₽)');
    expect(single).toHaveTextContent('период 01.01.2025 — 31.01.2025');

    const aggregated = list.getAllByTestId('finding')[1]!;
    expect(aggregated).toHaveTextContent('Пластиковые окна');
    expect(aggregated).toHaveTextContent('12 фраз');
    expect(aggregated).toHaveTextContent('2 845 ₽ в месяц');
    expect(within(aggregated).getAllByTestId('finding-item')).toHaveLength(5);

    await user.click(within(aggregated).getByRole('button', { name: 'Все 12 фраз' }));
    const all = within(await within(aggregated).findByRole('list', { name: 'Все места: Фразы без конверсий' }));
    expect(all.getAllByTestId('finding-item')).toHaveLength(12);
    expect(all.getAllByTestId('finding-item')[11]).toHaveTextContent('окна дешево 12');
    expect(api.requestsTo(`/findings/${aggregatedWaste.id}/items`)).toHaveLength(1);
    expect(within(aggregated).getByText('Показано 12 из 12')).toBeInTheDocument();
  });

  it('renders an analysis stored before the money story with its spend without conversions', async () => {
    server.use(http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults({ summary: { ...summary, money: null } }))));
    await renderAt(resultsPath);
    expect(await screen.findByTestId('wasted-per-month')).toHaveTextContent('3 290 ₽ в месяц');
    expect(screen.queryByTestId('money-headline')).not.toBeInTheDocument();
  });

  it('says so when the analysis is still running (the results answer is refused)', async () => {
    server.use(
      http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json({ error: 'Анализ ещё не завершён', code: 'ANALYSIS_NOT_COMPLETED' }, { status: 409 })),
      http.get(`/api/v1/analyses/${analysisId}`, () => HttpResponse.json({ analysis: makeAnalysis({ status: 'running', progress: 40 }) })),
    );
    await renderAt(resultsPath);
    expect(await screen.findByText('Анализ ещё выполняется')).toBeInTheDocument();
  });
});

describe('money causes and the findings list', () => {
  it('opens the filtered list of a cause: its findings, its filter in the address', async () => {
    const user = userEvent.setup();
    const { router } = await renderAt(resultsPath);
    await user.click(await screen.findByRole('link', { name: 'Фразы без конверсий' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ check: ['stats.wasted_spend'] }));
    await waitFor(() => expect(api.requestsTo('/findings').at(-1)?.params.getAll('check')).toEqual(['stats.wasted_spend']));
    await waitFor(() => expect(within(findingsList()).getAllByTestId('finding')).toHaveLength(2));
    expect(screen.getByRole('combobox', { name: 'Проверка' })).toHaveValue('stats.wasted_spend');
    expect(findingsList()).not.toHaveTextContent('Низкий CTR');

    // The suggestions cause leads to the semantic screen's negatives.
    await user.click(screen.getByRole('button', { name: 'Сбросить фильтры' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    await user.click(screen.getByRole('link', { name: 'Нецелевые запросы' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${projectId}/analysis/${analysisId}/semantic`));
    expect(router.state.location.search).toEqual({ kind: ['negative_keyword'] });
  });

  it('opens a filtered list straight from its address, and filters by severity and text', async () => {
    const user = userEvent.setup();
    const { router } = await renderAt(`${resultsPath}?severity=%5B%22low%22%5D`);
    await waitFor(() => expect(within(findingsList()).getAllByTestId('finding')).toHaveLength(1));
    expect(findingsList()).toHaveTextContent('Заголовок длиннее лимита');
    expect(api.requestsTo('/findings')[0]?.params.getAll('severity')).toEqual(['low']);
    // The count beside the title is the filtered list's, out of all 4 of the fixture.
    expect(screen.getByTestId('findings-count')).toHaveTextContent('(1 из 4)');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Важность' }), 'Любая');
    await user.type(screen.getByRole('searchbox', { name: 'Поиск' }), 'CTR{Enter}');
    await waitFor(() => expect(router.state.location.search).toEqual({ text: 'CTR' }));
    await waitFor(() => expect(within(findingsList()).getAllByTestId('finding')).toHaveLength(1));
    expect(findingsList()).toHaveTextContent('Низкий CTR на поиске');
  });

  it('narrows the list to one group from a finding, and the filter can be removed', async () => {
    const user = userEvent.setup();
    const { router } = await renderAt(resultsPath);
    const first = (await within(await screen.findByRole('list', { name: 'Список замечаний' })).findAllByTestId('finding'))[0]!.closest('.finding-row') as HTMLElement;
    await user.click(within(first).getByRole('link', { name: 'Все замечания группы' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ group: ['c0g0'] }));
    await waitFor(() => expect(api.requestsTo('/findings').at(-1)?.params.getAll('group')).toEqual(['c0g0']));
    await user.click(await screen.findByRole('button', { name: 'Убрать фильтр: Группа: Пластиковые окна' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
  });

  it('reads the findings page by page: the first with the results, the next on demand', async () => {
    const many: Finding[] = Array.from({ length: 120 }, (_, index) => ({ ...allFindings[2]!, id: `f-${index}`, target: { ...allFindings[2]!.target, key: `c0g0k${index}`, label: `фраза ${index + 1}` } }));
    api = fakePagedApi({ findings: many });
    server.use(...api.handlers);
    const user = userEvent.setup();
    await renderAt(resultsPath);
    expect(await screen.findByText('Показано 50 из 120')).toBeInTheDocument();
    // Virtualised: only the rows near the screen are drawn, not all 50.
    expect(within(findingsList()).getAllByTestId('finding').length).toBeLessThan(50);
    expect(api.requestsTo('/findings')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Показать ещё' }));
    expect(await screen.findByText('Показано 100 из 120')).toBeInTheDocument();
    expect(api.requestsTo('/findings').map((entry) => entry.params.get('page'))).toEqual(['2']);
    await user.click(screen.getByRole('button', { name: 'Показать ещё' }));
    expect(await screen.findByText('Показано 120 из 120')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Показать ещё' })).not.toBeInTheDocument();
    expect(api.requestsTo('/findings').map((entry) => entry.params.get('page_size'))).toEqual(['50', '50']);
  });
});

describe('export', () => {
  it('counts the accepted changes and what the accepted negatives block, and downloads the export with the bearer token', async () => {
    server.use(
      http.get(`/api/v1/analyses/${analysisId}/results`, () =>
        HttpResponse.json(makeResults({ decisions: { accepted: 2, rejected: 1, blockedQueries: { queries: 2, clicks: 16, cost: 1210, costPerMonth: 1170.97 } } })),
      ),
    );
    const user = userEvent.setup();
    const createObjectURL = vi.fn(() => 'blob:export');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
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
    expect(await screen.findByTestId('accepted-summary')).toHaveTextContent('Принято 2 изменения. Минус-слова отсекут 2 нецелевых запроса на 1 171 ₽ в месяц.');

    await user.click(screen.getByRole('button', { name: 'Яндекс Директ, CSV' }));
    await waitFor(() => expect(clicked).toEqual(['direct-changes.csv']));
    expect(seen).toEqual({ auth: 'Bearer access-1', url: expect.stringContaining('platform=yandex_direct&format=csv') });
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    expect(await blob.text()).toBe('Кампания;Минус-слова\n');
  });

  it('lists after the download what the file leaves for a person (the server’s notes), e.g. ads the Editor file could not take', async () => {
    server.use(
      http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults({ decisions: { accepted: 2, rejected: 0, blockedQueries: null } }))),
      http.get(`/api/v1/analyses/${analysisId}/export`, () =>
        new HttpResponse('Campaign\tAd group\n', {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': "attachment; filename*=UTF-8''google-ads-editor-changes.csv",
            [EXPORT_NOTES_HEADER]: encodeExportNotes([editorNote]),
          },
        }),
      ),
    );
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:export'), revokeObjectURL: vi.fn() });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup();
    await renderAt(resultsPath);
    await user.click(await screen.findByRole('button', { name: 'Google Ads Editor, CSV' }));
    const notes = await screen.findByTestId('export-notes');
    expect(notes).toHaveTextContent('Обратите внимание на файл google-ads-editor-changes.csv:');
    expect(within(notes).getByRole('listitem')).toHaveTextContent(editorNote);
  });

  it('disables the export until something is accepted', async () => {
    await renderAt(resultsPath);
    expect(await screen.findByText('Пока не принято ни одного предложения: выгружать нечего.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Яндекс Директ, XLSX (файл на кампанию)' })).toBeDisabled();
  });
});

describe('the action plan', () => {
  it('without a language model leads through «План действий» (not «ИИ-анализ») to the plan built from the summary, biggest roubles first, quoting the one money figure', async () => {
    server.use(http.get(`/api/v1/analyses/${analysisId}/ai-plans`, () => HttpResponse.json({ available: false, unavailable_reason: 'не настроена', price: 10, balance: 100, items: [] })));
    const user = userEvent.setup();
    const { router } = await renderAt(resultsPath);
    await user.click(await screen.findByRole('link', { name: 'План действий' }));
    expect(screen.queryByRole('link', { name: 'ИИ-анализ' })).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'План действий по результатам аудита' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/projects/${projectId}/analysis/${analysisId}/ai-plan/${analysisId}`);
    const steps = screen.getAllByTestId('plan-step');
    expect(steps.map((step) => within(step).getByRole('heading').textContent)).toEqual([
      '1. Расход без конверсий',
      '2. Нецелевые запросы: добавьте минус-слова',
      '3. Низкий CTR на поиске',
      '4. Заголовок длиннее лимита',
    ]);
    expect(steps[0]).toHaveTextContent('3 290 ₽ в месяц');
    expect(steps[0]).toHaveTextContent('Что сделать: Остановите фразу «окна бесплатно» или снизьте ставку.');
    expect(steps[1]).toHaveTextContent('потери 1 897 ₽ в месяц · 4 запроса без конверсий');
    expect(steps[1]).toHaveTextContent('Что сделать: Добавьте минус-слова: -бесплатно, -вакансии, -окна пвх rehau (3 шт.) — на экране предложений.');
    // The plan quotes the results header's figure, not a sum of its own, and names the steps that make it up.
    expect(screen.getByTestId('plan-total')).toHaveTextContent('Теряете ≈ 5 187 ₽ в месяц: расход без единой конверсии — шаги 1 и 2 вместе.');
    expect(steps[0]).toHaveTextContent('потери 3 290 ₽ в месяц');
  });
});

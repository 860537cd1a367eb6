import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LandingUrlsResponse, CheckedPage, PageCheck, PageCheckResults } from '@contract/page-check.js';
import { renderAt } from '../auth/render-app';
import { server, useTestServer, verifiedUser } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { controlledStream, sseEvent, streamUnreachable } from '../lib/event-stream';

useTestServer();

const projectId = '44444444-4444-4444-8444-444444444444';
const analysisId = '66666666-6666-4666-8666-666666666666';
const progressPath = `/projects/${projectId}/page-check/${analysisId}/progress`;
const resultsPath = `/projects/${projectId}/page-check/${analysisId}/results`;

const landing: LandingUrlsResponse = {
  urls: [
    { url: 'https://okna.ru/plastikovye?utm_source=yandex', campaigns: 1, groups: 3, keywords: 24, ads: 5 },
    { url: 'https://okna.ru/dacha', campaigns: 1, groups: 1, keywords: 2, ads: 1 },
    { url: 'https://okna.ru/old', campaigns: 2, groups: 1, keywords: 1, ads: 2 },
  ],
  price_per_page: 1,
  balance: 10,
};

const analysis = (extra: Partial<PageCheck> = {}): PageCheck => ({
  id: analysisId,
  project_id: projectId,
  status: 'queued',
  stage: 'queued',
  progress: 0,
  progress_detail: null,
  pages_count: 4,
  cost: 4,
  score: null,
  summary: null,
  error: null,
  author: { id: verifiedUser.id, full_name: 'Анна Петрова' },
  created_at: '2025-03-01T10:00:00.000Z',
  started_at: null,
  finished_at: null,
  ...extra,
});

const page = (extra: Partial<CheckedPage>): CheckedPage => ({
  url: 'https://okna.ru/plastikovye',
  finalUrl: 'https://okna.ru/plastikovye',
  status: 200,
  contentType: 'text/html',
  timingMs: 420,
  redirects: [],
  error: null,
  title: 'Пластиковые окна',
  metaDescription: null,
  h1: ['Пластиковые окна с установкой'],
  h2: [],
  wordCount: 600,
  noindex: false,
  canonical: null,
  score: 92,
  coverage: 1,
  headingCoverage: 1,
  adPromise: { words: 3, coverage: 1, missing: [] },
  groups: [{ campaign: 'Окна', group: 'Пластиковые окна', keywords: 2, lemmas: 2, coverage: 1, headingCoverage: 1, missing: [] }],
  ads: 5,
  cost: 1200,
  clicks: 40,
  issues: [],
  ...extra,
});

const results: PageCheckResults = {
  analysis: analysis({ status: 'completed', stage: 'done', progress: 100, score: 48, finished_at: '2025-03-01T10:02:00.000Z' }),
  result: {
    pages: [
      page({ url: 'https://okna.ru/old', finalUrl: null, status: null, error: 'Страница не ответила за 10 с', score: 0, title: null, h1: [], groups: [], issues: [{ code: 'fetch_failed', severity: 'high', title: 'Страница не открылась: Страница не ответила за 10 с', explanation: 'Клик потерян.', fix: 'Проверьте сервер.' }] }),
      page({
        url: 'https://okna.ru/dacha',
        finalUrl: 'https://okna.ru/dacha',
        title: 'Кондиционеры',
        h1: [],
        score: 21,
        coverage: 0.25,
        headingCoverage: 0,
        adPromise: { words: 2, coverage: 0.5, missing: ['скидка'] },
        groups: [{ campaign: 'Окна', group: 'Окна на дачу', keywords: 2, lemmas: 4, coverage: 0.25, headingCoverage: 0, missing: ['дача', 'дачный', 'окно'] }],
        issues: [
          { code: 'no_utm', severity: 'low', title: 'В ссылке объявления нет UTM-меток', explanation: 'Без меток сложнее.', fix: 'Добавьте utm_source.' },
          { code: 'low_keyword_coverage', severity: 'high', title: 'Страница слабо отвечает на ключевые фразы групп «Окна на дачу»: найдено 25% слов', explanation: 'Посетитель уходит.', fix: 'Ведите группу на подходящую страницу.' },
        ],
      }),
      page({}),
    ],
    summary: { pages: 3, reachable: 2, averageScore: 38, weakPages: 2, issuesBySeverity: { high: 2, medium: 0, low: 1 }, costOnWeakPages: 2400, topIssues: [{ code: 'fetch_failed', title: 'Страница не открывается', pages: 1 }] },
  },
};

beforeEach(() => {
  signInOwner(
    // The live stream is not served unless a test does: these screens poll, as without one.
    streamUnreachable('/api/v1/page-checks/:id/events'),
    http.get('/api/v1/tokens/balance', () => HttpResponse.json({ balance: 10 })),
    http.get(`/api/v1/projects/${projectId}/page-checks`, () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 5 })),
  );
});

afterEach(() => {
  vi.useRealTimers();
});

describe('new page-check analysis', () => {
  it('lists the landing pages with their groups and keywords, prices the chosen ones and starts with an idempotency key', async () => {
    const started: unknown[] = [];
    server.use(
      http.get(`/api/v1/projects/${projectId}/page-checks/urls`, () => HttpResponse.json(landing)),
      http.post(`/api/v1/projects/${projectId}/page-checks`, async ({ request }) => {
        started.push(await request.json());
        return HttpResponse.json({ analysis: analysis({ pages_count: 2, cost: 2 }) }, { status: 201 });
      }),
      http.get(`/api/v1/page-checks/${analysisId}`, () => HttpResponse.json({ analysis: analysis() })),
    );
    const user = userEvent.setup();
    const { router } = await renderAt(`/projects/${projectId}/page-check/new`);

    const row = (await screen.findByText('https://okna.ru/plastikovye?utm_source=yandex')).closest('label')!;
    expect(within(row).getByText('3 группы · 24 фразы · 5 объявлений')).toBeInTheDocument();
    expect(screen.getByTestId('page-check-cost')).toHaveTextContent('3 токена');

    await user.click(screen.getByRole('checkbox', { name: /okna\.ru\/old/ }));
    expect(screen.getByTestId('page-check-cost')).toHaveTextContent('2 токена');
    await user.click(screen.getByRole('button', { name: 'Проверить страницы' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(progressPath));
    expect(started).toHaveLength(1);
    // The price on screen goes with the start: the server charges it or nothing.
    expect(started[0]).toEqual({ urls: ['https://okna.ru/plastikovye?utm_source=yandex', 'https://okna.ru/dacha'], idempotency_key: expect.any(String), expected_cost: 2 });
  });

  it('shows the amounts when the server refuses for lack of tokens, and blocks a start the balance cannot pay', async () => {
    server.use(
      http.get(`/api/v1/projects/${projectId}/page-checks/urls`, () => HttpResponse.json({ ...landing, balance: 2 })),
      http.post(`/api/v1/projects/${projectId}/page-checks`, () =>
        HttpResponse.json({ error: 'Недостаточно токенов на балансе', code: 'INSUFFICIENT_TOKENS', detail: [{ loc: ['body', 'urls'], msg: 'Нужно токенов: 2, на балансе: 1' }] }, { status: 402 }),
      ),
    );
    const user = userEvent.setup();
    await renderAt(`/projects/${projectId}/page-check/new`);
    await screen.findByText('https://okna.ru/dacha');
    // 3 pages for 3 tokens with 2 on the balance: refused before asking the server.
    expect(screen.getByRole('button', { name: 'Проверить страницы' })).toBeDisabled();
    expect(screen.getByRole('alert')).toHaveTextContent('Недостаточно токенов на балансе');

    await user.click(screen.getByRole('checkbox', { name: /okna\.ru\/old/ }));
    await user.click(screen.getByRole('button', { name: 'Проверить страницы' }));
    expect(await screen.findByText('Нужно токенов: 2, на балансе: 1')).toBeInTheDocument();
  });

  it('explains when the project has no landing pages, and links the previous checks', async () => {
    server.use(
      http.get(`/api/v1/projects/${projectId}/page-checks/urls`, () => HttpResponse.json({ ...landing, urls: [] })),
      http.get(`/api/v1/projects/${projectId}/page-checks`, () => HttpResponse.json({ items: [results.analysis], total: 1, page: 1, page_size: 5 })),
    );
    await renderAt(`/projects/${projectId}/page-check/new`);
    expect(await screen.findByText(/В объявлениях проекта нет ссылок на посадочные страницы/)).toBeInTheDocument();
    const previous = await screen.findByRole('heading', { name: 'Предыдущие проверки' });
    const link = within(previous.parentElement!).getByRole('link');
    expect(link).toHaveAttribute('href', resultsPath);
    expect(previous.parentElement).toHaveTextContent('4 страницы · Готово · оценка 48 из 100');
  });
});

describe('page-check progress', () => {
  it('polls every 2 seconds, shows the pages read so far and moves on to the results when done', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers = [
      analysis({ status: 'running', stage: 'fetching', progress: 22, progress_detail: { done: 1, total: 4 } }),
      analysis({ status: 'running', stage: 'analyzing', progress: 92, progress_detail: { done: 4, total: 4 } }),
      results.analysis,
    ];
    let calls = 0;
    server.use(
      http.get(`/api/v1/page-checks/${analysisId}`, () => HttpResponse.json({ analysis: answers[Math.min(calls++, answers.length - 1)] })),
      http.get(`/api/v1/page-checks/${analysisId}/results`, () => HttpResponse.json(results)),
    );
    const { router } = await renderAt(progressPath);

    expect(await screen.findByText('Проверено страниц: 1 из 4')).toBeInTheDocument();
    expect(screen.getByText('Загружаем страницы')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Ход проверки' })).toHaveAttribute('aria-valuenow', '22');
    expect(calls).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByText('Проверено страниц: 4 из 4')).toBeInTheDocument();
    expect(calls).toBe(2);

    await act(() => vi.advanceTimersByTimeAsync(2000));
    await waitFor(() => expect(router.state.location.pathname).toBe(resultsPath));
    expect(await screen.findByRole('heading', { name: 'Проверка посадочных страниц' })).toBeInTheDocument();
    // Finished: no more polling.
    const after = calls;
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(calls).toBe(after);
  });

  it('follows the check over its live stream, without polling, and moves on to the results when done', async () => {
    const stream = controlledStream();
    let reads = 0;
    server.use(
      http.get(`/api/v1/page-checks/${analysisId}`, () => {
        reads += 1;
        return HttpResponse.json({ analysis: analysis() });
      }),
      http.get(`/api/v1/page-checks/${analysisId}/events`, () => stream.response()),
      http.get(`/api/v1/page-checks/${analysisId}/results`, () => HttpResponse.json(results)),
    );
    const { router } = await renderAt(progressPath);
    stream.push(sseEvent('progress', { analysis: analysis({ status: 'running', stage: 'fetching', progress: 22, progress_detail: { done: 1, total: 4 } }) }));
    expect(await screen.findByText('Проверено страниц: 1 из 4')).toBeInTheDocument();
    stream.push(sseEvent('done', { analysis: results.analysis }));
    stream.close();
    await waitFor(() => expect(router.state.location.pathname).toBe(resultsPath));
    expect(reads).toBe(1);
  });

  it('cancels a running check and says the tokens came back', async () => {
    let cancelled = false;
    server.use(
      http.get(`/api/v1/page-checks/${analysisId}`, () => HttpResponse.json({ analysis: analysis(cancelled ? { status: 'cancelled' } : { status: 'running', stage: 'fetching', progress: 10 }) })),
      http.post(`/api/v1/page-checks/${analysisId}/cancel`, () => {
        cancelled = true;
        return HttpResponse.json({ analysis: analysis({ status: 'cancelled' }) });
      }),
    );
    const user = userEvent.setup();
    await renderAt(progressPath);
    await user.click(await screen.findByRole('button', { name: 'Отменить' }));
    expect(await screen.findByText('Анализ отменён, 4 токена возвращены на баланс.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Запустить заново' })).toHaveAttribute('href', `/projects/${projectId}/page-check/new`);
  });

  it('shows why a run failed', async () => {
    server.use(http.get(`/api/v1/page-checks/${analysisId}`, () => HttpResponse.json({ analysis: analysis({ status: 'failed', error: 'Не удалось выполнить анализ, токены возвращены' }) })));
    await renderAt(progressPath);
    expect(await screen.findByText('Не удалось выполнить анализ, токены возвращены')).toBeInTheDocument();
  });
});

describe('page-check results', () => {
  it('shows the summary and a row per page: score, answer, title/h1, coverage, missing words, issues by severity', async () => {
    server.use(http.get(`/api/v1/page-checks/${analysisId}/results`, () => HttpResponse.json(results)));
    const user = userEvent.setup();
    await renderAt(resultsPath);

    const summary = await screen.findByLabelText('Сводка');
    expect(within(summary).getByText('38')).toBeInTheDocument();
    expect(within(summary).getByText('2 400 ₽')).toBeInTheDocument();
    expect(within(summary).getByText('Страница не открывается: 1 страница')).toBeInTheDocument();
    // Paid clicks that land on a page that does not open are priced from the ads' statistics.
    expect(within(summary).getByText('Клики на неработающие страницы (1 страница)')).toBeInTheDocument();
    expect(within(summary).getByText('1 200 ₽')).toBeInTheDocument();
    // Problem counters are named as problems, not as the audit's money headings.
    expect(within(summary).getByText('Критичных проблем')).toBeInTheDocument();
    expect(within(summary).queryByText('Деньги уходят сейчас')).not.toBeInTheDocument();

    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    // A page that gave no answer was not checked: no score of its own, and the summary says it was not charged.
    expect(within(rows[0]).getByLabelText('Не проверена: нет ответа')).toHaveTextContent('—');
    expect(within(summary).getByText('Не удалось проверить (нет ответа), токены возвращены').nextElementSibling).toHaveTextContent('1 страница');
    expect(within(summary).getByText('средняя оценка из 100 (по ответившим страницам: 2 из 3)')).toBeInTheDocument();
    expect(within(rows[0]).getByText('Страница не ответила за 10 с')).toBeInTheDocument();
    expect(within(rows[0]).getByText('40 кликов на неработающую страницу')).toBeInTheDocument();

    const dacha = rows[1];
    expect(within(dacha).getByText('Заголовок вкладки (title): Кондиционеры')).toBeInTheDocument();
    expect(within(dacha).getByText('нет главного заголовка (H1)')).toBeInTheDocument();
    expect(within(dacha).getByRole('meter', { name: 'Покрытие ключевых фраз' })).toHaveAttribute('aria-valuenow', '25');
    expect(within(dacha).getByText('дача, дачный, окно')).toBeInTheDocument();
    expect(within(dacha).getByText('Из заголовков: скидка')).toBeInTheDocument();
    // High severity first, whatever the order the server sent.
    const issues = within(dacha).getAllByRole('button');
    expect(issues[0]).toHaveTextContent('Критично');
    expect(issues[1]).toHaveTextContent('Совет');
    await user.click(issues[0]);
    expect(within(dacha).getByText('Ведите группу на подходящую страницу.')).toBeInTheDocument();

    expect(within(rows[2]).getByText('всё найдено')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Нет')).toBeInTheDocument();
  });

  it('says in words that no page answered instead of an average of «0»', async () => {
    const dead = (url: string) =>
      page({ url, finalUrl: null, status: null, error: 'Домен не найден (okna.invalid)', score: 0, title: null, h1: [], groups: [], cost: 600, clicks: 20, issues: [{ code: 'fetch_failed', severity: 'high', title: 'Страница не открылась: Домен не найден (okna.invalid)', explanation: 'Клик потерян.', fix: 'Проверьте домен.' }] });
    const nothing: PageCheckResults = {
      analysis: analysis({ status: 'completed', stage: 'done', progress: 100, score: null, cost: 0, finished_at: '2025-03-01T10:02:00.000Z' }),
      result: {
        pages: [dead('https://okna.invalid/a'), dead('https://okna.invalid/b')],
        summary: { pages: 2, reachable: 0, unchecked: 2, averageScore: null, weakPages: 2, issuesBySeverity: { high: 2, medium: 0, low: 0 }, costOnWeakPages: 1200, topIssues: [{ code: 'fetch_failed', title: 'Страница не открывается', pages: 2 }] },
      },
    };
    server.use(http.get(`/api/v1/page-checks/${analysisId}/results`, () => HttpResponse.json(nothing)));
    await renderAt(resultsPath);

    const summary = await screen.findByLabelText('Сводка');
    expect(within(summary).getByRole('status')).toHaveTextContent('Ни одна страница не ответила — оценить их не по чему.');
    expect(within(summary).getByRole('status')).toHaveTextContent('Токены за эти страницы возвращены.');
    expect(within(summary).queryByText(/средняя оценка/)).not.toBeInTheDocument();
    expect(within(summary).getByText('Проверено').nextElementSibling).toHaveTextContent('0 страниц');
    // The clicks paid for pages that do not open stay a finding with their money.
    expect(within(summary).getByText('Клики на неработающие страницы (2 страницы)').nextElementSibling).toHaveTextContent('1 200 ₽');
  });

  it('sends an unfinished run back to its progress', async () => {
    server.use(http.get(`/api/v1/page-checks/${analysisId}/results`, () => HttpResponse.json({ error: 'Результаты ещё не готовы', code: 'RESULTS_NOT_READY' }, { status: 409 })));
    await renderAt(resultsPath);
    expect(await screen.findByRole('heading', { name: 'Результаты ещё не готовы' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'К ходу проверки' })).toHaveAttribute('href', progressPath);
  });
});

describe('the page check\'s former addresses (page-relevance, in the spec\'s route table)', () => {
  it('open the same screens at their new addresses', async () => {
    server.use(
      http.get(`/api/v1/projects/${projectId}/page-checks/urls`, () => HttpResponse.json(landing)),
      http.get(`/api/v1/page-checks/${analysisId}/results`, () => HttpResponse.json(results)),
    );
    const start = await renderAt(`/projects/${projectId}/page-relevance/new`);
    expect(await screen.findByText('https://okna.ru/dacha')).toBeInTheDocument();
    await waitFor(() => expect(start.router.state.location.pathname).toBe(`/projects/${projectId}/page-check/new`));
    start.unmount();

    const report = await renderAt(`/projects/${projectId}/page-relevance/${analysisId}/results`);
    expect(await screen.findByLabelText('Сводка')).toBeInTheDocument();
    await waitFor(() => expect(report.router.state.location.pathname).toBe(resultsPath));
  });
});

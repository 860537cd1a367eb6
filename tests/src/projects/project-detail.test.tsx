import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultProjectSettings, type ImportPreview, type ProjectDetail } from '@contract/projects.js';
import { reimportDirectJobKey } from '@/features/projects/direct-import-job';
import { completedJob, importJob, jobId, runningJob } from './import-job-fixtures';
import { renderAt } from '../auth/render-app';
import { server, useTestServer, verifiedUser } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { streamUnreachable } from '../lib/event-stream';
import { makeResults } from '../analysis/fixtures';

useTestServer();

const id = '44444444-4444-4444-8444-444444444444';
const campaignId = '77777777-7777-4777-8777-777777777777';
const detail: ProjectDetail = {
  id,
  name: 'Окна Плюс',
  site_url: 'https://okna-plus.ru',
  platform: 'yandex_direct',
  region: 'Москва',
  target_cpa: 1500,
  author: { id: verifiedUser.id, full_name: 'Анна Петрова' },
  created_at: '2025-02-01T10:00:00.000Z',
  updated_at: '2025-02-03T10:00:00.000Z',
  counts: { campaigns: 1, groups: 2, ads: 1, keywords: 3 },
  last_analysis: null,
  settings: {},
  stats: { impressions: 1400, clicks: 60, cost: 3200, conversions: 2 },
  period: { from: '2025-01-01', to: '2025-01-31' },
  search_queries: 0,
  campaigns: [
    {
      id: campaignId,
      external_id: '1001',
      name: 'Окна — поиск',
      type: 'search',
      groups_count: 2,
      ads_count: 1,
      keywords_count: 3,
      negative_keywords: 2,
      stats: { impressions: 1400, clicks: 60, cost: 3200, conversions: 2 },
      groups: [
        { name: 'Пластиковые окна', external_id: '2001', ads: 1, keywords: 2, negative_keywords: 1 },
        { name: 'Окна на дачу', external_id: null, ads: 0, keywords: 1, negative_keywords: 0 },
      ],
    },
  ],
  imports: [
    {
      id: '88888888-8888-4888-8888-888888888888',
      source: 'files',
      mode: 'create',
      status: 'completed',
      file_names: ['direct.xlsx'],
      counts: { campaigns: 1, groups: 2, ads: 1, keywords: 3, searchQueries: 0 },
      problems: [],
      created_by: { id: verifiedUser.id, full_name: 'Анна Петрова' },
      created_at: '2025-02-01T10:00:00.000Z',
      units_spent: null,
    },
  ],
  connection: null,
};

beforeEach(() => {
  signInOwner(
    // The live stream is not served unless a test does: these screens poll, as without one.
    streamUnreachable('/api/v1/projects/import-jobs/:id/events'),
    http.get(`/api/v1/projects/${id}`, () => HttpResponse.json(detail)),
    http.get('/api/v1/projects', () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 100 })),
    // The page's «Проверки по расписанию» and «Уведомления» (their own test below).
    http.get(`/api/v1/projects/${id}/schedule`, () => HttpResponse.json(noSchedule)),
    http.get(`/api/v1/projects/${id}/alert-rules`, () => HttpResponse.json(defaultRules)),
    http.get('/api/v1/monitoring/telegram', () => HttpResponse.json({ available: false, bot_username: null, linked: false, blocked: false })),
  );
});

const noSchedule = { schedule: null, time_zone: 'Europe/Moscow', mode: 'audit', price_per_run: 120, runs: [] };
const defaultRules = { new_leak: true, new_leak_min_rub: 1000, rejected: true, runout: true, runout_days: 3, run_failed: true, email: true, telegram: true, quiet_from: 22, quiet_to: 9, digest_only: false };

describe('scheduled re-audits on the project page', () => {
  it('shows the monthly cost before saving, follows the frequency, and saves what was chosen', async () => {
    const saved: unknown[] = [];
    server.use(
      http.put(`/api/v1/projects/${id}/schedule`, async ({ request }) => {
        saved.push(await request.json());
        return HttpResponse.json({ ...noSchedule, schedule: { frequency: 'daily', hour: 8, weekday: null, month_day: null, enabled: true, next_run_at: '2025-03-11T05:00:00.000Z' } });
      }),
    );
    const user = userEvent.setup();
    await renderAt(`/projects/${id}`);
    const form = await screen.findByRole('form', { name: 'Расписание проверок' });
    // Weekly by default: 4 runs of 120 tokens.
    expect(within(form).getByTestId('schedule-cost')).toHaveTextContent(/Одна проверка — 120 токенов, в месяц ≈ 480 токенов \(4 проверки\)/);
    await user.selectOptions(within(form).getByLabelText('Как часто'), 'daily');
    await user.selectOptions(within(form).getByLabelText('Во сколько'), '8');
    expect(within(form).getByTestId('schedule-cost')).toHaveTextContent(/в месяц ≈ 3\s600 токенов \(30 проверок\)/);
    expect(within(form).queryByLabelText('День недели')).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Сохранить расписание' }));
    await waitFor(() => expect(saved).toEqual([{ frequency: 'daily', hour: 8, weekday: 1, month_day: 1, time_zone: 'Europe/Moscow' }]));
    expect(await screen.findByTestId('schedule-next')).toHaveTextContent('Следующая проверка: 11 марта в 08:00 (Москва, UTC+3)');
    // The zones read as cities with their offset; the server still gets the IANA name (above).
    const zone = within(form).getByLabelText('Часовой пояс проекта');
    expect(within(zone).getByRole('option', { selected: true })).toHaveTextContent('Москва (UTC+3)');
    expect(within(zone).getByRole('option', { name: 'Екатеринбург (UTC+5)' })).toHaveValue('Asia/Yekaterinburg');
  });
});

describe('project detail', () => {
  it('shows the campaign tree, opens a group with its keywords, and links to the analyses', async () => {
    server.use(
      http.get(`/api/v1/projects/${id}/campaigns/${campaignId}`, () =>
        HttpResponse.json({
          id: campaignId,
          campaign: {
            name: 'Окна — поиск',
            negativeKeywords: [],
            groups: [
              {
                name: 'Пластиковые окна',
                negativeKeywords: ['ремонт'],
                keywords: [{ phrase: 'пластиковые окна', negativeWords: ['б/у'], matchType: 'broad' }],
                ads: [{ kind: 'text', headlines: ['Пластиковые окна', 'Скидка 20%'], texts: ['Установка за 1 день'], sitelinks: [], callouts: [] }],
              },
              { name: 'Окна на дачу', negativeKeywords: [], keywords: [], ads: [] },
            ],
          },
        }),
      ),
    );
    const user = userEvent.setup();
    await renderAt(`/projects/${id}`);
    expect(await screen.findByRole('heading', { name: 'Окна Плюс' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Новый анализ' })).toHaveAttribute('href', `/projects/${id}/analysis/new`);
    expect(screen.getByRole('link', { name: 'Проверка страниц' })).toHaveAttribute('href', `/projects/${id}/page-check/new`);
    expect(screen.getByRole('link', { name: 'История анализов' })).toHaveAttribute('href', `/projects/${id}/analysis/history`);
    expect(screen.getByText('direct.xlsx', { exact: false })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Окна — поиск/ }));
    await user.click(screen.getByRole('button', { name: /Пластиковые окна/ }));
    expect(await screen.findByText('пластиковые окна')).toBeInTheDocument();
    expect(screen.getByText('-б/у')).toBeInTheDocument();
    expect(screen.getByText('Пластиковые окна — Скидка 20%')).toBeInTheDocument();
  });

  it('deletes the project only after confirmation', async () => {
    const deleted = vi.fn();
    server.use(
      http.delete(`/api/v1/projects/${id}`, () => {
        deleted();
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup();
    const { router } = await renderAt(`/projects/${id}`);
    await user.click(await screen.findByRole('button', { name: 'Удалить проект' }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByText(/Удалить проект\?/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(deleted).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Удалить проект' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects'));
    expect(deleted).toHaveBeenCalledTimes(1);
  });

  it('says so when the project does not exist (or belongs to another organization)', async () => {
    server.use(http.get(`/api/v1/projects/${id}`, () => HttpResponse.json({ error: 'Проект не найден', code: 'PROJECT_NOT_FOUND' }, { status: 404 })));
    await renderAt(`/projects/${id}`);
    expect(await screen.findByRole('heading', { name: 'Проект не найден' })).toBeInTheDocument();
  });
});

/** The label → value pairs of a statistics grid. */
function statsOf(container: HTMLElement): Record<string, string> {
  const labels = [...container.querySelectorAll('dt')].map((term) => term.textContent ?? '');
  const values = [...container.querySelectorAll('dd')].map((value) => (value.textContent ?? '').replace(/\s/g, ' '));
  return Object.fromEntries(labels.map((label, index) => [label, values[index]]));
}

const reimportPreview = {
  draft_id: '12121212-1212-4212-8212-121212121212',
  source: 'files',
  platform: 'yandex_direct',
  file_names: ['new-direct.tsv'],
  counts: { campaigns: 1, groups: 1, ads: 2, keywords: 5, searchQueries: 0 },
  problems: [],
  detected: [],
  campaigns: [{ name: 'Окна — РСЯ', groups: 1, ads: 2, keywords: 5 }],
  expires_at: new Date(Date.now() + 3600_000).toISOString(),
};

describe('project detail: what the project holds', () => {
  it('sums up the statistics of the period and counts the campaigns, groups, ads and keywords', async () => {
    await renderAt(`/projects/${id}`);
    const statistics = (await screen.findByRole('heading', { name: /^Статистика за/ })).closest('section')!;
    expect(statistics).toHaveTextContent('Статистика за 1 янв. 2025 г. — 31 янв. 2025 г.');
    expect(statsOf(statistics)).toEqual({
      Показы: '1 400',
      Клики: '60',
      CTR: '4,29 %',
      Расход: '3 200 ₽',
      Конверсии: '2',
      'Цена конверсии': '1 600 ₽',
    });
    const totals = screen.getByRole('heading', { name: 'Окна Плюс' }).closest('section')!.querySelector('.stat-grid') as HTMLElement;
    expect(statsOf(totals)).toEqual({ Кампании: '1', Группы: '2', Объявления: '1', 'Ключевые фразы': '3' });
  });
});

describe('project detail: the last analysis', () => {
  it('shows the last analysis\' one money figure from its results summary (read once, kept for offline)', async () => {
    const analysisId = '66666666-6666-4666-8666-666666666666';
    const lastAnalysis = { id: analysisId, score: 64, created_at: '2025-02-02T10:00:00.000Z' };
    server.use(
      http.get(`/api/v1/projects/${id}`, () => HttpResponse.json({ ...detail, last_analysis: lastAnalysis })),
      http.get(`/api/v1/analyses/${analysisId}/results`, () => HttpResponse.json(makeResults())),
    );
    await renderAt(`/projects/${id}`);
    const totals = (await screen.findByRole('heading', { name: 'Окна Плюс' })).closest('section')!.querySelector('.stat-grid') as HTMLElement;
    await waitFor(() => expect(statsOf(totals)).toMatchObject({ 'Последний анализ': '64 / 100', 'Потери денег': 'Теряете ≈ 5 187 ₽ в месяц' }));
  });

  it('shows the score alone for an analysis stored before the money story', async () => {
    const analysisId = '66666666-6666-4666-8666-666666666666';
    server.use(
      http.get(`/api/v1/projects/${id}`, () => HttpResponse.json({ ...detail, last_analysis: { id: analysisId, score: 64, created_at: '2025-02-02T10:00:00.000Z', money_per_month: null } })),
    );
    await renderAt(`/projects/${id}`);
    const totals = (await screen.findByRole('heading', { name: 'Окна Плюс' })).closest('section')!.querySelector('.stat-grid') as HTMLElement;
    expect(statsOf(totals)).toEqual({ Кампании: '1', Группы: '2', Объявления: '1', 'Ключевые фразы': '3', 'Последний анализ': '64 / 100' });
  });
});

describe('project detail: re-import', () => {
  it('previews new files and adds their campaigns to the current ones when asked to', async () => {
    let applied: unknown = null;
    const afterImport: ProjectDetail = {
      ...detail,
      counts: { campaigns: 2, groups: 3, ads: 3, keywords: 8 },
      campaigns: [...detail.campaigns, { ...detail.campaigns[0]!, id: '13131313-1313-4313-8313-131313131313', name: 'Окна — РСЯ', groups: [] }],
      imports: [{ ...detail.imports[0]!, id: '14141414-1414-4414-8414-141414141414', mode: 'append', file_names: ['new-direct.tsv'] }, ...detail.imports],
    };
    server.use(
      http.post('/api/v1/projects/import-preview', () => HttpResponse.json(reimportPreview)),
      http.post(`/api/v1/projects/${id}/imports`, async ({ request }) => {
        applied = await request.json();
        return HttpResponse.json(afterImport, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    await renderAt(`/projects/${id}`);
    await user.click(await screen.findByRole('button', { name: 'Обновить кампании' }));
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [new File(['x'], 'new-direct.tsv')] } });
    await user.click(screen.getByRole('button', { name: 'Проверить файлы' }));
    const preview = await screen.findByRole('region', { name: 'Что будет импортировано' });
    expect(within(preview).getByText('Окна — РСЯ')).toBeInTheDocument();

    // Replacing is the default; the user chooses to add.
    expect(screen.getByRole('radio', { name: 'Заменить текущие' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Добавить к текущим' }));
    await user.click(screen.getByRole('button', { name: 'Сохранить импорт' }));

    await waitFor(() => expect(applied).toEqual({ draft_id: reimportPreview.draft_id, mode: 'append' }));
    const tree = await screen.findByRole('list', { name: 'Кампании' });
    await waitFor(() => expect(within(tree).getByRole('button', { name: /Окна — РСЯ/ })).toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Что будет импортировано' })).not.toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'добавление' })).toBeInTheDocument();
  });

  it('reads a connected Direct account again with the saved token and replaces the campaigns', async () => {
    let reloaded = 0;
    let applied: unknown = null;
    server.use(
      http.get(`/api/v1/projects/${id}`, () =>
        HttpResponse.json({ ...detail, connection: { platform: 'yandex_direct', client_login: 'okna-plus', sandbox: false, created_at: '2025-02-01T10:00:00.000Z' } }),
      ),
      http.post(`/api/v1/projects/${id}/import-preview/direct-api`, () => {
        reloaded += 1;
        return HttpResponse.json(importJob({ project_id: id }), { status: 202 });
      }),
      http.get(`/api/v1/projects/import-jobs/${jobId}`, () => HttpResponse.json(completedJob({ ...reimportPreview, source: 'direct_api', file_names: [] } as ImportPreview, { project_id: id }))),
      http.post(`/api/v1/projects/${id}/imports`, async ({ request }) => {
        applied = await request.json();
        return HttpResponse.json(detail, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    await renderAt(`/projects/${id}`);
    expect(await screen.findByText('Подключён API Яндекс Директа (Client-Login: okna-plus)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Обновить кампании' }));
    // A connected project opens on the API tab, with no token to type.
    expect(screen.getByRole('tab', { name: 'API Яндекс Директа' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('button', { name: 'Загрузить кампании заново' }));
    const preview = await screen.findByRole('region', { name: 'Что будет импортировано' });
    expect(within(preview).getByText('Источник: API Яндекс Директа')).toBeInTheDocument();
    expect(reloaded).toBe(1);
    await user.click(screen.getByRole('button', { name: 'Сохранить импорт' }));
    await waitFor(() => expect(applied).toEqual({ draft_id: reimportPreview.draft_id, mode: 'replace' }));
  });

  it('coming back to the project while its Direct import runs shows the progress again', async () => {
    sessionStorage.setItem(reimportDirectJobKey(id), jobId);
    server.use(
      http.get(`/api/v1/projects/${id}`, () =>
        HttpResponse.json({ ...detail, connection: { platform: 'yandex_direct', client_login: 'okna-plus', sandbox: false, created_at: '2025-02-01T10:00:00.000Z' } }),
      ),
      http.get(`/api/v1/projects/import-jobs/${jobId}`, () => HttpResponse.json(runningJob({ project_id: id }))),
    );
    await renderAt(`/projects/${id}`);
    const progress = await screen.findByRole('region', { name: 'Загрузка из API Яндекс Директа' });
    expect(await within(progress).findByText('Сейчас: ключевые фразы (0 из 2)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Обновить кампании' })).toHaveAttribute('aria-expanded', 'true');
    sessionStorage.removeItem(reimportDirectJobKey(id));
  });
});

describe('project detail: settings', () => {
  const openSettings = async (user: ReturnType<typeof userEvent.setup>) => {
    await renderAt(`/projects/${id}`);
    await user.click(await screen.findByRole('button', { name: 'Изменить настройки' }));
    return screen.getByRole('form', { name: 'Настройки проекта' });
  };
  const retype = async (user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) => {
    await user.clear(input);
    if (text) await user.type(input, text);
  };

  it('saves the name, the site, the target CPA and a threshold with one PATCH, and the screen shows them', async () => {
    let current: ProjectDetail = detail;
    const patches: unknown[] = [];
    server.use(
      http.get(`/api/v1/projects/${id}`, () => HttpResponse.json(current)),
      http.patch(`/api/v1/projects/${id}`, async ({ request }) => {
        const body = (await request.json()) as Pick<ProjectDetail, 'name' | 'site_url' | 'region' | 'target_cpa' | 'settings'>;
        patches.push(body);
        current = { ...current, ...body };
        return HttpResponse.json(current);
      }),
    );
    const user = userEvent.setup();
    const form = await openSettings(user);
    // The form starts from the project and its thresholds over the defaults.
    expect(within(form).getByLabelText('Название проекта')).toHaveValue('Окна Плюс');
    expect(within(form).getByLabelText('Целевая цена конверсии, ₽ (необязательно)')).toHaveValue('1500');
    expect(within(form).getByLabelText('Низкий CTR на поиске, %')).toHaveValue('2');

    await retype(user, within(form).getByLabelText('Название проекта'), 'Окна Плюс СПб');
    await retype(user, within(form).getByLabelText('Сайт'), 'Okna-Plus.ru/spb/');
    expect(within(form).getByText('Сохраним как https://okna-plus.ru/spb')).toBeInTheDocument();
    await retype(user, within(form).getByLabelText('Регион (необязательно)'), '');
    await retype(user, within(form).getByLabelText('Целевая цена конверсии, ₽ (необязательно)'), '2 000');
    await retype(user, within(form).getByLabelText('Минимум кликов для минус-слова'), '12');
    await retype(user, within(form).getByLabelText('Низкий CTR на поиске, %'), '1,5');
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));

    expect(await screen.findByText('Настройки проекта сохранены')).toBeInTheDocument();
    expect(patches).toEqual([
      {
        name: 'Окна Плюс СПб',
        site_url: 'https://okna-plus.ru/spb',
        region: null,
        target_cpa: 2000,
        settings: { ...defaultProjectSettings, min_clicks_for_negative: 12, low_search_ctr: 0.015 },
      },
    ]);
    expect(screen.queryByRole('form', { name: 'Настройки проекта' })).not.toBeInTheDocument();
    const header = screen.getByRole('heading', { name: 'Окна Плюс СПб' }).parentElement!;
    expect(within(header).getByRole('link', { name: 'okna-plus.ru/spb' })).toHaveAttribute('href', 'https://okna-plus.ru/spb');
    expect(header).toHaveTextContent(/целевая цена конверсии 2\s000\s₽/);
    expect(header).not.toHaveTextContent('Москва');
    const thresholds = statsOf(screen.getByLabelText('Пороги анализа'));
    expect(thresholds).toMatchObject({ 'Минимум кликов для минус-слова': '12', 'Низкий CTR на поиске, %': '1,5' });
  });

  it('shows the field messages and sends nothing while the form is wrong', async () => {
    const patched = vi.fn();
    server.use(http.patch(`/api/v1/projects/${id}`, () => patched()));
    const user = userEvent.setup();
    const form = await openSettings(user);
    await retype(user, within(form).getByLabelText('Название проекта'), '');
    await retype(user, within(form).getByLabelText('Сайт'), 'не сайт');
    await retype(user, within(form).getByLabelText('Целевая цена конверсии, ₽ (необязательно)'), '-5');
    await retype(user, within(form).getByLabelText('Минимум кликов для минус-слова'), '2,5');
    await user.click(within(form).getByText('Остальные пороги и конкуренты'));
    await retype(user, within(form).getByLabelText('Один текст объявления в группах, от'), '1');
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));

    expect(await within(form).findByText('Введите название проекта')).toBeInTheDocument();
    expect(within(form).getByText('Некорректный адрес сайта')).toBeInTheDocument();
    expect(within(form).getByText('Целевая цена конверсии должна быть положительным числом')).toBeInTheDocument();
    expect(within(form).getByText('Введите целое число')).toBeInTheDocument();
    expect(within(form).getByText('Не меньше 2')).toBeInTheDocument();
    expect(patched).not.toHaveBeenCalled();

    // Fixed after the first try: the message goes as the user types.
    await retype(user, within(form).getByLabelText('Минимум кликов для минус-слова'), '3');
    await waitFor(() => expect(within(form).queryByText('Введите целое число')).not.toBeInTheDocument());
  });

  it('shows the server\'s refusal under its field and in the form, and keeps the form open', async () => {
    server.use(
      http.patch(`/api/v1/projects/${id}`, () =>
        HttpResponse.json(
          { error: 'Не меньше 1', code: 'VALIDATION_ERROR', detail: [{ loc: ['body', 'settings', 'single_group_min_keywords'], msg: 'Не меньше 1' }] },
          { status: 422 },
        ),
      ),
    );
    const user = userEvent.setup();
    const form = await openSettings(user);
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));

    expect(await within(form).findByTestId('form-error')).toHaveTextContent('Настройки не сохранены: Не меньше 1');
    const field = within(form).getByLabelText('Фраз в единственной группе кампании, от');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field.closest('details')).toHaveAttribute('open');

    server.use(http.patch(`/api/v1/projects/${id}`, () => HttpResponse.error()));
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await within(form).findByText('Настройки не сохранены: Нет подключения к сети')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Окна Плюс' })).toBeInTheDocument();
  });
});

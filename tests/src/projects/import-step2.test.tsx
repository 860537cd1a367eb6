import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { importTemplateColumns } from '@contract/import-template.js';
import { projectMessages } from '@contract/messages.js';
import type { ImportPreview } from '@contract/projects.js';
import { LIVE_POLL_INTERVAL_MS as IMPORT_JOB_POLL_MS } from '@/lib/live-run';
import { PREVIEW_STORAGE_KEY, STEP1_STORAGE_KEY } from '@/features/projects/create-draft';
import { CREATE_DIRECT_JOB_KEY } from '@/features/projects/direct-import-job';
import { completedJob, importJob, jobId, runningJob } from './import-job-fixtures';
import { renderAt } from '../auth/render-app';
import { server, useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { controlledStream, sseEvent, streamUnreachable } from '../lib/event-stream';

useTestServer();

const projectId = '99999999-9999-4999-8999-999999999999';
const draftId = '33333333-3333-4333-8333-333333333333';

const preview: ImportPreview = {
  draft_id: draftId,
  source: 'files',
  platform: 'yandex_direct',
  file_names: ['direct.tsv', 'google.csv'],
  counts: { campaigns: 2, groups: 4, ads: 6, keywords: 10, searchQueries: 0 },
  problems: [{ file: 'direct.tsv', row: 3, column: 'Ставка', severity: 'warning', message: 'Не число: «28,5о». Значение пропущено' }],
  detected: [],
  campaigns: [
    { name: 'Диваны — Поиск', groups: 2, ads: 4, keywords: 6 },
    { name: 'Диваны — Google', groups: 2, ads: 2, keywords: 4 },
  ],
  expires_at: new Date(Date.now() + 3600_000).toISOString(),
};

const step1 = { name: 'Диваны Комфорт', site_url: 'divany-komfort.ru', platform: 'yandex_direct' };

beforeEach(() => {
  sessionStorage.clear();
  // The live stream is not served unless a test does: the job panel polls, as without one.
  signInOwner(streamUnreachable('/api/v1/projects/import-jobs/:id/events'));
  sessionStorage.setItem(STEP1_STORAGE_KEY, JSON.stringify(step1));
});
afterEach(() => {
  vi.useRealTimers();
});

const file = (name: string, text: string) => new File([text], name, { type: 'text/csv' });

function dropFiles(files: File[]) {
  const dropzone = screen.getByTestId('dropzone');
  fireEvent.dragOver(dropzone, { dataTransfer: { files } });
  expect(dropzone).toHaveClass('dropzone--active');
  fireEvent.drop(dropzone, { dataTransfer: { files } });
  expect(dropzone).not.toHaveClass('dropzone--active');
}

describe('step 2: files dropped, previewed, then saved', () => {
  it('uploads the dropped files, shows what will be imported, keeps it over a reload and saves the project with it', async () => {
    // jsdom's File does not survive Node's fetch (it arrives as an empty "blob"), so the files are checked where
    // the app puts them into the multipart body; the real browser upload is covered by the e2e test.
    const appended: unknown[][] = [];
    const append = FormData.prototype.append;
    vi.spyOn(FormData.prototype, 'append').mockImplementation(function (this: FormData, ...args: unknown[]) {
      appended.push(args);
      return (append as (...a: unknown[]) => void).apply(this, args);
    });
    const uploads: { contentType: string | null; platform: FormDataEntryValue | null; files: number }[] = [];
    let created: Record<string, unknown> | null = null;
    server.use(
      http.post('/api/v1/projects/import-preview', async ({ request }) => {
        const contentType = request.headers.get('content-type');
        const form = await request.formData();
        uploads.push({ contentType, platform: form.get('platform'), files: form.getAll('files').length });
        return HttpResponse.json(preview);
      }),
      http.post('/api/v1/projects', async ({ request }) => {
        created = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ id: projectId, name: step1.name }, { status: 201 });
      }),
      http.get(`/api/v1/projects/${projectId}`, () => HttpResponse.json({ error: 'Проект не найден', code: 'PROJECT_NOT_FOUND' }, { status: 404 })),
      http.get('/api/v1/projects', () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 100 })),
    );
    const user = userEvent.setup();
    const { router } = await renderAt('/projects/create/step2');
    await screen.findByTestId('dropzone');
    expect(screen.getByRole('button', { name: 'Проверить файлы' })).toBeDisabled();

    const dropped = [file('direct.tsv', 'Фраза\tСтавка\n'), file('google.csv', 'Campaign,Keyword\n')];
    dropFiles(dropped);
    const chosen = screen.getByRole('list', { name: 'Выбранные файлы' });
    expect(within(chosen).getAllByRole('listitem').map((item) => item.firstChild?.textContent)).toEqual(['direct.tsv', 'google.csv']);
    // Nothing is sent before the user asks for the check.
    expect(uploads).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Проверить файлы' }));
    const previewSection = await screen.findByRole('region', { name: 'Что будет импортировано' });
    expect(uploads).toEqual([{ contentType: expect.stringMatching(/^multipart\/form-data; boundary=/), platform: 'yandex_direct', files: 2 }]);
    expect(appended).toEqual([
      ['platform', 'yandex_direct'],
      ['files', dropped[0], 'direct.tsv'],
      ['files', dropped[1], 'google.csv'],
    ]);
    expect(within(previewSection).getByText('Файлы: direct.tsv, google.csv')).toBeInTheDocument();
    expect(within(previewSection).getByText('Диваны — Поиск')).toBeInTheDocument();
    expect(within(previewSection).getByText('Замечания при чтении файлов: 1')).toBeInTheDocument();
    expect(within(previewSection).getByText(/direct\.tsv, строка 3, «Ставка»: Не число: «28,5о»\. Значение пропущено/)).toBeInTheDocument();
    // The preview is part of the draft that survives a reload.
    expect(JSON.parse(sessionStorage.getItem(PREVIEW_STORAGE_KEY)!)).toMatchObject({ draft_id: draftId });

    await user.click(screen.getByRole('button', { name: 'Сохранить проект' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${projectId}`));
    expect(created).toEqual({ ...step1, site_url: 'https://divany-komfort.ru', region: undefined, target_cpa: undefined, draft_id: draftId });
    expect(sessionStorage.getItem(STEP1_STORAGE_KEY)).toBeNull();
    expect(sessionStorage.getItem(PREVIEW_STORAGE_KEY)).toBeNull();
  });

  it('shows every row to fix when the server refuses the files, and keeps the project unsaved', async () => {
    server.use(
      http.post('/api/v1/projects/import-preview', () =>
        HttpResponse.json(
          {
            error: 'Файлы не удалось импортировать: исправьте ошибки и загрузите их ещё раз',
            code: 'IMPORT_FAILED',
            detail: [
              { loc: ['files', 'direct.csv', 1], msg: 'Не найден обязательный столбец «Название группы» (или «ID группы», «Номер группы»)' },
              { loc: ['files', 'direct.csv', 7, 'Ставка'], msg: 'Не число: «дорого». Значение пропущено' },
              { loc: ['files', 'broken.xlsx'], msg: 'Файл XLSX повреждён или обрезан: не удалось его прочитать. Сохраните его заново или выгрузите ещё раз' },
            ],
          },
          { status: 422 },
        ),
      ),
    );
    const user = userEvent.setup();
    await renderAt('/projects/create/step2');
    dropFiles([file('direct.csv', 'a;b\n'), file('broken.xlsx', 'PK')]);
    await user.click(screen.getByRole('button', { name: 'Проверить файлы' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Файлы не удалось импортировать: исправьте ошибки и загрузите их ещё раз')).toBeInTheDocument();
    const rows = within(alert)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['direct.csv', '1', '—', 'Не найден обязательный столбец «Название группы» (или «ID группы», «Номер группы»)'],
      ['direct.csv', '7', 'Ставка', 'Не число: «дорого». Значение пропущено'],
      ['broken.xlsx', '—', '—', 'Файл XLSX повреждён или обрезан: не удалось его прочитать. Сохраните его заново или выгрузите ещё раз'],
    ]);
    expect(screen.getByRole('button', { name: 'Сохранить проект' })).toBeDisabled();
    expect(sessionStorage.getItem(PREVIEW_STORAGE_KEY)).toBeNull();
  });

  it('refuses a file over 50 MB before sending anything', async () => {
    const sent = vi.fn();
    server.use(http.post('/api/v1/projects/import-preview', () => sent()));
    await renderAt('/projects/create/step2');
    const huge = file('huge.csv', 'a');
    Object.defineProperty(huge, 'size', { value: 50 * 1024 * 1024 + 1 });
    dropFiles([huge]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Файл «huge.csv» больше 50 МБ');
    expect(screen.queryByRole('list', { name: 'Выбранные файлы' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Проверить файлы' })).toBeDisabled();
    expect(sent).not.toHaveBeenCalled();
  });

  it('files can also be chosen with the file picker, and removed again', async () => {
    const user = userEvent.setup();
    await renderAt('/projects/create/step2');
    await user.upload(await screen.findByLabelText('Файлы выгрузки'), [file('a.csv', '1'), file('b.xlsx', '2')]);
    await user.click(screen.getByRole('button', { name: 'Убрать a.csv' }));
    expect(within(screen.getByRole('list', { name: 'Выбранные файлы' })).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByText('b.xlsx')).toBeInTheDocument();
  });
});

describe('step 2: our CSV template', () => {
  it('explains every column of the template, the required ones marked', async () => {
    const user = userEvent.setup();
    await renderAt('/projects/create/step2');
    await user.click(await screen.findByText('Как заполнить шаблон CSV'));
    const columns = screen.getByLabelText('Столбцы шаблона');
    const titles = [...columns.querySelectorAll('dt')].map((term) => term.textContent);
    expect(titles).toEqual(importTemplateColumns.map((column) => ('required' in column ? `${column.title} *` : column.title)));
    expect(titles.filter((title) => title?.endsWith(' *'))).toEqual(['Кампания *', 'Группа *']);
    expect(within(columns).getByText('Через ||, по порядку.')).toBeInTheDocument();
  });

  it('downloads the template with the bearer token, as a UTF-8 file Excel opens', async () => {
    const createObjectURL = vi.fn(() => 'blob:template');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    let auth: string | null = null;
    server.use(
      http.get('/api/v1/projects/import-template', ({ request }) => {
        auth = request.headers.get('authorization');
        return new HttpResponse('\uFEFFКампания;Группа;Фраза\r\n', { headers: { 'content-type': 'text/csv; charset=utf-8' } });
      }),
    );
    const user = userEvent.setup();
    await renderAt('/projects/create/step2');
    await user.click(await screen.findByRole('button', { name: 'Скачать шаблон CSV' }));
    await waitFor(() => expect(clicked).toEqual(['reklama-lab-shablon-kampaniy.csv']));
    expect(auth).toBe('Bearer access-1');
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.subarray(3))).toBe('Кампания;Группа;Фраза\r\n');
  });
});

describe('step 2: the Yandex Direct API', () => {
  const directPreview: ImportPreview = { ...preview, source: 'direct_api', file_names: [], units: { spent: 240, available: 19_760, daily: 64_000, requests: 12, usedLogin: 'divany-komfort' } };

  it('checks the token and Client-Login, starts the import job, shows its progress by stage, then the preview', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let body: unknown = null;
    const answers = [runningJob(), completedJob(directPreview)];
    let polls = 0;
    server.use(
      http.post('/api/v1/projects/import-preview/direct-api', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(importJob(), { status: 202 });
      }),
      http.get(`/api/v1/projects/import-jobs/${jobId}`, () => HttpResponse.json(answers[Math.min(polls++, answers.length - 1)])),
    );
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await renderAt('/projects/create/step2');
    await user.click(await screen.findByRole('tab', { name: 'API Яндекс Директа' }));
    await user.type(screen.getByLabelText('Client-Login (для агентских аккаунтов)'), 'не логин');
    await user.click(screen.getByRole('button', { name: 'Загрузить кампании' }));
    expect(await screen.findByText('Введите OAuth-токен Яндекс Директа')).toBeInTheDocument();
    expect(screen.getByText('Некорректный Client-Login')).toBeInTheDocument();
    expect(body).toBeNull();

    await user.type(screen.getByLabelText('OAuth-токен'), 'y0_token');
    await user.clear(screen.getByLabelText('Client-Login (для агентских аккаунтов)'));
    await user.type(screen.getByLabelText('Client-Login (для агентских аккаунтов)'), 'divany-komfort');
    await user.click(screen.getByRole('checkbox', { name: 'Песочница API' }));
    await user.click(screen.getByRole('button', { name: 'Загрузить кампании' }));
    expect(body).toEqual({ token: 'y0_token', client_login: 'divany-komfort', sandbox: true });

    // The job runs on the server: its progress replaces the form, stage by stage, with the points spent.
    const progress = await screen.findByRole('region', { name: 'Загрузка из API Яндекс Директа' });
    expect(await within(progress).findByText('Сейчас: ключевые фразы (0 из 2)')).toBeInTheDocument();
    const stages = within(within(progress).getByRole('list', { name: 'Этапы загрузки' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(stages).toEqual([
      '✓ Кампании: готово: 2',
      '✓ Группы объявлений: готово: 3',
      '✓ Объявления: готово: 4',
      '… Ключевые фразы: кампаний 0 из 2, загружено 0',
      '○ Быстрые ссылки, уточнения и изображения: ожидает',
      '… Статистика за 30 дней: Яндекс готовит отчёт',
      '… Поисковые запросы: Яндекс готовит отчёт',
    ]);
    expect(within(progress).getByText(/^Баллы API Директа: потрачено 40, осталось 19\s960$/)).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'API Яндекс Директа' })).not.toBeInTheDocument();
    // Kept with the draft: a reload or a detour finds the same job.
    expect(sessionStorage.getItem(CREATE_DIRECT_JOB_KEY)).toBe(jobId);

    await act(() => vi.advanceTimersByTimeAsync(IMPORT_JOB_POLL_MS));
    const previewSection = await screen.findByRole('region', { name: 'Что будет импортировано' });
    expect(within(previewSection).getByText('Источник: API Яндекс Директа')).toBeInTheDocument();
    expect(within(previewSection).getByText(/^Баллы API Директа: потрачено 240, осталось 19\s760 из 64\s000 в сутки$/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Сохранить проект' })).toBeEnabled();
    expect(sessionStorage.getItem(CREATE_DIRECT_JOB_KEY)).toBeNull();
    expect(JSON.parse(sessionStorage.getItem(PREVIEW_STORAGE_KEY)!)).toMatchObject({ draft_id: draftId, source: 'direct_api' });
    // Finished: no more polling.
    const after = polls;
    await act(() => vi.advanceTimersByTimeAsync(3 * IMPORT_JOB_POLL_MS));
    expect(polls).toBe(after);
  });

  it('follows the job over its live stream: progress by stage, then the preview, without polling', async () => {
    const stream = controlledStream();
    let reads = 0;
    server.use(
      http.post('/api/v1/projects/import-preview/direct-api', () => HttpResponse.json(importJob(), { status: 202 })),
      http.get(`/api/v1/projects/import-jobs/${jobId}`, () => {
        reads += 1;
        return HttpResponse.json(importJob());
      }),
      http.get(`/api/v1/projects/import-jobs/${jobId}/events`, () => stream.response()),
    );
    const user = userEvent.setup();
    await renderAt('/projects/create/step2');
    await user.click(await screen.findByRole('tab', { name: 'API Яндекс Директа' }));
    await user.type(screen.getByLabelText('OAuth-токен'), 'y0_token');
    await user.click(screen.getByRole('button', { name: 'Загрузить кампании' }));

    const progress = await screen.findByRole('region', { name: 'Загрузка из API Яндекс Директа' });
    stream.push(sseEvent('progress', runningJob()));
    expect(await within(progress).findByText('Сейчас: ключевые фразы (0 из 2)')).toBeInTheDocument();
    stream.push(sseEvent('progress', completedJob(directPreview)) + sseEvent('done', completedJob(directPreview)));
    stream.close();
    const previewSection = await screen.findByRole('region', { name: 'Что будет импортировано' });
    expect(within(previewSection).getByText('Источник: API Яндекс Директа')).toBeInTheDocument();
    expect(reads).toBeLessThanOrEqual(1);
  });

  it('shows the Russian message the failed job carries, and the form again', async () => {
    const message = 'OAuth-токен Яндекс Директа недействителен или отозван. Получите новый токен и подключите API заново';
    server.use(
      http.post('/api/v1/projects/import-preview/direct-api', () => HttpResponse.json(importJob(), { status: 202 })),
      http.get(`/api/v1/projects/import-jobs/${jobId}`, () => HttpResponse.json(importJob({ status: 'failed', error: message, error_code: 'DIRECT_API_ERROR' }))),
    );
    const user = userEvent.setup();
    await renderAt('/projects/create/step2');
    await user.click(await screen.findByRole('tab', { name: 'API Яндекс Директа' }));
    await user.type(screen.getByLabelText('OAuth-токен'), 'y0_revoked');
    await user.click(screen.getByRole('button', { name: 'Загрузить кампании' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('tab', { name: 'API Яндекс Директа' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('OAuth-токен')).toBeInTheDocument();
    expect(sessionStorage.getItem(CREATE_DIRECT_JOB_KEY)).toBeNull();
    expect(screen.getByRole('button', { name: 'Сохранить проект' })).toBeDisabled();
  });

  it('says so when an import of the user is already running (429)', async () => {
    server.use(
      http.post('/api/v1/projects/import-preview/direct-api', () =>
        HttpResponse.json({ error: projectMessages.directImportRunning, code: 'IMPORT_ALREADY_RUNNING' }, { status: 429 }),
      ),
    );
    const user = userEvent.setup();
    await renderAt('/projects/create/step2');
    await user.click(await screen.findByRole('tab', { name: 'API Яндекс Директа' }));
    await user.type(screen.getByLabelText('OAuth-токен'), 'y0_token');
    await user.click(screen.getByRole('button', { name: 'Загрузить кампании' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(projectMessages.directImportRunning);
  });

  it('coming back to step 2 finds the running job and continues to its preview', async () => {
    sessionStorage.setItem(CREATE_DIRECT_JOB_KEY, jobId);
    server.use(http.get(`/api/v1/projects/import-jobs/${jobId}`, () => HttpResponse.json(completedJob(directPreview))));
    await renderAt('/projects/create/step2');
    const previewSection = await screen.findByRole('region', { name: 'Что будет импортировано' });
    expect(within(previewSection).getByText('Диваны — Поиск')).toBeInTheDocument();
    expect(sessionStorage.getItem(CREATE_DIRECT_JOB_KEY)).toBeNull();
  });
});

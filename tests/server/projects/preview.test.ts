import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectMessages } from '../../../contract/messages.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { upload } from './helpers.js';

/** A Google Ads Editor export (UTF-8, comma separated) of a fictional advertiser, built here. */
const googleEditorCsv = [
  'Campaign,Campaign Type,Ad Group,Keyword,Criterion Type,Max CPC,Headline 1,Headline 2,Headline 3,Description 1,Description 2,Final URL',
  'Окна Плюс — поиск,Search,Пластиковые окна,пластиковые окна,Phrase,25,,,,,,',
  'Окна Плюс — поиск,Search,Пластиковые окна,окна пвх,Exact,30,,,,,,',
  'Окна Плюс — поиск,Search,Пластиковые окна,,,,Окна от производителя,Установка за 1 день,Скидка 20%,Замер бесплатно,Гарантия 10 лет,https://okna-plus.example.ru',
].join('\r\n');

/** Answers every Direct API call like the API does for a revoked token (error 53). */
let fakeDirect: http.Server;
let t: TestApp;
let user: FixtureUser;

beforeAll(async () => {
  fakeDirect = http.createServer((_request, response) => {
    response.setHeader('content-type', 'application/json; charset=utf-8');
    response.end(JSON.stringify({ error: { request_id: '8695244274068608439', error_code: 53, error_string: 'Authorization error', error_detail: 'Invalid OAuth token' } }));
  });
  await new Promise<void>((resolve) => fakeDirect.listen(0, '127.0.0.1', resolve));
  const { port } = fakeDirect.address() as AddressInfo;
  t = await createTestApp({ config: { yandexDirectApiUrl: `http://127.0.0.1:${port}/json/v5` } });
  user = await createUser(t.app);
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => fakeDirect.close(resolve));
});

describe('POST /projects/import-preview', () => {
  it('parses an uploaded export in a worker and answers a preview to save', async () => {
    const response = await upload(t.app, '/api/v1/projects/import-preview', user.token, [{ name: 'выгрузка-google.csv', content: googleEditorCsv }], { platform: 'google_ads' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      source: 'files',
      platform: 'google_ads',
      file_names: ['выгрузка-google.csv'],
      counts: { campaigns: 1, groups: 1, ads: 1, keywords: 2, searchQueries: 0 },
      campaigns: [{ name: 'Окна Плюс — поиск', groups: 1, ads: 1, keywords: 2 }],
    });
    expect(response.body.draft_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body.detected.length).toBeGreaterThan(0);

    // Saving the preview creates the project with exactly those campaigns.
    const created = await call(t.app, 'POST', '/api/v1/projects', {
      token: user.token,
      body: { name: 'Окна Плюс', site_url: 'okna-plus.example.ru', platform: 'google_ads', draft_id: response.body.draft_id },
    });
    expect(created.status).toBe(201);
    expect(created.body.counts).toEqual({ campaigns: 1, groups: 1, ads: 1, keywords: 2 });
    expect(created.body.campaigns[0].groups).toEqual([expect.objectContaining({ name: 'Пластиковые окна', keywords: 2, ads: 1 })]);
    expect(created.body.imports[0]).toMatchObject({ source: 'files', file_names: ['выгрузка-google.csv'] });

    // Re-import through the same upload: replace with a file of one keyword.
    const smaller = googleEditorCsv.split('\r\n').slice(0, 2).join('\r\n');
    const second = await upload(t.app, '/api/v1/projects/import-preview', user.token, [{ name: 'new.csv', content: smaller }]);
    expect(second.status).toBe(200);
    const replaced = await call(t.app, 'POST', `/api/v1/projects/${created.body.id}/imports`, { token: user.token, body: { draft_id: second.body.draft_id, mode: 'replace' } });
    expect(replaced.status).toBe(201);
    expect(replaced.body.counts).toMatchObject({ campaigns: 1, keywords: 1, ads: 0 });
    expect(replaced.body.imports.map((i: { file_names: string[] }) => i.file_names)).toEqual([['new.csv'], ['выгрузка-google.csv']]);
  });

  it('answers 422 with the rows to fix for a file it cannot import, and stores nothing', async () => {
    const before = await t.app.db.selectFrom('import_drafts').select(t.app.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const response = await upload(t.app, '/api/v1/projects/import-preview', user.token, [{ name: 'котики.csv', content: 'имя;возраст\r\nМурзик;3\r\nБарсик;5\r\n' }]);
    expect(response.status).toBe(422);
    expect(response.body.code).toMatch(/^IMPORT_/);
    expect(response.body.error).toMatch(/[а-яё]/i);
    expect(response.body.detail.length).toBeGreaterThan(0);
    expect(response.body.detail[0].loc.slice(0, 2)).toEqual(['files', 'котики.csv']);
    expect(response.body.detail[0].msg).toMatch(/[а-яё]/i);
    const after = await t.app.db.selectFrom('import_drafts').select(t.app.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('lists row-level problems with file, row, column and a Russian message in the preview', async () => {
    const withTypo = googleEditorCsv.replace('Exact,30,', 'Exact,3O,');
    const response = await upload(t.app, '/api/v1/projects/import-preview', user.token, [{ name: 'editor.csv', content: withTypo }]);
    expect(response.status).toBe(200);
    expect(response.body.problems).toEqual([{ file: 'editor.csv', row: 3, column: 'Max CPC', severity: 'warning', message: 'Не число: «3O». Значение пропущено' }]);
    expect(response.body.counts.keywords).toBe(2);
  });

  it('imports nothing when one file of an upload is broken, and points at every place to fix', async () => {
    const withTypo = googleEditorCsv.replace('Exact,30,', 'Exact,3O,');
    const before = await t.app.db.selectFrom('import_drafts').select(t.app.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const response = await upload(t.app, '/api/v1/projects/import-preview', user.token, [
      { name: 'editor.csv', content: withTypo },
      { name: 'kampanii.xlsx', content: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]) },
    ]);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: 'Файлы не удалось импортировать: исправьте ошибки и загрузите их ещё раз',
      code: 'IMPORT_FAILED',
      detail: [
        { loc: ['files', 'kampanii.xlsx'], msg: 'Файл XLSX повреждён или обрезан: не удалось его прочитать. Сохраните его заново или выгрузите ещё раз' },
        { loc: ['files', 'editor.csv', 3, 'Max CPC'], msg: 'Не число: «3O». Значение пропущено' },
      ],
    });
    const after = await t.app.db.selectFrom('import_drafts').select(t.app.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('leaves a project exactly as it was when its re-import fails', async () => {
    const first = await upload(t.app, '/api/v1/projects/import-preview', user.token, [{ name: 'editor.csv', content: googleEditorCsv }]);
    const project = await call(t.app, 'POST', '/api/v1/projects', {
      token: user.token,
      body: { name: 'Окна Плюс — проверка', site_url: 'okna-plus.example.ru', platform: 'google_ads', draft_id: first.body.draft_id },
    });
    const broken = await upload(t.app, '/api/v1/projects/import-preview', user.token, [{ name: 'new.csv', content: 'Campaign,Keyword\r\n' }]);
    expect(broken.status).toBe(422);
    // A preview that is gone by the time it is saved changes nothing either.
    const stale = await call(t.app, 'POST', `/api/v1/projects/${project.body.id}/imports`, { token: user.token, body: { draft_id: '00000000-0000-4000-8000-000000000000', mode: 'replace' } });
    expect(stale.status).toBe(404);
    const after = await call(t.app, 'GET', `/api/v1/projects/${project.body.id}`, { token: user.token });
    expect(after.body.counts).toEqual(project.body.counts);
    expect(after.body.campaigns).toEqual(project.body.campaigns);
    expect(after.body.imports.map((record: { id: string }) => record.id)).toEqual(project.body.imports.map((record: { id: string }) => record.id));
  });

  it('answers 422 for a binary file that is not an export', async () => {
    const response = await upload(t.app, '/api/v1/projects/import-preview', user.token, [{ name: 'photo.xlsx', content: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xde, 0xad, 0xbe, 0xef]) }]);
    expect(response.status).toBe(422);
    expect(response.body.error).toMatch(/[а-яё]/i);
  });

  it('requires at least one non-empty file, sent as multipart', async () => {
    const none = await upload(t.app, '/api/v1/projects/import-preview', user.token, [], { platform: 'yandex_direct' });
    expect(none.status).toBe(422);
    expect(none.body.error).toBe('Выберите хотя бы один файл');

    const empty = await upload(t.app, '/api/v1/projects/import-preview', user.token, [{ name: 'пусто.csv', content: '' }]);
    expect(empty.status).toBe(422);
    expect(empty.body.error).toBe('Файл «пусто.csv» пустой');

    const json = await call(t.app, 'POST', '/api/v1/projects/import-preview', { token: user.token, body: { files: [] } });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe('NOT_MULTIPART');
  });

  it('refuses an unknown platform field', async () => {
    const response = await upload(t.app, '/api/v1/projects/import-preview', user.token, [{ name: 'a.csv', content: googleEditorCsv }], { platform: 'facebook' });
    expect(response.status).toBe(422);
    expect(response.body.detail[0].msg).toBe('Выберите рекламную платформу');
  });

  it('refuses a file over 50 MB with a clear message', async () => {
    const big = new Uint8Array(50 * 1024 * 1024 + 10).fill(0x61);
    const response = await upload(t.app, '/api/v1/projects/import-preview', user.token, [{ name: 'big.csv', content: big }]);
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: 'Файл «big.csv» больше 50 МБ', code: 'FILE_TOO_LARGE' });
  });
});

describe('POST /projects/import-preview/direct-api', () => {
  // The import itself runs as a job: tests/server/projects/direct-import-jobs.test.ts.
  it('answers 503 in Russian when the server runs no job queue, and starts nothing', async () => {
    const response = await call(t.app, 'POST', '/api/v1/projects/import-preview/direct-api', { token: user.token, body: { token: 'y0_revoked', client_login: 'okna-plus' } });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: projectMessages.importQueueUnavailable, code: 'JOBS_UNAVAILABLE' });
    expect(await t.app.db.selectFrom('import_jobs').select('id').execute()).toEqual([]);
  });

  it('validates the token and the Client-Login', async () => {
    const response = await call(t.app, 'POST', '/api/v1/projects/import-preview/direct-api', { token: user.token, body: { token: '', client_login: 'не логин' } });
    expect(response.status).toBe(422);
    expect(response.body.detail.map((d: { msg: string }) => d.msg)).toEqual(['Введите OAuth-токен Яндекс Директа', 'Некорректный Client-Login']);
  });
});

describe('GET /projects/import-template', () => {
  it('downloads our CSV template', async () => {
    const response = await call(t.app, 'GET', '/api/v1/projects/import-template', { token: user.token });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain('attachment');
    expect(String(response.body).length).toBeGreaterThan(20);
  });
});

describe('the OpenAPI document of the import calls', () => {
  it('documents the upload as multipart/form-data with its fields, and the template as a CSV file', async () => {
    const document = (await call(t.app, 'GET', '/api/docs/json')).body as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> }; responses: Record<string, { description: string }> }>>;
    };
    const upload = document.paths['/api/v1/projects/import-preview']!.post!;
    expect(Object.keys(upload.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(upload.requestBody!.content['multipart/form-data']!.schema.properties).toEqual({
      files: { type: 'array', items: { type: 'string', format: 'binary' } },
      platform: { type: 'string' },
    });
    expect(document.paths['/api/v1/projects/import-template']!.get!.responses['200']!.description).toContain('text/csv');
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Campaign } from '../../../contract/campaigns.js';
import type { PageCheck, PageCheckResults } from '../../../contract/page-check.js';
import { pageCheckFetchSettings } from '../../../server/page-check/worker.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { readProgressStream } from '../helpers/progress-stream.js';

let site: Server;
let base: string;
let testApp: TestApp;
let owner: FixtureUser;
let outsider: FixtureUser;
let projectId: string;

const longText = Array.from({ length: 40 }, (_, i) => `Пластиковые окна с установкой под ключ, замер бесплатно, гарантия ${i} лет.`).join(' ');

beforeAll(async () => {
  site = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const send = (status: number, html: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    };
    if (path === '/okna') return send(200, `<html><head><title>Пластиковые окна в Москве</title></head><body><h1>Пластиковые окна с установкой</h1><p>Скидка 20%. ${longText}</p></body></html>`);
    if (path === '/dacha') return send(200, '<html><head><title>Кондиционеры</title></head><body><h1>Кондиционеры</h1><p>Продаём кондиционеры.</p></body></html>');
    if (path === '/slow') {
      const timer = setTimeout(() => send(200, '<html></html>'), 3000);
      return response.on('close', () => clearTimeout(timer));
    }
    return send(404, '<h1>Нет такой страницы</h1>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  pageCheckFetchSettings.timeoutMs = 500;

  testApp = await createTestApp({ config: { allowPrivateHosts: true }, jobQueue: { runWorkers: true } });
  owner = await createUser(testApp.app, { balance: 50 });
  outsider = await createUser(testApp.app, { balance: 50 });
  projectId = await insertProject(owner, [
    campaign('Окна — поиск', [
      { name: 'Пластиковые окна', keywords: ['пластиковые окна', 'окна с установкой'], urls: [`${base}/okna?utm_source=yandex&utm_content=1`, `${base}/okna?utm_source=yandex&utm_content=2`], headlines: ['Пластиковые окна', 'Скидка 20%'] },
      { name: 'Окна на дачу', keywords: ['окна на дачу', 'дачные окна'], urls: [`${base}/dacha?utm_source=yandex`], headlines: ['Окна для дачи'] },
    ]),
    campaign('Старые акции', [
      { name: 'Акция', keywords: ['окна акция'], urls: [`${base}/old-promo?utm_source=yandex`], headlines: ['Акция'] },
      { name: 'Медленная', keywords: ['окна недорого'], urls: [`${base}/slow?utm_source=yandex`], headlines: ['Окна недорого'] },
    ]),
  ]);
});

afterAll(async () => {
  delete pageCheckFetchSettings.timeoutMs;
  await testApp?.close();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

function campaign(name: string, groups: { name: string; keywords: string[]; urls: string[]; headlines: string[] }[]): Campaign {
  return {
    name,
    negativeKeywords: [],
    groups: groups.map((group) => ({
      name: group.name,
      negativeKeywords: [],
      keywords: group.keywords.map((phrase) => ({ phrase, negativeWords: [], matchType: 'broad' as const })),
      ads: group.urls.map((finalUrl) => ({ kind: 'text' as const, headlines: group.headlines, texts: ['Текст'], sitelinks: [], callouts: [], finalUrl, stats: { impressions: 100, clicks: 10, cost: 500, conversions: 0 } })),
    })),
  };
}

async function insertProject(user: FixtureUser, campaigns: Campaign[]): Promise<string> {
  const db = testApp.app.db;
  const project = await db
    .insertInto('projects')
    .values({ organization_id: user.organizationId, name: 'Окна Плюс', name_key: 'окна плюс', site_url: 'https://okna-plus.ru', platform: 'yandex_direct', author_id: user.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const counts = { campaigns: campaigns.length, groups: 0, ads: 0, keywords: 0, searchQueries: 0 };
  const imported = await db
    .insertInto('project_imports')
    .values({ project_id: project.id, source: 'files', mode: 'create', status: 'completed', file_names: '[]', counts: JSON.stringify(counts), problems: '[]', detected: '[]', period: 'null', created_by: user.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [position, item] of campaigns.entries()) {
    await db
      .insertInto('campaigns')
      .values({ project_id: project.id, import_id: imported.id, position, external_id: null, name: item.name, type: 'search', groups_count: item.groups?.length ?? 0, ads_count: 0, keywords_count: 0, negative_keywords_count: 0, stats: 'null', groups_summary: '[]', data: JSON.stringify(item) })
      .execute();
  }
  return project.id;
}

const balanceOf = async (user: FixtureUser) => (await call(testApp.app, 'GET', '/api/v1/tokens/balance', { token: user.token })).body.balance as number;

async function waitForStatus(id: string, token: string, statuses: string[]): Promise<PageCheck> {
  let analysis!: PageCheck;
  await vi.waitFor(
    async () => {
      analysis = (await call(testApp.app, 'GET', `/api/v1/page-checks/${id}`, { token })).body.analysis;
      expect(statuses).toContain(analysis.status);
    },
    { timeout: 25_000, interval: 200 },
  );
  return analysis;
}

describe('page check API (real queue, real HTTP to 127.0.0.1)', () => {
  it('lists the landing pages of the project with the groups, keywords and ads leading to each', async () => {
    const response = await call(testApp.app, 'GET', `/api/v1/projects/${projectId}/page-checks/urls`, { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.body.price_per_page).toBe(1);
    expect(response.body.balance).toBe(50);
    expect(response.body.urls).toHaveLength(4);
    expect(response.body.urls).toContainEqual({ url: `${base}/okna?utm_source=yandex&utm_content=1`, campaigns: 1, groups: 1, keywords: 2, ads: 2 });
  });

  it('refuses a start the balance cannot pay for, with the amounts, and charges nothing', async () => {
    const poor = await createUser(testApp.app, { organizationId: owner.organizationId, balance: 2 });
    const response = await call(testApp.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: poor.token, body: { idempotency_key: 'poor-1' } });
    expect(response.status).toBe(402);
    expect(response.body).toMatchObject({ error: 'Недостаточно токенов на балансе', code: 'INSUFFICIENT_TOKENS', detail: [{ loc: ['body', 'urls'], msg: 'Нужно токенов: 4, на балансе: 2' }] });
    expect(await balanceOf(poor)).toBe(2);
    const rows = await testApp.app.db.selectFrom('page_checks').select('id').where('created_by', '=', poor.id).execute();
    expect(rows).toHaveLength(0);
  });

  it('validates the addresses', async () => {
    const response = await call(testApp.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: owner.token, body: { urls: ['javascript:alert(1)'], idempotency_key: 'bad' } });
    expect(response.status).toBe(422);
    expect(response.body.error).toBe('Некорректный адрес страницы: нужен http:// или https://');
  });

  it('charges once per idempotency key, fetches every page and stores a scored report', async () => {
    const first = await call(testApp.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: owner.token, body: { idempotency_key: 'run-1' } });
    expect(first.status).toBe(201);
    expect(first.body.analysis).toMatchObject({ status: 'queued', pages_count: 4, cost: 4, author: { id: owner.id, full_name: 'Иван Петров' } });
    const again = await call(testApp.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: owner.token, body: { idempotency_key: 'run-1' } });
    expect(again.status).toBe(200);
    expect(again.body.analysis.id).toBe(first.body.analysis.id);
    expect(await balanceOf(owner)).toBe(46);

    const done = await waitForStatus(first.body.analysis.id, owner.token, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'completed', stage: 'done', progress: 100, progress_detail: { done: 4, total: 4 } });
    expect(done.finished_at).not.toBeNull();

    const results = await call<PageCheckResults>(testApp.app, 'GET', `/api/v1/page-checks/${done.id}/results`, { token: owner.token });
    expect(results.status).toBe(200);
    const byPath = Object.fromEntries(results.body.result.pages.map((page) => [new URL(page.url).pathname, page]));
    expect(byPath['/okna']).toMatchObject({ status: 200, title: 'Пластиковые окна в Москве', ads: 2 });
    expect(byPath['/okna'].score).toBeGreaterThanOrEqual(80);
    expect(byPath['/okna'].groups[0]).toMatchObject({ group: 'Пластиковые окна', coverage: 1 });
    expect(byPath['/dacha'].groups[0].missing).toEqual(expect.arrayContaining(['дачу', 'окна']));
    expect(byPath['/dacha'].issues.map((item) => item.code)).toContain('low_keyword_coverage');
    expect(byPath['/old-promo']).toMatchObject({ status: 404, score: 0 });
    expect(byPath['/slow']).toMatchObject({ status: null, score: 0, error: 'Страница не ответила за 0.5 с' });
    // The slow page gave no answer: not checked, so left out of the average and not charged.
    expect(results.body.result.summary).toMatchObject({ pages: 4, reachable: 2, unchecked: 1 });
    expect(results.body.analysis.score).toBe(results.body.result.summary.averageScore);

    const list = await call(testApp.app, 'GET', `/api/v1/projects/${projectId}/page-checks?page=1&page_size=10`, { token: owner.token });
    expect(list.body.items.map((item: PageCheck) => item.id)).toContain(done.id);

    // A finished run cannot be cancelled (and keeps its charge: the three pages that answered).
    const cancel = await call(testApp.app, 'POST', `/api/v1/page-checks/${done.id}/cancel`, { token: owner.token });
    expect(cancel.status).toBe(409);
    expect(await balanceOf(owner)).toBe(47);
  });

  it('streams the progress of a run over HTTP, then done, and ends the stream', async () => {
    const run = await call(testApp.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: owner.token, body: { urls: [`${base}/okna`, `${base}/slow`], idempotency_key: 'stream-1' } });
    const id = run.body.analysis.id as string;
    expect((await readProgressStream(testApp.app, `/api/v1/page-checks/${id}/events`, outsider.token)).status).toBe(404);

    const stream = await readProgressStream<{ analysis: PageCheck }>(testApp.app, `/api/v1/page-checks/${id}/events`, owner.token);
    expect(stream.contentType).toContain('text/event-stream');
    expect(stream.events[0]!.event).toBe('progress');
    expect(stream.events.slice(0, -1).every((event) => event.event === 'progress')).toBe(true);
    // Live: the slow page holds the run for half a second, the stream tells of it while it runs.
    expect(stream.events.some(({ data }) => data.analysis.status === 'queued' || data.analysis.status === 'running')).toBe(true);
    expect(stream.events.at(-1)).toMatchObject({ event: 'done', data: { analysis: { id, status: 'completed', progress: 100 } } });
    // What the stream said last is what the run's GET says.
    expect((await call(testApp.app, 'GET', `/api/v1/page-checks/${id}`, { token: owner.token })).body).toEqual(stream.events.at(-1)!.data);
  });

  it('hides runs and projects of other organizations (404)', async () => {
    const run = await call(testApp.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: owner.token, body: { urls: [`${base}/okna`], idempotency_key: 'iso-1' } });
    const id = run.body.analysis.id;
    for (const [method, url] of [
      ['GET', `/api/v1/page-checks/${id}`],
      ['GET', `/api/v1/page-checks/${id}/results`],
      ['POST', `/api/v1/page-checks/${id}/cancel`],
      ['GET', `/api/v1/projects/${projectId}/page-checks`],
      ['GET', `/api/v1/projects/${projectId}/page-checks/urls`],
    ] as const) {
      expect((await call(testApp.app, method, url, { token: outsider.token })).status, url).toBe(404);
    }
    const start = await call(testApp.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: outsider.token, body: { idempotency_key: 'x' } });
    expect(start.status).toBe(404);
    expect(await balanceOf(outsider)).toBe(50);
    expect((await call(testApp.app, 'GET', `/api/v1/page-checks/${id}`)).status).toBe(401);
    await waitForStatus(id, owner.token, ['completed', 'failed']);
  });

  it('cancels a run and refunds it once', async () => {
    const before = await balanceOf(owner);
    const run = await call(testApp.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: owner.token, body: { urls: [`${base}/slow`, `${base}/okna`], idempotency_key: 'cancel-1' } });
    expect(run.status).toBe(201);
    expect(await balanceOf(owner)).toBe(before - 2);
    const cancelled = await call(testApp.app, 'POST', `/api/v1/page-checks/${run.body.analysis.id}/cancel`, { token: owner.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.analysis.status).toBe('cancelled');
    const twice = await call(testApp.app, 'POST', `/api/v1/page-checks/${run.body.analysis.id}/cancel`, { token: owner.token });
    expect(twice.body.analysis.status).toBe('cancelled');
    expect(await balanceOf(owner)).toBe(before);
    // Whatever the worker was doing, once its job is over the run is still cancelled.
    const { job_id: jobId } = await testApp.app.db.selectFrom('page_checks').select('job_id').where('id', '=', run.body.analysis.id).executeTakeFirstOrThrow();
    await vi.waitFor(
      async () => {
        const job = await sql<{ state: string }>`select state from pgboss.job where id = ${jobId}`.execute(testApp.app.db);
        expect(['completed', 'cancelled', 'failed']).toContain(job.rows[0]?.state);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect((await call(testApp.app, 'GET', `/api/v1/page-checks/${run.body.analysis.id}`, { token: owner.token })).body.analysis.status).toBe('cancelled');
    const results = await call(testApp.app, 'GET', `/api/v1/page-checks/${run.body.analysis.id}/results`, { token: owner.token });
    expect(results.status).toBe(409);
  });

  it('fails a run whose engine breaks and refunds it', async () => {
    // A campaign document without groups (a corrupt row) makes the run throw inside the worker.
    const broken = await insertProject(owner, [{ name: 'Битая', negativeKeywords: [] } as unknown as Campaign]);
    const before = await balanceOf(owner);
    const run = await call(testApp.app, 'POST', `/api/v1/projects/${broken}/page-checks`, { token: owner.token, body: { urls: [`${base}/okna`], idempotency_key: 'broken-1' } });
    expect(run.status).toBe(201);
    const failed = await waitForStatus(run.body.analysis.id, owner.token, ['failed', 'completed']);
    expect(failed).toMatchObject({ status: 'failed', error: 'Не удалось выполнить анализ, токены возвращены' });
    expect(await balanceOf(owner)).toBe(before);
    // Charged at the start and refunded once (the run may fail before a balance read between the two could see the charge).
    const entries = async (type: string) =>
      (await call(testApp.app, 'GET', `/api/v1/tokens/history?type=${type}`, { token: owner.token })).body.items.filter((entry: { reference_id: string }) => entry.reference_id === failed.id);
    expect((await entries('analysis_debit')).map((entry: { amount: number }) => entry.amount)).toEqual([-1]);
    expect(await entries('analysis_refund')).toHaveLength(1);
  });

  it('fails and refunds a run a dead worker left running', async () => {
    const before = await balanceOf(owner);
    const user = await createUser(testApp.app, { organizationId: owner.organizationId, balance: 10 });
    const row = await testApp.app.db
      .insertInto('page_checks')
      .values({ organization_id: owner.organizationId, project_id: projectId, created_by: user.id, urls: JSON.stringify([`${base}/okna`]), cost: 3, idempotency_key: 'dead-1', status: 'running', attempts: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await testApp.app.db.updateTable('token_balances').set({ balance: 7 }).where('user_id', '=', user.id).execute();
    await sql`update page_checks set heartbeat_at = now() - interval '1 hour' where id = ${row.id}`.execute(testApp.app.db);
    const analysis = (await call(testApp.app, 'GET', `/api/v1/page-checks/${row.id}`, { token: user.token })).body.analysis;
    expect(analysis).toMatchObject({ status: 'failed', error: 'Анализ прерван перезапуском сервера, токены возвращены' });
    expect(await balanceOf(user)).toBe(10);
    expect(await balanceOf(owner)).toBe(before);
  });
});

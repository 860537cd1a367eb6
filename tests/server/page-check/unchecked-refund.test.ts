import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageCheckResults } from '../../../contract/page-check.js';
import type { QueuedJob } from '../../../server/jobs/queue.js';
import type { PageCheckJobData } from '../../../server/page-check/lifecycle.js';
import { pageCheckFetchSettings, runPageCheckJob } from '../../../server/page-check/worker.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createProjectRow, createUser, type FixtureUser } from '../helpers/fixtures.js';
import { balanceOf, finishedPageCheck } from './helpers.js';

/**
 * A page check charges only for the pages it could check: a page that answered (even 404 or 500) was
 * checked; a page with no answer (a domain that does not resolve, a closed port, no answer in time)
 * was not, and its token goes back in the transaction that completes the run, once, in the ledger.
 * The report still lists it as a finding, and the summary's score is of the pages checked only.
 */
let site: Server;
let base: string;
let closedPort: number;
let t: TestApp;
let owner: FixtureUser;
let projectId: string;

const text = Array.from({ length: 30 }, () => 'Пластиковые окна с установкой под ключ, замер бесплатно.').join(' ');

beforeAll(async () => {
  site = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/slow') {
      const timer = setTimeout(() => response.end('<html></html>'), 5_000);
      return response.on('close', () => clearTimeout(timer));
    }
    response.writeHead(path === '/okna' ? 200 : 500, { 'content-type': 'text/html; charset=utf-8' });
    response.end(path === '/okna' ? `<html><head><title>Пластиковые окна</title></head><body><h1>Пластиковые окна</h1><p>${text}</p></body></html>` : 'Ошибка');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // A port that was just free: nothing listens there (connection refused).
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));

  pageCheckFetchSettings.timeoutMs = 400;
  t = await createTestApp({ config: { allowPrivateHosts: true }, jobQueue: { runWorkers: true } });
  owner = await createUser(t.app, { balance: 20 });
  projectId = await createProjectRow(t.app, owner);
});

afterAll(async () => {
  delete pageCheckFetchSettings.timeoutMs;
  await t?.close();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

const balance = () => balanceOf(t.app, owner.token);
const finished = (id: string) => finishedPageCheck(t.app, owner.token, id);

const refundsOf = async (id: string) =>
  (await call(t.app, 'GET', '/api/v1/tokens/history?type=analysis_refund', { token: owner.token })).body.items.filter((entry: { reference_id: string }) => entry.reference_id === id);

describe('pages that could not be checked are not charged', () => {
  it('charges the pages that answered, refunds the ones that did not, once, and scores only the checked ones', async () => {
    const unresolvable = 'http://okna-takogo-domena-net.invalid/okna';
    const urls = [`${base}/okna`, `${base}/broken`, unresolvable, `http://127.0.0.1:${closedPort}/okna`, `${base}/slow`];
    const started = await call(t.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: owner.token, body: { urls, idempotency_key: 'unchecked-1', expected_cost: 5 } });
    expect(started.status).toBe(201);
    expect(await balance()).toBe(15);

    const analysis = await finished(started.body.analysis.id);
    expect(analysis.status).toBe('completed');
    // The page that opened and the one that answered 500 were checked; three gave no answer.
    expect(analysis.cost).toBe(2);
    expect(await balance()).toBe(18);
    const refunds = await refundsOf(analysis.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 3, reason: 'Возврат за страницы, которые не удалось проверить (нет ответа сайта): 3' });

    const results = await call<PageCheckResults>(t.app, 'GET', `/api/v1/page-checks/${analysis.id}/results`, { token: owner.token });
    const byUrl = Object.fromEntries(results.body.result.pages.map((page) => [page.url, page]));
    expect(byUrl[unresolvable].error).toBe('Домен не найден (okna-takogo-domena-net.invalid)');
    expect(byUrl[`http://127.0.0.1:${closedPort}/okna`].error).toBe('Не удалось соединиться с сайтом: соединение отклонено');
    expect(byUrl[`${base}/slow`].error).toBe('Страница не ответила за 0.4 с');
    // Still findings: the clicks paid for these pages land nowhere.
    expect(byUrl[unresolvable].issues.map((item) => item.code)).toContain('fetch_failed');
    expect(byUrl[`${base}/broken`]).toMatchObject({ status: 500, score: 0 });
    const summary = results.body.result.summary;
    expect(summary).toMatchObject({ pages: 5, reachable: 1, unchecked: 3 });
    // The average of the two pages checked (the 500 scores 0), not of five with three zeros for pages never read.
    expect(summary.averageScore).toBe(Math.round(byUrl[`${base}/okna`].score / 2));

    // The run's job delivered again (a retry, a second worker) changes nothing: the refund is booked once.
    const row = await t.app.db.selectFrom('page_checks').select('job_id').where('id', '=', analysis.id).executeTakeFirstOrThrow();
    const job: QueuedJob<PageCheckJobData> = { id: row.job_id!, name: 'page-check.run', data: { analysisId: analysis.id }, retryCount: 1 };
    await runPageCheckJob(t.app.db, t.config, job);
    expect(await balance()).toBe(18);
    expect(await refundsOf(analysis.id)).toHaveLength(1);
  });

  it('refunds everything when no page answered and leaves the score empty', async () => {
    const before = await balance();
    const urls = ['http://net-takogo-sajta.invalid/', 'http://i-etogo-net.invalid/okna'];
    const started = await call(t.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: owner.token, body: { urls, idempotency_key: 'unchecked-2' } });
    expect(started.status).toBe(201);
    const analysis = await finished(started.body.analysis.id);
    expect(analysis).toMatchObject({ status: 'completed', cost: 0, score: null });
    expect(analysis.summary).toMatchObject({ pages: 2, unchecked: 2, averageScore: null });
    expect(await balance()).toBe(before);
  });
});

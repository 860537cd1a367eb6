import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeExportNotes, EXPORT_NOTES_HEADER } from '../../../contract/analysis.js';
import { analysisMessages } from '../../../contract/messages.js';
import { auditRunner, runAuditInWorkerThread } from '../../../server/analysis/worker.js';
import { runTiming } from '../../../server/runs/paid-run.js';
import { failAnalysis } from '../../../server/analysis/lifecycle.js';
import { progressStreams as analysisStreams } from '../../../server/lib/progress-stream.js';
import { closeWorkerPools, workerPoolSettings } from '../../../server/lib/worker-pool.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { analysisSampleData, balanceOf, deferred, eventsUntilDone, ledgerOf, projectWithCampaigns, quotedCost, waitForAnalysisRow } from './helpers.js';

describe('analysis pipeline: start, run on the job queue, progress, results', () => {
  let t: TestApp;
  let user: FixtureUser;
  let project: Awaited<ReturnType<typeof projectWithCampaigns>>;
  let cost: number;
  const START_BALANCE = 1000;

  beforeAll(async () => {
    t = await createTestApp({ jobQueue: { runWorkers: true } });
    user = await createUser(t.app, { balance: START_BALANCE });
    project = await projectWithCampaigns(t.app, user);
    cost = await quotedCost(t.app, user.token, project.campaigns);
  });
  afterAll(async () => t.close());
  afterEach(() => {
    auditRunner.run = runAuditInWorkerThread;
    runTiming.heartbeatMs = 2_000;
  });

  let listening: Promise<string> | null = null;
  const serverAddress = () => (listening ??= t.app.listen({ port: 0, host: '127.0.0.1' }));

  const start = (body: Record<string, unknown> = {}, token = user.token, projectId = project.projectId) =>
    call(t.app, 'POST', `/api/v1/projects/${projectId}/analyses`, { token, body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID(), ...body } });

  it('charges the quoted price, runs the engines, streams progress then done, and stores the results', async () => {
    const before = await balanceOf(t.app, user.id);
    const started = await start();
    expect(started.status).toBe(201);
    expect(started.body.analysis).toMatchObject({ status: 'queued', cost, progress: 0, options: { campaign_ids: project.campaignIds } });
    expect(await balanceOf(t.app, user.id)).toBe(before - cost);
    const id = started.body.analysis.id as string;

    const events = await eventsUntilDone(t.app, user.token, id);
    expect(events[0]!.event).toBe('progress');
    expect(events.at(-1)).toMatchObject({ event: 'done', analysis: { status: 'completed', progress: 100, stage: 'done' } });
    expect(events.filter((e) => e.event === 'done')).toHaveLength(1);

    // A reload reads the same final state from the database.
    const reloaded = await call(t.app, 'GET', `/api/v1/analyses/${id}`, { token: user.token });
    expect(reloaded.status).toBe(200);
    const analysis = reloaded.body.analysis;
    expect(analysis).toMatchObject({ status: 'completed', progress: 100, error: null, author: { id: user.id, full_name: 'Иван Петров' } });
    expect(analysis.score).toBeGreaterThanOrEqual(0);
    expect(analysis.score).toBeLessThanOrEqual(100);
    expect(analysis.summary).toMatchObject({ account_score: analysis.score, counts: { campaigns: 2 } });
    expect(analysis.summary.campaigns.map((c: { name: string }) => c.name)).toEqual(['Окна — поиск', 'Окна — сети']);
    expect(analysis.finished_at).not.toBeNull();

    const results = await call(t.app, 'GET', `/api/v1/analyses/${id}/results`, { token: user.token });
    expect(results.status).toBe(200);
    expect(results.body.summary.scores.account.score).toBe(analysis.score);
    expect(results.body.summary.suggestions.byKind.some((entry: { kind: string }) => entry.kind === 'cross_minus')).toBe(true);
    expect(results.body.findings.total).toBe(results.body.summary.findingsTotal);
    expect(results.body.decisions).toMatchObject({ accepted: 0, rejected: 0 });
    // Stored as rows; the analysis keeps the summary document only.
    const stored = await t.app.db.selectFrom('analyses').select(['result_rows', 'error_code']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ error_code: null });
    expect(stored.result_rows).toBeGreaterThan(0);

    // Charged once, never refunded.
    expect((await ledgerOf(t.app, id)).map((e) => [e.type, e.amount])).toEqual([['analysis_debit', -cost]]);

    const history = await call(t.app, 'GET', `/api/v1/projects/${project.projectId}/analyses?status=completed`, { token: user.token });
    expect(history.status).toBe(200);
    // The history and the project card quote the one money figure of the results' summary.
    const moneyPerMonth = results.body.summary.money.perMonth;
    expect(typeof moneyPerMonth).toBe('number');
    expect(history.body.items[0]).toMatchObject({ id, status: 'completed', score: analysis.score, cost, campaigns_count: 2, author: { id: user.id }, money_per_month: moneyPerMonth });

    const list = await call(t.app, 'GET', '/api/v1/projects', { token: user.token });
    expect(list.body.items.find((p: { id: string }) => p.id === project.projectId).last_analysis).toMatchObject({ id, score: analysis.score, money_per_month: moneyPerMonth });
  });

  it('quotes the money lost on the history and the project card, also for a summary stored before the lost/saving split', async () => {
    const started = await start();
    const id = started.body.analysis.id as string;
    await eventsUntilDone(t.app, user.token, id);
    // As stored before the split: no `saving`, and `perMonth` had the dearer conversions in it.
    const older = {
      perMonth: 29100,
      period: 29100,
      causes: [
        { cause: 'wasted_keywords', perMonth: 17200, period: 17200, count: 5, list: { kind: 'findings', checks: ['keyword.action_stop'] } },
        { cause: 'overpaid_clicks', perMonth: 11900, period: 11900, count: 2, list: { kind: 'findings', checks: ['keyword.action_lower_bid'] } },
      ],
    };
    await sql`UPDATE analyses SET summary = jsonb_set(summary, '{money}', ${JSON.stringify(older)}::jsonb) WHERE id = ${id}`.execute(t.app.db);
    const history = await call(t.app, 'GET', `/api/v1/projects/${project.projectId}/analyses?status=completed`, { token: user.token });
    expect(history.body.items.find((item: { id: string }) => item.id === id)).toMatchObject({ money_per_month: 17200 });
    const list = await call(t.app, 'GET', '/api/v1/projects', { token: user.token });
    expect(list.body.items.find((p: { id: string }) => p.id === project.projectId).last_analysis).toMatchObject({ id, money_per_month: 17200 });

    // Stored today: `perMonth` is the money lost already, the saving beside it.
    await sql`UPDATE analyses SET summary = jsonb_set(summary, '{money}', ${JSON.stringify({ ...older, perMonth: 17200, period: 17200, saving: { perMonth: 11900, period: 11900, reference: 'target' }, spendPerMonth: 60000 })}::jsonb) WHERE id = ${id}`.execute(t.app.db);
    const today = await call(t.app, 'GET', '/api/v1/projects', { token: user.token });
    expect(today.body.items.find((p: { id: string }) => p.id === project.projectId).last_analysis).toMatchObject({ id, money_per_month: 17200 });
  });

  it('accepts and rejects suggestions and exports the accepted changes as the platform files', async () => {
    const started = await start();
    const id = started.body.analysis.id as string;
    await eventsUntilDone(t.app, user.token, id);
    const { body } = await call(t.app, 'GET', `/api/v1/analyses/${id}/suggestions?kind=cross_minus&page_size=500`, { token: user.token });
    const crossMinus = body.items as { id: string }[];

    const nothing = await call(t.app, 'GET', `/api/v1/analyses/${id}/export?format=csv`, { token: user.token });
    expect(nothing.status).toBe(409);
    expect(nothing.body.code).toBe('NOTHING_TO_EXPORT');

    const unknown = await call(t.app, 'PUT', `/api/v1/analyses/${id}/decisions`, { token: user.token, body: { accepted: ['no-such-suggestion'], rejected: [] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].msg).toContain('no-such-suggestion');
    const both = await call(t.app, 'PUT', `/api/v1/analyses/${id}/decisions`, { token: user.token, body: { accepted: [crossMinus[0]!.id], rejected: [crossMinus[0]!.id] } });
    expect(both.status).toBe(422);

    const saved = await call(t.app, 'PUT', `/api/v1/analyses/${id}/decisions`, { token: user.token, body: { accepted: [crossMinus[0]!.id], rejected: crossMinus.slice(1).map((s) => s.id) } });
    expect(saved.status).toBe(200);
    expect(saved.body.decisions.accepted).toEqual([crossMinus[0]!.id]);
    const again = await call(t.app, 'GET', `/api/v1/analyses/${id}/results`, { token: user.token });
    expect(again.body.decisions).toMatchObject({ accepted: 1, rejected: crossMinus.length - 1 });
    const accepted = await call(t.app, 'GET', `/api/v1/analyses/${id}/suggestions?decision=accepted`, { token: user.token });
    expect(accepted.body.items.map((s: { id: string; decision: string }) => [s.id, s.decision])).toEqual([[crossMinus[0]!.id, 'accepted']]);

    const csv = await call(t.app, 'GET', `/api/v1/analyses/${id}/export?format=csv`, { token: user.token });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename=".*direct-changes\.csv"/);
    expect(String(csv.body)).toContain('-пластиковые');

    const xlsx = await t.app.inject({ method: 'GET', url: `/api/v1/analyses/${id}/export?format=xlsx`, headers: { authorization: `Bearer ${user.token}` } });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');

    const googleXlsx = await call(t.app, 'GET', `/api/v1/analyses/${id}/export?platform=google_ads&format=xlsx`, { token: user.token });
    expect(googleXlsx.status).toBe(422);
    expect(googleXlsx.body.code).toBe('EXPORT_FORMAT_UNAVAILABLE');
  });

  it('sends with the Editor export, in a header, what it leaves out: an ad with too little text for an RSA', async () => {
    const rich = await createUser(t.app, { balance: 100_000 });
    const data = analysisSampleData();
    const firstGroup = data.campaigns[0]!.groups[0]!;
    firstGroup.ads.push({ kind: 'text', headlines: ['Окна'], texts: ['Окна'], finalUrl: 'https://example.ru/', sitelinks: [], callouts: [] });
    const own = await projectWithCampaigns(t.app, rich, data);
    const started = await call(t.app, 'POST', `/api/v1/projects/${own.projectId}/analyses`, { token: rich.token, body: { campaign_ids: own.campaignIds, idempotency_key: randomUUID() } });
    const id = started.body.analysis.id as string;
    await eventsUntilDone(t.app, rich.token, id);
    const bulk = await call(t.app, 'POST', `/api/v1/analyses/${id}/decisions/bulk`, { token: rich.token, body: { filter: {}, decision: 'accepted' } });
    expect(bulk.status).toBe(200);

    const google = await call(t.app, 'GET', `/api/v1/analyses/${id}/export?platform=google_ads&format=csv`, { token: rich.token });
    expect(google.status).toBe(200);
    const notes = decodeExportNotes(google.headers[EXPORT_NOTES_HEADER] as string);
    expect(notes.filter((note) => note.startsWith('Объявлений не выгружено в файл Google Ads Editor: 1 — из их текстов'))).toHaveLength(1);
    expect(notes.join(' ')).toContain(`«Окна» (кампания «${data.campaigns[0]!.name}», группа «${firstGroup.name}»)`);
    // The Direct file carries every ad: no such note there.
    const direct = await call(t.app, 'GET', `/api/v1/analyses/${id}/export?format=csv`, { token: rich.token });
    expect(decodeExportNotes(direct.headers[EXPORT_NOTES_HEADER] as string).filter((note) => note.startsWith('Объявлений не выгружено'))).toEqual([]);
  });

  it('20 concurrent identical start requests make one analysis, one debit and one job', async () => {
    const before = await balanceOf(t.app, user.id);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => start({ idempotency_key: key })));
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(19).fill(200), 201]);
    const ids = new Set(answers.map((a) => a.body.analysis.id));
    expect(ids.size).toBe(1);
    const id = [...ids][0] as string;

    const rows = await t.app.db.selectFrom('analyses').select('id').where('idempotency_key', '=', key).execute();
    expect(rows).toHaveLength(1);
    expect((await ledgerOf(t.app, id)).filter((e) => e.type === 'analysis_debit')).toHaveLength(1);
    expect(await balanceOf(t.app, user.id)).toBe(before - cost);
    const jobs = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'analysis.run' AND data ->> 'analysisId' = ${id}`.execute(t.app.db);
    expect(jobs.rows[0]!.n).toBe(1);

    // A retry after a lost answer, later on: the same analysis, still one charge.
    await eventsUntilDone(t.app, user.token, id);
    const retry = await start({ idempotency_key: key });
    expect(retry.status).toBe(200);
    expect(retry.body.analysis).toMatchObject({ id, status: 'completed' });
    expect(await balanceOf(t.app, user.id)).toBe(before - cost);
  });

  it('answers 402 with the amounts when the balance is short, and creates nothing', async () => {
    const poor = await createUser(t.app, { organizationId: user.organizationId, balance: 3 });
    const key = randomUUID();
    const answer = await start({ idempotency_key: key }, poor.token);
    expect(answer.status).toBe(402);
    expect(answer.body).toMatchObject({ error: analysisMessages.insufficientTokens, code: 'INSUFFICIENT_TOKENS', required: cost, balance: 3 });
    expect(answer.body.detail[0].msg).toBe(`Стоимость анализа — ${cost} токенов, на балансе 3. Пополните баланс на странице «Токены»`);
    expect(await balanceOf(t.app, poor.id)).toBe(3);
    expect(await t.app.db.selectFrom('analyses').select('id').where('idempotency_key', '=', key).execute()).toHaveLength(0);
    expect(await t.app.db.selectFrom('token_ledger').select('id').where('user_id', '=', poor.id).execute()).toHaveLength(0);
  });

  it('enqueues the run in the debit’s transaction: when the enqueue fails, nothing is charged or created', async () => {
    const jobs = t.app.jobs!;
    const send = jobs.send;
    jobs.send = async () => {
      throw new Error('queue down');
    };
    const before = await balanceOf(t.app, user.id);
    const key = randomUUID();
    try {
      const answer = await start({ idempotency_key: key });
      expect(answer.status).toBe(500);
    } finally {
      jobs.send = send;
    }
    expect(await balanceOf(t.app, user.id)).toBe(before);
    expect(await t.app.db.selectFrom('analyses').select('id').where('idempotency_key', '=', key).execute()).toHaveLength(0);
    expect(await t.app.db.selectFrom('token_ledger').select('id').where('idempotency_key', '=', `analysis:${key}`).execute()).toHaveLength(0);

    // The retry with the same key (the client keeps it after a 5xx) starts and charges once.
    const retry = await start({ idempotency_key: key });
    expect(retry.status).toBe(201);
    expect(await balanceOf(t.app, user.id)).toBe(before - cost);
    await eventsUntilDone(t.app, user.token, retry.body.analysis.id);
  });

  it('refuses campaigns of another project and keys reused for another project', async () => {
    const other = await projectWithCampaigns(t.app, user);
    const foreign = await start({ campaign_ids: other.campaignIds });
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail[0]).toEqual({ loc: ['body', 'campaign_ids'], msg: analysisMessages.campaignsNotInProject });

    const key = randomUUID();
    const first = await start({ idempotency_key: key });
    expect(first.status).toBe(201);
    const reused = await start({ idempotency_key: key, campaign_ids: other.campaignIds }, user.token, other.projectId);
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    await eventsUntilDone(t.app, user.token, first.body.analysis.id);
  });

  it('a failing run ends failed and refunds exactly once', async () => {
    auditRunner.run = async () => {
      throw new Error('engine exploded');
    };
    const before = await balanceOf(t.app, user.id);
    const started = await start();
    const id = started.body.analysis.id as string;
    const events = await eventsUntilDone(t.app, user.token, id);
    expect(events.at(-1)).toMatchObject({ event: 'done', analysis: { status: 'failed', error: analysisMessages.failed, error_code: 'ENGINE_FAILED' } });
    expect(await balanceOf(t.app, user.id)).toBe(before);

    // Failing again (a late retry, a recovery) changes nothing.
    expect(await failAnalysis(t.app.db, id, 'again', 'ENGINE_FAILED')).toBe(false);
    expect((await ledgerOf(t.app, id)).map((e) => [e.type, e.amount])).toEqual([
      ['analysis_debit', -cost],
      ['analysis_refund', cost],
    ]);
    expect(await balanceOf(t.app, user.id)).toBe(before);
    const results = await call(t.app, 'GET', `/api/v1/analyses/${id}/results`, { token: user.token });
    expect(results.status).toBe(409);
    expect(results.body.code).toBe('ANALYSIS_NOT_COMPLETED');
  });

  it('a run over its thread’s heap limit fails alone with a Russian message and is refunded; the next run completes', async () => {
    const saved = workerPoolSettings.analysisHeapMb;
    await closeWorkerPools();
    // Too small a heap for the morphology dictionaries: the thread dies of the limit, not the process.
    workerPoolSettings.analysisHeapMb = 16;
    const before = await balanceOf(t.app, user.id);
    try {
      const id = (await start()).body.analysis.id as string;
      const events = await eventsUntilDone(t.app, user.token, id);
      expect(events.at(-1)).toMatchObject({ event: 'done', analysis: { status: 'failed', error: analysisMessages.outOfMemory } });
      expect(await balanceOf(t.app, user.id)).toBe(before);
    } finally {
      await closeWorkerPools();
      workerPoolSettings.analysisHeapMb = saved;
    }
    const next = await eventsUntilDone(t.app, user.token, (await start()).body.analysis.id as string);
    expect(next.at(-1)).toMatchObject({ event: 'done', analysis: { status: 'completed' } });
  });

  it('keeps progress in the database while running; cancel stops the run and refunds once', async () => {
    runTiming.heartbeatMs = 50;
    const entered = deferred();
    const stopped = deferred();
    auditRunner.run = (_input, onProgress, signal) => {
      onProgress({ stage: 'lemmatize', done: 1, total: 2 });
      entered.resolve();
      return new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          stopped.resolve();
          reject(signal.reason);
        });
      });
    };
    const before = await balanceOf(t.app, user.id);
    const started = await start();
    const id = started.body.analysis.id as string;
    await entered.promise;
    await waitForAnalysisRow<{ stage: string }>(t.database.url, id, (row) => row.stage === 'lemmatize');

    const reload = await call(t.app, 'GET', `/api/v1/analyses/${id}`, { token: user.token });
    expect(reload.body.analysis).toMatchObject({ status: 'running', stage: 'lemmatize', progress: 23, progress_detail: { stage: 'lemmatize', done: 1, total: 2 } });

    const cancelled = await call(t.app, 'POST', `/api/v1/analyses/${id}/cancel`, { token: user.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.analysis.status).toBe('cancelled');
    expect(await balanceOf(t.app, user.id)).toBe(before);
    // The worker notices on its heartbeat and terminates the engines' thread.
    await stopped.promise;

    const twice = await call(t.app, 'POST', `/api/v1/analyses/${id}/cancel`, { token: user.token });
    expect(twice.status).toBe(200);
    expect((await ledgerOf(t.app, id)).filter((e) => e.type === 'analysis_refund')).toHaveLength(1);
    expect(await balanceOf(t.app, user.id)).toBe(before);
    const events = await eventsUntilDone(t.app, user.token, id);
    expect(events.at(-1)).toMatchObject({ event: 'done', analysis: { status: 'cancelled' } });
  });

  it('cannot cancel a finished analysis, nor one of another member unless owner or admin', async () => {
    const started = await start();
    const id = started.body.analysis.id as string;
    const member = await createUser(t.app, { organizationId: user.organizationId, organizationRole: 'member' });
    const forbidden = await call(t.app, 'POST', `/api/v1/analyses/${id}/cancel`, { token: member.token });
    expect(forbidden.status).toBe(403);
    await eventsUntilDone(t.app, user.token, id);
    const late = await call(t.app, 'POST', `/api/v1/analyses/${id}/cancel`, { token: user.token });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('ANALYSIS_FINISHED');
  });

  it('streams live progress over HTTP and ends the stream after done', async () => {
    const address = await serverAddress();
    const release = deferred();
    auditRunner.run = async (input, onProgress, signal, onSaving) => {
      onProgress({ stage: 'semantic', done: 1, total: 2 });
      await release.promise;
      return runAuditInWorkerThread(input, onProgress, signal, onSaving);
    };
    const started = await start();
    const id = started.body.analysis.id as string;
    // A client that accepts compression still gets the stream uncompressed, event by event (below).
    const response = await fetch(`${address}/api/v1/analyses/${id}/events`, { headers: { authorization: `Bearer ${user.token}`, 'accept-encoding': 'br, gzip' } });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('content-encoding')).toBeNull();
    // The stream is written on the raw response; it still carries the security headers of every answer.
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let released = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      // Live: the semantic stage arrives while the run is still held at it.
      if (!released && text.includes('"stage":"semantic"')) {
        released = true;
        release.resolve();
      }
    }
    expect(released).toBe(true);
    const events = text.split('\n\n').filter((block) => block.startsWith('event:'));
    expect(events.at(-1)).toMatch(/^event: done\ndata: .*"status":"completed"/);
    expect(events.slice(0, -1).every((block) => block.startsWith('event: progress'))).toBe(true);
  });

  it('releases the stream when the client disconnects', async () => {
    const address = await serverAddress();
    const release = deferred();
    auditRunner.run = async (input, onProgress, signal, onSaving) => {
      await release.promise;
      return runAuditInWorkerThread(input, onProgress, signal, onSaving);
    };
    const started = await start();
    const id = started.body.analysis.id as string;
    const client = new AbortController();
    const response = await fetch(`${address}/api/v1/analyses/${id}/events`, { headers: { authorization: `Bearer ${user.token}` }, signal: client.signal });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('event: progress')) text += new TextDecoder().decode((await reader.read()).value);
    const openBefore = analysisStreams.open;
    expect(openBefore).toBeGreaterThanOrEqual(1);

    const closed = once(analysisStreams, 'closed');
    client.abort();
    expect(await closed).toEqual([id]);
    expect(analysisStreams.open).toBe(openBefore - 1);

    release.resolve();
    expect((await eventsUntilDone(t.app, user.token, id)).at(-1)!.analysis.status).toBe('completed');
  });
});

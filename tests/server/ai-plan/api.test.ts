import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditResult } from '../../../contract/analysis.js';
import { readMoneyStory } from '../../../contract/analysis-results.js';
import { formatRub } from '../../../contract/format.js';
import { aiPlanMessages, apiMessages } from '../../../contract/messages.js';
import { rankFindings } from '../../../server/ai-plan/prompt.js';
import { llmRetrySettings } from '../../../server/ai-plan/provider.js';
import { aiPlanRuns } from '../../../server/ai-plan/worker.js';
import { runTiming } from '../../../server/runs/paid-run.js';
import { buildApp } from '../../../server/app.js';
import { applyLedgerEntry } from '../../../server/tokens/ledger.js';
import { defaultPricingTable } from '../../../server/config/pricing-table.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../fakes/openai-fake.js';
import { analysisSampleData, balanceOf, eventsUntilDone, ledgerOf, projectWithCampaigns } from '../analysis/helpers.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { readProgressStream } from '../helpers/progress-stream.js';
import { finished, planReply, promptCodes, waitForPlanRow } from './helpers.js';

const PRICE = defaultPricingTable.aiPlan;

/** Resolves when this process's worker is done with the plan's run. */
function runEnded(id: string): Promise<void> {
  return new Promise((resolve) => {
    const onEnded = (ended: string) => {
      if (ended !== id) return;
      aiPlanRuns.off('ended', onEnded);
      resolve();
    };
    aiPlanRuns.on('ended', onEnded);
  });
}

describe('AI plan API: a language model (a fake OpenAI-compatible server) writes the plan of a completed audit', () => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let user: FixtureUser;
  let analysisId: string;
  let audit: AuditResult;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.respond(planReply);
    // A 5xx of the model is retried with back-off: no real waits in this test.
    llmRetrySettings.sleep = async () => undefined;
    t = await createTestApp({ jobQueue: { runWorkers: true }, config: { llm: { apiUrl: fake.url, apiKey: fake.apiKey, model: fake.model, timeoutMs: 10_000 } } });
    user = await createUser(t.app, { balance: 1000 });
    const project = await projectWithCampaigns(t.app, user);
    const started = await call(t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, { token: user.token, body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() } });
    analysisId = started.body.analysis.id;
    const events = await eventsUntilDone(t.app, user.token, analysisId);
    expect(events.at(-1)!.analysis.status).toBe('completed');
    // The parts of the audit the prompt quotes, read through the paged results API.
    const results = (await call(t.app, 'GET', `/api/v1/analyses/${analysisId}/results`, { token: user.token })).body;
    const findings = (await call(t.app, 'GET', `/api/v1/analyses/${analysisId}/findings?page_size=500`, { token: user.token })).body.items;
    audit = { scoring: { account: results.summary.scores.account, findings } } as unknown as AuditResult;
  });
  afterAll(async () => {
    delete llmRetrySettings.sleep;
    await t?.close();
    await fake?.close();
  });

  const start = (key = randomUUID(), token = user.token, id = analysisId) => call(t.app, 'POST', `/api/v1/analyses/${id}/ai-plans`, { token, body: { idempotency_key: key } });
  const getPlan = (id: string, token = user.token) => call(t.app, 'GET', `/api/v1/ai-plans/${id}`, { token });
  const settle = (id: string) => waitForPlanRow(t.database.url, id, finished);

  it('charges the price, shows the run, asks the model once and stores the plan with money from the audit', async () => {
    const before = await balanceOf(t.app, user.id);
    const held = fake.hold();
    const started = await start();
    expect(started.status).toBe(201);
    const id = started.body.ai_plan.id as string;
    expect(started.body.ai_plan).toMatchObject({ analysis_id: analysisId, status: 'queued', model: fake.model, cost: PRICE, plan: null, usage: null, error: null, author: { id: user.id } });
    expect(await balanceOf(t.app, user.id)).toBe(before - PRICE);

    // While the model thinks, the plan is running and the prompt's size is known.
    const request = await held.arrived;
    const running = await getPlan(id);
    expect(running.body.ai_plan).toMatchObject({ status: 'running', plan: null });
    const promptChars = request.body.messages!.reduce((sum, message) => sum + message.content.length, 0);
    expect(running.body.ai_plan.prompt_chars).toBe(promptChars);
    held.release();
    await settle(id);

    expect(request.body).toMatchObject({ model: fake.model, response_format: { type: 'json_object' } });
    expect(request.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    const user_message = request.body.messages!.find((message) => message.role === 'user')!.content;
    expect(user_message).toContain(`Оценка аккаунта: ${Math.round(audit.scoring.account.score)} из 100`);
    const codes = promptCodes(request);
    expect(codes.length).toBeGreaterThanOrEqual(3);

    const done = await getPlan(id);
    expect(done.status).toBe(200);
    const plan = done.body.ai_plan;
    expect(plan).toMatchObject({ status: 'completed', error: null, prompt_chars: promptChars, cost: PRICE });
    expect(plan.usage.total_tokens).toBe(plan.usage.prompt_tokens + plan.usage.completion_tokens);
    expect(plan.usage.prompt_tokens).toBeGreaterThan(0);
    expect(plan.finished_at).not.toBeNull();
    expect(plan.plan.summary).toBe('Главная утечка — фразы без конверсий.');
    expect(plan.plan.steps.map((step: { position: number; title: string }) => [step.position, step.title])).toEqual([
      [1, 'Остановите фразы без конверсий'],
      [2, 'Исправьте остальное'],
    ]);

    // The first step cites the prompt's two most expensive findings: the audit's own findings and money.
    const ranked = rankFindings(audit.scoring.findings);
    const first = plan.plan.steps[0];
    expect(first.findings.map((item: { id: string }) => item.id)).toEqual(ranked.slice(0, 2).map((item) => item.id));
    for (const item of first.findings) {
      const original = audit.scoring.findings.find((finding) => finding.id === item.id)!;
      expect(item).toMatchObject({ check_id: original.checkId, title: original.title, severity: original.severity });
    }
    const priced = ranked.slice(0, 2).filter((item) => (item.moneyPerMonth ?? 0) > 0);
    expect(first.money_per_month).toEqual(priced.length > 0 ? Math.round(priced.reduce((sum, item) => sum + item.moneyPerMonth!, 0) * 100) / 100 : null);

    // Charged once, never refunded; the overview lists it.
    expect((await ledgerOf(t.app, id)).map((entry) => [entry.type, entry.amount])).toEqual([['analysis_debit', -PRICE]]);
    const overview = await call(t.app, 'GET', `/api/v1/analyses/${analysisId}/ai-plans`, { token: user.token });
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({ available: true, unavailable_reason: null, price: PRICE, balance: before - PRICE });
    expect(overview.body.items[0]).toMatchObject({ id, status: 'completed', model: fake.model, cost: PRICE });
  });

  it('streams the plan over HTTP while the model works (progress), then done, and ends the stream', async () => {
    const held = fake.hold();
    const id = (await start()).body.ai_plan.id as string;
    let released = false;
    const stream = await readProgressStream<{ ai_plan: { id: string; status: string } }>(t.app, `/api/v1/ai-plans/${id}/events`, user.token, ({ data }) => {
      // Live: the running state arrives while the model still holds its answer.
      if (!released && data.ai_plan.status === 'running') {
        released = true;
        void held.arrived.then(() => held.release());
      }
    });
    expect(released).toBe(true);
    expect(stream.contentType).toContain('text/event-stream');
    expect(stream.events.slice(0, -1).every((event) => event.event === 'progress')).toBe(true);
    expect(stream.events.at(-1)).toMatchObject({ event: 'done', data: { ai_plan: { id, status: 'completed' } } });
    expect((await getPlan(id)).body).toEqual(stream.events.at(-1)!.data);
    const stranger = await createUser(t.app, { balance: 0 });
    expect(await readProgressStream(t.app, `/api/v1/ai-plans/${id}/events`, stranger.token)).toMatchObject({ status: 404, events: [] });
  });

  it('gives the model the non-target queries as code N with the top automatic negatives, and prices a step citing N with the audit’s figure', async () => {
    // Two query rows without conversions: «вакансии» (a campaign category word) and a group phrase.
    const data = analysisSampleData();
    data.searchQueries.push(
      { query: 'вакансии монтажник окон', campaignName: 'Окна — поиск', stats: { impressions: 60, clicks: 6, cost: 300, conversions: 0 } },
      { query: 'окна пвх rehau', campaignName: 'Окна — поиск', groupName: 'Пластиковые окна', stats: { impressions: 80, clicks: 8, cost: 400, conversions: 0 } },
    );
    const project = await projectWithCampaigns(t.app, user, data);
    const run = await call(t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, { token: user.token, body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() } });
    const queriesAnalysisId = run.body.analysis.id as string;
    expect((await eventsUntilDone(t.app, user.token, queriesAnalysisId)).at(-1)!.analysis.status).toBe('completed');
    const queriesSummary = (await call(t.app, 'GET', `/api/v1/analyses/${queriesAnalysisId}/results`, { token: user.token })).body.summary;
    // 300 + 400 ₽ over 31 days, each row once: 700 × 30 / 31.
    expect(queriesSummary.nonTargetQueries).toMatchObject({ queries: 2, cost: 700, costPerMonth: 677.42 });

    fake.respond((request) => {
      const codes = promptCodes(request);
      const user_message = request.body.messages!.find((message) => message.role === 'user')!.content;
      const negatives = user_message.includes('(код N)') ? ['N'] : [];
      return {
        content: JSON.stringify({
          steps: [
            { title: 'Добавьте минус-слова', why: 'Нецелевые запросы без конверсий', findings: negatives },
            { title: 'Остановите фразы без конверсий', why: 'Они тратят бюджет', findings: codes.slice(0, 1) },
          ],
        }),
      };
    });
    try {
      const held = fake.hold();
      const started = await start(randomUUID(), user.token, queriesAnalysisId);
      expect(started.status).toBe(201);
      const id = started.body.ai_plan.id as string;
      const request = await held.arrived;
      held.release();
      await settle(id);

      const user_message = request.body.messages!.find((message) => message.role === 'user')!.content;
      expect(user_message).toMatch(/Нецелевые запросы \(код N\): 677 ₽\/мес, запросов без конверсий: 2 /);
      // The worker hands the prompt the automatic negatives, not only the accepted ones (none here).
      expect(user_message).toContain('- минус-слово «вакансии» на уровне кампании');

      const plan = (await getPlan(id)).body.ai_plan;
      expect(plan.status).toBe('completed');
      const [negativesStep, findingsStep] = plan.plan.steps;
      expect(negativesStep).toMatchObject({ title: 'Добавьте минус-слова', money_per_month: 677.42 });
      expect(negativesStep.findings).toEqual([expect.objectContaining({ id: 'non-target-queries', money_per_month: 677.42 })]);
      // The total is the part of the audit's headline the steps cover, never more, and the note says what is left out.
      const story = readMoneyStory(queriesSummary.money, queriesSummary.settings.targetCpa);
      expect(plan.plan.money_per_month_total).toBeLessThanOrEqual(story.perMonth);
      expect(plan.plan.money_note).toMatch(/^План охватывает /);
    } finally {
      fake.respond(planReply);
    }
  });

  it('gives a plan whose steps cite every finding and code N the audit’s headline as its total, and one citing less a note «План охватывает X из Y»', async () => {
    const data = analysisSampleData();
    data.searchQueries.push({ query: 'вакансии монтажник окон', campaignName: 'Окна — поиск', stats: { impressions: 60, clicks: 6, cost: 300, conversions: 0 } });
    // A keyword that spent 9 000 ₽ and brought nothing: money lost beside the queries.
    data.campaigns[0]!.groups[1]!.keywords[0]!.stats = { impressions: 3000, clicks: 150, cost: 9000, conversions: 0 };
    const project = await projectWithCampaigns(t.app, user, data);
    const run = await call(t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, { token: user.token, body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() } });
    const id = run.body.analysis.id as string;
    expect((await eventsUntilDone(t.app, user.token, id)).at(-1)!.analysis.status).toBe('completed');
    const summary = (await call(t.app, 'GET', `/api/v1/analyses/${id}/results`, { token: user.token })).body.summary;
    const story = readMoneyStory(summary.money, summary.settings.targetCpa);
    expect(story.causes.filter((cause) => cause.perMonth > 0).map((cause) => cause.cause)).toEqual(expect.arrayContaining(['wasted_keywords', 'non_target_queries']));

    const planCiting = async (cite: (codes: string[]) => string[]) => {
      fake.respond((request) => {
        const user_message = request.body.messages!.find((message) => message.role === 'user')!.content;
        const codes = [...promptCodes(request), ...(user_message.includes('(код N)') ? ['N'] : [])];
        return { content: JSON.stringify({ steps: [{ title: 'Исправьте найденное', why: 'По аудиту', findings: cite(codes) }] }) };
      });
      const started = await start(randomUUID(), user.token, id);
      expect(started.status).toBe(201);
      await settle(started.body.ai_plan.id);
      return (await getPlan(started.body.ai_plan.id)).body.ai_plan.plan;
    };
    try {
      const whole = await planCiting((codes) => codes);
      expect(whole.money_per_month_total).toBe(story.perMonth);
      expect(whole.money_note).toContain(`План охватывает все потери, которые нашёл аудит: ${formatRub(story.perMonth)} в месяц.`);
      // Only the non-target queries: the rest of the headline is named, with its money and why.
      const part = await planCiting((codes) => codes.filter((code) => code === 'N'));
      const queries = story.causes.find((cause) => cause.cause === 'non_target_queries')!;
      expect(part.money_per_month_total).toBe(queries.perMonth);
      expect(part.money_note).toContain(`План охватывает ${formatRub(queries.perMonth)} из ${formatRub(story.perMonth)} потерь в месяц. Не вошли: «Фразы без конверсий»`);
      expect(part.money_note).toContain('ни один шаг плана на эти замечания не ссылается');
    } finally {
      fake.respond(planReply);
    }
  });

  it.each([
    ['an answer that is not JSON', () => ({ content: 'Конечно! Вот план: 1) остановите фразы.' }), `${aiPlanMessages.notJson}. ${aiPlanMessages.refundNote}`, true],
    ['JSON of another shape', () => ({ content: JSON.stringify({ plan: 'остановите фразы' }) }), `Ответ языковой модели не соответствует формату плана: steps: нет обязательного поля. ${aiPlanMessages.refundNote}`, true],
    ['steps citing findings that are not in the audit', () => ({ content: JSON.stringify({ steps: [{ title: 'Шаг', why: 'Так', findings: ['F999'] }] }) }), `Ответ языковой модели ссылается на замечания, которых нет в аудите: F999. ${aiPlanMessages.refundNote}`, true],
    ['an error of the model server', () => ({ status: 503, json: { error: { message: 'Model is overloaded' } } }), `Языковая модель ответила ошибкой (HTTP 503): Model is overloaded. ${aiPlanMessages.refundNote}`, false],
  ] as const)('fails on %s with a clear Russian error and refunds once', async (_name, reply, error, spent) => {
    fake.respond(reply);
    try {
      const before = await balanceOf(t.app, user.id);
      const started = await start();
      expect(started.status).toBe(201);
      const id = started.body.ai_plan.id as string;
      await settle(id);
      const failed = (await getPlan(id)).body.ai_plan;
      expect(failed).toMatchObject({ status: 'failed', error, plan: null });
      // Tokens the model spent on a bad answer are still recorded.
      if (spent) expect(failed.usage.total_tokens).toBeGreaterThan(0);
      else expect(failed.usage).toBeNull();
      expect(await balanceOf(t.app, user.id)).toBe(before);
      expect((await ledgerOf(t.app, id)).map((entry) => [entry.type, entry.amount])).toEqual([
        ['analysis_debit', -PRICE],
        ['analysis_refund', PRICE],
      ]);
    } finally {
      fake.respond(planReply);
    }
  });

  it('is idempotent: the same key answers the first plan and charges once, even sent 10 times at once', async () => {
    const before = await balanceOf(t.app, user.id);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => start(key)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(9).fill(200), 201]);
    const ids = new Set(answers.map((answer) => answer.body.ai_plan.id));
    expect(ids.size).toBe(1);
    const id = [...ids][0] as string;
    await settle(id);
    const again = await start(key);
    expect(again.status).toBe(200);
    expect(again.body.ai_plan).toMatchObject({ id, status: 'completed' });
    expect(await balanceOf(t.app, user.id)).toBe(before - PRICE);
    expect((await ledgerOf(t.app, id)).filter((entry) => entry.type === 'analysis_debit')).toHaveLength(1);
    const jobs = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'ai-plan.run' AND data ->> 'aiPlanId' = ${id}`.execute(t.app.db);
    expect(jobs.rows[0]!.n).toBe(1);
  });

  it('refuses a short balance (402) and an unfinished audit (409), creating and charging nothing', async () => {
    const poor = await createUser(t.app, { organizationId: user.organizationId, balance: PRICE - 1 });
    const key = randomUUID();
    const short = await start(key, poor.token);
    expect(short.status).toBe(402);
    expect(short.body).toMatchObject({ error: apiMessages.insufficientTokens, code: 'INSUFFICIENT_TOKENS' });
    expect(short.body.detail[0].msg).toBe(`Стоимость ИИ-плана — ${PRICE} токенов, на балансе ${PRICE - 1}. Пополните баланс на странице «Токены»`);
    expect(await balanceOf(t.app, poor.id)).toBe(PRICE - 1);
    expect(await t.app.db.selectFrom('ai_plans').select('id').where('idempotency_key', '=', key).execute()).toHaveLength(0);

    const project = await t.app.db.selectFrom('analyses').select('project_id').where('id', '=', analysisId).executeTakeFirstOrThrow();
    const failedAudit = await t.app.db
      .insertInto('analyses')
      .values({ organization_id: user.organizationId, project_id: project.project_id, created_by: user.id, status: 'failed', options: JSON.stringify({ campaign_ids: [], settings: {}, target_cpa: null }), cost: 0, idempotency_key: randomUUID() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = await balanceOf(t.app, user.id);
    const unfinished = await start(randomUUID(), user.token, failedAudit.id);
    expect(unfinished.status).toBe(409);
    expect(unfinished.body).toEqual({ error: aiPlanMessages.analysisNotCompleted, code: 'ANALYSIS_NOT_COMPLETED' });
    expect(await balanceOf(t.app, user.id)).toBe(before);

    // A key already used for another audit's plan is a conflict, not a second plan.
    const used = randomUUID();
    const first = await start(used);
    await settle(first.body.ai_plan.id);
    const reused = await start(used, user.token, failedAudit.id);
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('fails a run whose worker died (stale claim) when someone looks at it, refunds it, and the late answer changes nothing', async () => {
    const before = await balanceOf(t.app, user.id);
    const held = fake.hold();
    // The worker is as good as dead: no heartbeat of it comes while the test ages its last one.
    const heartbeatMs = runTiming.heartbeatMs;
    runTiming.heartbeatMs = 3_600_000;
    const started = await start();
    const id = started.body.ai_plan.id as string;
    await held.arrived.finally(() => (runTiming.heartbeatMs = heartbeatMs));
    await t.app.db.updateTable('ai_plans').set({ heartbeat_at: sql`now() - interval '1 day'` }).where('id', '=', id).execute();
    const looked = await getPlan(id);
    expect(looked.body.ai_plan).toMatchObject({ status: 'failed', error: `${aiPlanMessages.interrupted}. ${aiPlanMessages.refundNote}` });
    expect(await balanceOf(t.app, user.id)).toBe(before);

    const ended = runEnded(id);
    held.release();
    // The worker's late answer finds the run no longer its own; the run ends without touching it.
    await ended;
    expect((await getPlan(id)).body.ai_plan).toMatchObject({ status: 'failed', plan: null });
    expect(await balanceOf(t.app, user.id)).toBe(before);
  });

  it('fails and refunds a queued plan whose job pg-boss no longer holds', async () => {
    const before = await balanceOf(t.app, user.id);
    const key = randomUUID();
    const orphan = await t.app.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('ai_plans')
        .values({ organization_id: user.organizationId, analysis_id: analysisId, created_by: user.id, model: fake.model, cost: PRICE, idempotency_key: key, job_id: randomUUID() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await applyLedgerEntry(trx, { userId: user.id, organizationId: user.organizationId, type: 'analysis_debit', amount: -PRICE, idempotencyKey: `ai-plan:${key}`, referenceId: row.id });
      return row.id;
    });
    expect(await balanceOf(t.app, user.id)).toBe(before - PRICE);
    expect((await getPlan(orphan)).body.ai_plan).toMatchObject({ status: 'failed', error: `${aiPlanMessages.interrupted}. ${aiPlanMessages.refundNote}` });
    expect(await balanceOf(t.app, user.id)).toBe(before);
  });

  describe('tenant isolation', () => {
    it("another organization's user gets 404 for the audit, its AI plans and a plan, and is charged nothing", async () => {
      const started = await start();
      const id = started.body.ai_plan.id as string;
      await settle(id);
      const stranger = await createUser(t.app, { balance: 1000 });
      const answers = [
        await start(randomUUID(), stranger.token),
        await call(t.app, 'GET', `/api/v1/analyses/${analysisId}/ai-plans`, { token: stranger.token }),
        await getPlan(id, stranger.token),
      ];
      expect(answers.map((answer) => [answer.status, answer.body.code])).toEqual([
        [404, 'ANALYSIS_NOT_FOUND'],
        [404, 'ANALYSIS_NOT_FOUND'],
        [404, 'AI_PLAN_NOT_FOUND'],
      ]);
      expect(answers[2]!.body.error).toBe(aiPlanMessages.planNotFound);
      for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain(user.organizationId);
      expect(await balanceOf(t.app, stranger.id)).toBe(1000);
      // A member of the same organization reads it.
      const colleague = await createUser(t.app, { organizationId: user.organizationId, organizationRole: 'member' });
      expect((await getPlan(id, colleague.token)).body.ai_plan).toMatchObject({ id, status: 'completed' });
      // Anonymous: 401 before anything else.
      expect((await call(t.app, 'GET', `/api/v1/ai-plans/${id}`)).status).toBe(401);
    });
  });

  describe('without a language model (LLM_API_URL not set)', () => {
    let bare: FastifyInstance;
    beforeAll(async () => {
      bare = await buildApp({ config: { ...t.config, llm: null }, db: t.database.db, jobs: t.app.jobs, databaseUrl: t.database.url });
      await bare.ready();
    });
    afterAll(() => bare?.close());

    it('answers 503 with a Russian message, charges nothing, and the overview says why', async () => {
      const before = await balanceOf(t.app, user.id);
      const key = randomUUID();
      const refused = await call(bare, 'POST', `/api/v1/analyses/${analysisId}/ai-plans`, { token: user.token, body: { idempotency_key: key } });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ error: aiPlanMessages.notConfigured, code: 'LLM_NOT_CONFIGURED' });
      expect(refused.body.error).toContain('языковая модель на этом сервере не настроена');
      expect(await balanceOf(t.app, user.id)).toBe(before);
      expect(await t.app.db.selectFrom('ai_plans').select('id').where('idempotency_key', '=', key).execute()).toHaveLength(0);

      const overview = await call(bare, 'GET', `/api/v1/analyses/${analysisId}/ai-plans`, { token: user.token });
      expect(overview.status).toBe(200);
      expect(overview.body).toMatchObject({ available: false, unavailable_reason: aiPlanMessages.notConfigured, price: PRICE });
    });
  });
});

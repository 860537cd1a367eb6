import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdFieldFixSuggestion, Finding, FindingItem, NegativeCategory, NegativeKeywordSuggestion } from '../../../contract/analysis-results.js';
import type { AuditResult } from '../../../contract/analysis.js';
import { RESULTS_TOTAL_CAP } from '../../../contract/analysis-pages.js';
import { defaultStorageLimits } from '../../../server/analysis/result-rows.js';
import { campaignDataOf, runAudit } from '../../../server/analysis/run-audit.js';
import { analysisLog, analysisStorageLimits, auditRunner, runAuditInWorkerThread, type AuditRunner } from '../../../server/analysis/worker.js';
import { resultSaving } from '../../../server/analysis/result-saving.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { eventsUntilDone, projectWithCampaigns, storingRunner } from './helpers.js';

const categories: NegativeCategory[] = ['free', 'informational', 'jobs', 'used', 'foreign_geo', 'competitors', 'ambiguous', 'query'];

/** A real result of the sample account, grown with aggregated findings and many negatives (what a big account gives). */
async function grownResult(input: Parameters<AuditRunner>[0], options: { aggregated: number; negatives: number }): Promise<AuditResult> {
  const result = await runAudit({ data: campaignDataOf(input), settings: input.settings, targetCpa: input.targetCpa, region: input.region });
  const base = result.scoring.findings[0]!;
  const campaign = result.scoring.campaigns[0]!.target;
  for (let n = 0; n < options.aggregated; n++) {
    const campaignIndex = n % 2;
    const items: FindingItem[] = Array.from({ length: 20 }, (_, k) => ({
      target: { level: 'keyword', key: `c${campaignIndex}g0k${k}`, campaignIndex, groupIndex: 0, keywordIndex: k, label: `фраза ${n}-${k}` },
      evidence: [{ label: 'Расход', value: 20 - k }],
      moneyPerMonth: 20 - k,
    }));
    const finding: Finding = {
      ...base,
      id: `agg-${n}`,
      checkId: n % 3 === 0 ? 'synthetic_a' : 'synthetic_b',
      severity: (['high', 'medium', 'low'] as const)[n % 3]!,
      title: n === 7 ? 'Особенная строка поиска' : `Фразы без минус-слов ${n}`,
      target: { level: 'group', key: `c${campaignIndex}g0`, campaignIndex, groupIndex: 0, campaignName: campaign.campaignName, groupName: 'Группа' },
      moneyPerMonth: 1000 + n,
      count: items.length,
      items,
    };
    result.scoring.findings.push(finding);
  }
  for (let n = 0; n < options.negatives; n++) {
    const campaignIndex = n % 2;
    const negative: NegativeKeywordSuggestion = {
      id: `neg-${n}`,
      kind: 'negative_keyword',
      level: n % 4 === 0 ? 'group' : 'campaign',
      target: n % 4 === 0 ? { level: 'group', key: `c${campaignIndex}g0`, campaignIndex, groupIndex: 0 } : { level: 'campaign', key: `c${campaignIndex}`, campaignIndex },
      text: `минус${n}`,
      category: categories[n % categories.length]!,
      status: n % 8 === 6 ? 'check_by_hand' : 'ready',
      source: 'queries',
      reason: 'Запросы без конверсий',
      queries: [{ query: `запрос минус${n}`, clicks: 3, cost: n % 1000, conversions: 0 }],
      clicks: 3,
      cost: n % 1000,
      costPerMonth: n % 1000,
      evidence: [],
    };
    result.semantic.negatives.push(negative);
    // Non-target queries this negative blocks (the decision counts sum what the accepted ones block).
    if (n === 4) result.semantic.nonTargetQueries?.blockedBy.push({ suggestionIds: [negative.id], queries: 2, clicks: 3, cost: 40 });
  }
  // An ad fix (the user may edit its text before accepting it).
  const adFix: AdFieldFixSuggestion = {
    id: 'fix-0',
    kind: 'ad_field',
    target: { level: 'ad', key: 'c0g0a0', campaignIndex: 0, groupIndex: 0, adIndex: 0 },
    field: 'headline',
    index: 0,
    before: 'Очень длинный заголовок объявления, который не помещается',
    after: 'Очень длинный заголовок',
    reason: 'Заголовок длиннее лимита',
  };
  result.scoring.suggestions.push(adFix);
  return result;
}

describe('paged results API: findings, items, suggestions, bulk decisions, semantic, scores, export from rows', () => {
  let t: TestApp;
  let user: FixtureUser;
  let project: Awaited<ReturnType<typeof projectWithCampaigns>>;
  let analysisId: string;

  const get = (path: string) => call(t.app, 'GET', `/api/v1/analyses/${analysisId}${path}`, { token: user.token });
  const startAnalysis = async () => {
    const started = await call(t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, {
      token: user.token,
      body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() },
    });
    const id = started.body.analysis.id as string;
    const events = await eventsUntilDone(t.app, user.token, id);
    return { id, analysis: events.at(-1)!.analysis };
  };

  beforeAll(async () => {
    t = await createTestApp({ jobQueue: { runWorkers: true } });
    user = await createUser(t.app, { balance: 100_000 });
    project = await projectWithCampaigns(t.app, user);
    auditRunner.run = storingRunner((input) => grownResult(input, { aggregated: 120, negatives: 3000 }));
    const { id, analysis } = await startAnalysis();
    expect(analysis.status).toBe('completed');
    analysisId = id;
  });
  afterAll(async () => t.close());
  afterEach(() => {
    auditRunner.run = runAuditInWorkerThread;
    Object.assign(analysisStorageLimits, defaultStorageLimits);
  });

  it('answers the results with the small summary, the first findings page by money and the decision counts', async () => {
    const results = await get('/results');
    expect(results.status).toBe(200);
    const { summary, findings, decisions } = results.body;
    expect(JSON.stringify(summary).length).toBeLessThan(100_000);
    expect(summary.suggestions.total).toBeGreaterThanOrEqual(3000);
    expect(summary.byCheck.find((check: { checkId: string }) => check.checkId === 'synthetic_a')).toMatchObject({ findings: 40, entities: 800 });
    expect(findings).toMatchObject({ page: 1, page_size: 50, total: summary.findingsTotal });
    expect(findings.items).toHaveLength(50);
    const money = findings.items.map((f: Finding) => f.moneyPerMonth ?? 0);
    expect(money).toEqual([...money].sort((a, b) => b - a));
    expect(findings.items[0]).toMatchObject({ id: 'agg-119', count: 20 });
    expect(findings.items[0].items).toHaveLength(5);
    expect(decisions).toEqual({ accepted: 0, rejected: 0, blockedQueries: expect.anything() });
  });

  it('pages findings and filters them by severity, check, campaign, group and text; sorts by severity', async () => {
    const page1 = await get('/findings?page_size=30');
    const page2 = await get('/findings?page_size=30&page=2');
    expect(page1.body.items).toHaveLength(30);
    const ids = new Set(page1.body.items.map((f: Finding) => f.id));
    expect(page2.body.items.some((f: Finding) => ids.has(f.id))).toBe(false);
    expect((await get('/findings?page_size=501')).status).toBe(422);
    expect((await get('/findings?page_size=500')).status).toBe(200);

    const high = await get('/findings?severity=high&check=synthetic_a&check=synthetic_b&page_size=500');
    expect(high.body.total).toBe(40);
    expect(high.body.items.every((f: Finding) => f.severity === 'high')).toBe(true);
    const both = await get('/findings?check=synthetic_a,synthetic_b');
    expect(both.body.total).toBe(120);
    const campaign = await get('/findings?campaign=c1&check=synthetic_a&check=synthetic_b');
    expect(campaign.body.total).toBe(60);
    const group = await get('/findings?group=c0g0&check=synthetic_b&page_size=500');
    expect(group.body.items.every((f: Finding) => f.target.key === 'c0g0' && f.checkId === 'synthetic_b')).toBe(true);
    const text = await get(`/findings?text=${encodeURIComponent('ОСОБЕННАЯ строка')}`);
    expect(text.body.items.map((f: Finding) => f.id)).toEqual(['agg-7']);
    const byItemLabel = await get(`/findings?text=${encodeURIComponent('фраза 12-3')}`);
    expect(byItemLabel.body.items.map((f: Finding) => f.id)).toContain('agg-12');

    const bySeverity = await get('/findings?sort=severity&page_size=500');
    const ranks = bySeverity.body.items.map((f: Finding) => ({ high: 0, medium: 1, low: 2 })[f.severity]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect((await get('/findings?severity=urgent')).status).toBe(422);
    expect((await get('/findings?campaign=zzz')).status).toBe(422);
  });

  it('pages the items of an aggregated finding, worst first; an unknown finding is 404', async () => {
    const first = await get('/findings/agg-3/items?page_size=8');
    expect(first.body).toMatchObject({ total: 20, page: 1, page_size: 8 });
    expect(first.body.items.map((i: FindingItem) => i.moneyPerMonth)).toEqual([20, 19, 18, 17, 16, 15, 14, 13]);
    const last = await get('/findings/agg-3/items?page_size=8&page=3');
    expect(last.body.items).toHaveLength(4);
    const missing = await get('/findings/no-such/items');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('FINDING_NOT_FOUND');
  });

  it('pages suggestions by money and filters them by kind, category, status, campaign, group, text and decision', async () => {
    const all = await get('/suggestions?kind=negative_keyword&page_size=500');
    expect(all.body.total).toBeGreaterThanOrEqual(3000);
    const money = all.body.items.map((s: NegativeKeywordSuggestion) => s.costPerMonth);
    expect(money).toEqual([...money].sort((a, b) => b - a));
    expect(all.body.items[0]).toMatchObject({ decision: null });

    const jobs = await get('/suggestions?category=jobs&page_size=500');
    expect(jobs.body.items.every((s: NegativeKeywordSuggestion) => s.category === 'jobs')).toBe(true);
    expect(jobs.body.total).toBeGreaterThanOrEqual(375);
    const byHand = await get('/suggestions?status=check_by_hand');
    expect(byHand.body.total).toBeGreaterThanOrEqual(375);
    const group = await get('/suggestions?group=c0g0&kind=negative_keyword');
    expect(group.body.total).toBeGreaterThanOrEqual(750);
    const campaign = await get('/suggestions?campaign=c0&kind=negative_keyword');
    expect(campaign.body.total).toBeGreaterThanOrEqual(1500);
    const text = await get(`/suggestions?text=${encodeURIComponent('минус2999')}`);
    expect(text.body.items.map((s: { id: string }) => s.id)).toEqual(['neg-2999']);
    expect((await get('/suggestions?kind=bogus')).status).toBe(422);
  });

  it('decides in bulk by filter: one request, idempotent, undecided clears, counts follow', async () => {
    const jobsTotal = (await get('/suggestions?category=jobs')).body.total as number;
    const freeTotal = (await get('/suggestions?category=free')).body.total as number;
    const negativesTotal = (await get('/suggestions?kind=negative_keyword')).body.total as number;
    const accept = await call(t.app, 'POST', `/api/v1/analyses/${analysisId}/decisions/bulk`, {
      token: user.token,
      body: { filter: { category: ['jobs'], kind: 'negative_keyword' }, decision: 'accepted' },
    });
    expect(accept.status).toBe(200);
    expect(accept.body).toEqual({ updated: jobsTotal, accepted: jobsTotal, rejected: 0 });
    const again = await call(t.app, 'POST', `/api/v1/analyses/${analysisId}/decisions/bulk`, {
      token: user.token,
      body: { filter: { category: 'jobs' }, decision: 'accepted' },
    });
    expect(again.body).toEqual({ updated: jobsTotal, accepted: jobsTotal, rejected: 0 });

    const reject = await call(t.app, 'POST', `/api/v1/analyses/${analysisId}/decisions/bulk`, {
      token: user.token,
      body: { filter: { category: ['free'], decision: ['undecided'] }, decision: 'rejected' },
    });
    expect(reject.body).toMatchObject({ updated: freeTotal, accepted: jobsTotal, rejected: freeTotal });
    const accepted = await get('/suggestions?decision=accepted&page_size=500');
    expect(accepted.body.total).toBe(jobsTotal);
    expect(accepted.body.items.every((s: { decision: string; category: string }) => s.decision === 'accepted' && s.category === 'jobs')).toBe(true);
    expect((await get('/suggestions?decision=undecided&kind=negative_keyword')).body.total).toBe(negativesTotal - jobsTotal - freeTotal);

    const clear = await call(t.app, 'POST', `/api/v1/analyses/${analysisId}/decisions/bulk`, {
      token: user.token,
      body: { filter: { category: 'free' }, decision: 'undecided' },
    });
    expect(clear.body).toMatchObject({ updated: freeTotal, accepted: jobsTotal, rejected: 0 });
    expect((await get('/results')).body.decisions).toMatchObject({ accepted: jobsTotal, rejected: 0 });

    const bad = await call(t.app, 'POST', `/api/v1/analyses/${analysisId}/decisions/bulk`, { token: user.token, body: { filter: {}, decision: 'maybe' } });
    expect(bad.status).toBe(422);
  });

  it('exports the accepted changes read from the rows', async () => {
    const csv = await call(t.app, 'GET', `/api/v1/analyses/${analysisId}/export?format=csv`, { token: user.token });
    expect(csv.status).toBe(200);
    expect(String(csv.body)).toContain('минус2'); // a jobs negative (n % 8 === 2)
    expect(String(csv.body)).not.toContain('минус0;');
  });

  it('changes single decisions with PATCH: value on accepted ad fixes only, undecided clears, idempotent, unknown ids 422', async () => {
    const patch = (changes: unknown) => call(t.app, 'PATCH', `/api/v1/analyses/${analysisId}/decisions`, { token: user.token, body: { changes } });
    const decisionOf = async (id: string) => {
      const row = await t.app.db.selectFrom('analysis_decisions').select(['decision', 'value']).where('analysis_id', '=', analysisId).where('suggestion_id', '=', id).executeTakeFirst();
      return row ?? null;
    };
    const before = (await get('/results')).body.decisions as { accepted: number; rejected: number };
    const fix = (await get('/suggestions?kind=ad_field')).body.items[0] as { id: string };
    expect(fix).toBeDefined();

    // One accepted negative (its value is ignored), one rejected, one ad fix accepted with its edited text.
    const changed = await patch([
      { id: 'neg-1', decision: 'accepted', value: 'ignored on a negative' },
      { id: 'neg-3', decision: 'rejected' },
      { id: fix.id, decision: 'accepted', value: 'Исправленный заголовок' },
    ]);
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ accepted: before.accepted + 2, rejected: before.rejected + 1 });
    expect(await decisionOf('neg-1')).toEqual({ decision: 'accepted', value: null });
    expect(await decisionOf('neg-3')).toEqual({ decision: 'rejected', value: null });
    expect(await decisionOf(fix.id)).toEqual({ decision: 'accepted', value: 'Исправленный заголовок' });
    const shown = (await get(`/suggestions?kind=ad_field&decision=accepted`)).body.items.find((item: { id: string }) => item.id === fix.id);
    expect(shown).toMatchObject({ decision: 'accepted', value: 'Исправленный заголовок' });

    // The same request again: the same rows, the same counts.
    const again = await patch([
      { id: 'neg-1', decision: 'accepted' },
      { id: 'neg-3', decision: 'rejected' },
      { id: fix.id, decision: 'accepted', value: 'Исправленный заголовок' },
    ]);
    expect(again.body).toEqual(changed.body);
    // Accepted again without a value: the edited text stays; rejected: it is cleared.
    await patch([{ id: fix.id, decision: 'accepted' }]);
    expect(await decisionOf(fix.id)).toEqual({ decision: 'accepted', value: 'Исправленный заголовок' });
    await patch([{ id: fix.id, decision: 'rejected', value: 'Не сохранится' }]);
    expect(await decisionOf(fix.id)).toEqual({ decision: 'rejected', value: null });

    // Undecided removes the rows; other decisions (the bulk-accepted jobs) stay.
    const cleared = await patch([{ id: 'neg-1', decision: 'undecided' }, { id: 'neg-3', decision: 'undecided' }, { id: fix.id, decision: 'undecided' }]);
    expect(cleared.body).toEqual({ accepted: before.accepted, rejected: before.rejected });
    expect(await decisionOf('neg-1')).toBeNull();
    expect((await get('/results')).body.decisions).toMatchObject(before);

    // Unknown ids: 422 in Russian, nothing written.
    const unknown = await patch([{ id: 'neg-5', decision: 'accepted' }, { id: 'no-such', decision: 'accepted' }]);
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toEqual({ loc: ['body', 'changes'], msg: 'Предложения не найдены в результатах анализа: no-such' });
    expect(await decisionOf('neg-5')).toBeNull();

    for (const bad of [[], Array.from({ length: 501 }, () => ({ id: 'neg-5', decision: 'accepted' })), [{ id: 'neg-5', decision: 'maybe' }], [{ id: 'neg-5\u0000', decision: 'accepted' }], 'all']) {
      const answer = await patch(bad);
      expect(answer.status, JSON.stringify(bad).slice(0, 60)).toBe(422);
      expect(answer.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await get('/results')).body.decisions).toMatchObject(before);
  });

  it('the decision counts of GET /results, stored between writes, follow every kind of write', async () => {
    auditRunner.run = storingRunner((input) => grownResult(input, { aggregated: 0, negatives: 400 }));
    const { id } = await startAnalysis();
    const url = `/api/v1/analyses/${id}`;
    const send = (method: 'POST' | 'PATCH' | 'PUT', path: string, body: unknown) => call(t.app, method, `${url}${path}`, { token: user.token, body });
    const counts = async () => (await call(t.app, 'GET', `${url}/results`, { token: user.token })).body.decisions;
    const negatives = (await call(t.app, 'GET', `${url}/suggestions?kind=negative_keyword&page_size=1`, { token: user.token })).body.total as number;
    const none = await counts();
    expect(none).toMatchObject({ accepted: 0, rejected: 0, blockedQueries: { queries: 0 } });
    expect(await counts()).toEqual(none);

    // A bulk accept: its answer and the next GET /results agree, the blocked queries included.
    expect((await send('POST', '/decisions/bulk', { filter: { kind: 'negative_keyword' }, decision: 'accepted' })).body).toMatchObject({ updated: negatives, accepted: negatives });
    const accepted = await counts();
    expect(accepted).toMatchObject({ accepted: negatives, rejected: 0, blockedQueries: { queries: 2, clicks: 3, cost: 40 } });
    // Clicks: reject the blocking negative, undo another.
    expect((await send('PATCH', '/decisions', { changes: [{ id: 'neg-4', decision: 'rejected' }, { id: 'neg-2', decision: 'undecided' }] })).status).toBe(200);
    expect(await counts()).toMatchObject({ accepted: negatives - 2, rejected: 1, blockedQueries: { queries: 0 } });
    // Bulk undo of the rejected, then PUT replaces the whole choice, then clears it.
    expect((await send('POST', '/decisions/bulk', { filter: { decision: 'rejected' }, decision: 'undecided' })).body).toMatchObject({ updated: 1, rejected: 0 });
    expect(await counts()).toMatchObject({ accepted: negatives - 2, rejected: 0 });
    expect((await send('PUT', '/decisions', { accepted: ['neg-4'], rejected: ['neg-6'] })).status).toBe(200);
    expect(await counts()).toMatchObject({ accepted: 1, rejected: 1, blockedQueries: { queries: 2 } });
    expect((await send('PUT', '/decisions', { accepted: [], rejected: [] })).status).toBe(200);
    expect(await counts()).toEqual(none);
  });

  it('a click moves the stored decision counts and decided positions by what it changed, a bulk decision and a PUT keep them, each to what counting again gives', async () => {
    // Negatives whose query blocks overlap (a row blocked by two or three of them), one id with the
    // characters JSON and LIKE escape, and an ad fix (a click that blocks nothing).
    const tricky = 'neg-"кв\\_%';
    auditRunner.run = storingRunner(async (input) => {
      const result = await grownResult(input, { aggregated: 0, negatives: 8 });
      const model = result.semantic.negatives[0]!;
      result.semantic.negatives.push({ ...model, id: tricky, text: 'кв' });
      result.semantic.nonTargetQueries!.monthFactor = 1.5;
      result.semantic.nonTargetQueries!.blockedBy = [
        { suggestionIds: ['neg-1'], queries: 5, clicks: 10, cost: 100.25 },
        { suggestionIds: ['neg-1', 'neg-2'], queries: 3, clicks: 6, cost: 60.1 },
        { suggestionIds: ['neg-2'], queries: 1, clicks: 2, cost: 20.05 },
        { suggestionIds: ['neg-3', 'neg-4', 'neg-5'], queries: 2, clicks: 2, cost: 33.33 },
        { suggestionIds: ['neg-5', tricky], queries: 7, clicks: 9, cost: 0.07 },
        { suggestionIds: [tricky], queries: 1, clicks: 1, cost: 1.01 },
      ];
      return result;
    });
    const { id } = await startAnalysis();
    const url = `/api/v1/analyses/${id}`;
    const adFix = (await call(t.app, 'GET', `${url}/suggestions?kind=ad_field&page_size=1`, { token: user.token })).body.items[0].id as string;
    const stored = async () => (await sql<{ counts: unknown }>`SELECT decision_counts AS counts FROM analyses WHERE id = ${id}`.execute(t.app.db)).rows[0]!.counts;
    const countedAgain = async () => {
      await sql`UPDATE analyses SET decision_counts = NULL WHERE id = ${id}`.execute(t.app.db);
      return (await call(t.app, 'GET', `${url}/results`, { token: user.token })).body.decisions;
    };
    // The counts become known (the first GET /results counts them).
    expect((await call(t.app, 'GET', `${url}/results`, { token: user.token })).body.decisions).toMatchObject({ accepted: 0, blockedQueries: { queries: 0 } });

    const clicks: { id: string; decision: string }[][] = [
      [{ id: 'neg-1', decision: 'accepted' }],
      [{ id: 'neg-2', decision: 'accepted' }],
      [{ id: 'neg-1', decision: 'rejected' }],
      [{ id: 'neg-1', decision: 'rejected' }],
      [{ id: 'neg-2', decision: 'undecided' }, { id: 'neg-3', decision: 'accepted' }, { id: 'neg-5', decision: 'accepted' }],
      [{ id: tricky, decision: 'accepted' }],
      [{ id: 'neg-5', decision: 'rejected' }, { id: adFix, decision: 'accepted' }],
      [{ id: 'neg-3', decision: 'undecided' }, { id: 'neg-4', decision: 'accepted' }, { id: 'neg-4', decision: 'rejected' }],
      [{ id: tricky, decision: 'undecided' }, { id: 'neg-1', decision: 'accepted' }],
    ];
    // The undecided filter reads the decided positions (bits on the analysis, migration 0112): its page
    // must be the unfiltered list's undecided rows, in the same order, whatever wrote the decisions.
    // Both kinds of bits (decided 0112, accepted 0175), null when either is not known.
    const decidedBits = async () => {
      const row = (await sql<{ decided: Buffer | null; accepted: Buffer | null }>`SELECT decided_positions AS decided, accepted_positions AS accepted FROM analyses WHERE id = ${id}`.execute(t.app.db)).rows[0]!;
      return row.decided && row.accepted ? row : null;
    };
    // Every decision filter lists the unfiltered list's rows of that decision, in order: read along the
    // bits, or (decided ones only, with the stored counts saying there are few or none) from the decisions;
    // so each is asked both with the counts as stored and with them not known (the bits alone).
    const undecidedAsListed = async () => {
      const kept = (await sql<{ counts: unknown }>`SELECT decision_counts AS counts FROM analyses WHERE id = ${id}`.execute(t.app.db)).rows[0]!.counts;
      await decisionFiltersAsListed();
      await sql`UPDATE analyses SET decision_counts = NULL WHERE id = ${id}`.execute(t.app.db);
      await decisionFiltersAsListed();
      await sql`UPDATE analyses SET decision_counts = ${kept === null ? null : JSON.stringify(kept)}::jsonb WHERE id = ${id}`.execute(t.app.db);
    };
    const decisionFiltersAsListed = async () => {
      const all = (await call(t.app, 'GET', `${url}/suggestions?page_size=500`, { token: user.token })).body.items as { id: string; kind: string; decision: string | null }[];
      for (const [query, wanted] of [
        ['decision=undecided', [null]],
        ['decision=accepted', ['accepted']],
        ['decision=rejected', ['rejected']],
        ['decision=accepted&decision=rejected', ['accepted', 'rejected']],
        ['decision=rejected&decision=undecided', ['rejected', null]],
        ['kind=negative_keyword&decision=accepted', ['accepted']],
      ] as const) {
        const expected = all.filter((item) => (wanted as readonly (string | null)[]).includes(item.decision) && (!query.startsWith('kind') || item.kind === 'negative_keyword'));
        const page = (await call(t.app, 'GET', `${url}/suggestions?${query}&page_size=500`, { token: user.token })).body;
        expect(page.items.map((item: { id: string }) => item.id), query).toEqual(expected.map((item) => item.id));
        expect(page.total, query).toBe(expected.length);
      }
    };
    await undecidedAsListed();
    expect(await decidedBits()).not.toBeNull();

    for (const changes of clicks) {
      const answer = await call(t.app, 'PATCH', `${url}/decisions`, { token: user.token, body: { changes } });
      expect(answer.status).toBe(200);
      // A click keeps the decided positions (marks its suggestions), so the filter never counts them again.
      expect(await decidedBits()).not.toBeNull();
      await undecidedAsListed();
      // The click stored the counts it moved (the next GET /results counts nothing) ...
      const moved = await stored();
      expect(moved, JSON.stringify(changes)).not.toBeNull();
      expect((await call(t.app, 'GET', `${url}/results`, { token: user.token })).body.decisions).toEqual(moved);
      expect(answer.body).toEqual({ accepted: (moved as { accepted: number }).accepted, rejected: (moved as { rejected: number }).rejected });
      // ... and they are what counting every decision and block again gives.
      expect(moved, JSON.stringify(changes)).toEqual(await countedAgain());
    }
    // Where the clicks ended: neg-1 accepted blocks its two blocks; neg-5 rejected; neg-4 rejected.
    expect(await countedAgain()).toEqual({ accepted: 2, rejected: 2, blockedQueries: { queries: 8, clicks: 16, cost: 160.35, costPerMonth: 240.53 } });

    // A bulk decision and a PUT keep the decision bits and the counts in their own transaction (no read
    // after them counts anything; a bulk of a few moves the counts by what it changed, as a click does),
    // and both are what computing them again from the decisions gives.
    const bitsComputedAgain = async () => {
      await sql`UPDATE analyses SET decided_positions = NULL, accepted_positions = NULL WHERE id = ${id}`.execute(t.app.db);
      await undecidedAsListed();
      return decidedBits();
    };
    const writes: ['POST' | 'PUT', string, unknown][] = [
      ['POST', '/decisions/bulk', { filter: { kind: 'negative_keyword', decision: 'undecided' }, decision: 'accepted' }],
      ['POST', '/decisions/bulk', { filter: { kind: 'negative_keyword' }, decision: 'rejected' }],
      ['POST', '/decisions/bulk', { filter: { decision: 'rejected', text: 'кв' }, decision: 'undecided' }],
      ['POST', '/decisions/bulk', { filter: { kind: 'negative_keyword' }, decision: 'accepted' }],
      ['POST', '/decisions/bulk', { filter: { kind: 'negative_keyword' }, decision: 'accepted' }],
      ['POST', '/decisions/bulk', { filter: {}, decision: 'undecided' }],
      ['PUT', '/decisions', { accepted: ['neg-6', 'neg-1'], rejected: [adFix] }],
      ['POST', '/decisions/bulk', { filter: { kind: 'ad_field' }, decision: 'undecided' }],
      ['PUT', '/decisions', { accepted: [], rejected: [] }],
    ];
    for (const [i, [method, path, body]] of writes.entries()) {
      // Every other write finds the counts not known: a bulk of a few suggestions then counts them all
      // again instead of moving them by what it changed; both must store the same.
      if (i % 2 === 1) await sql`UPDATE analyses SET decision_counts = NULL WHERE id = ${id}`.execute(t.app.db);
      const answer = await call(t.app, method, `${url}${path}`, { token: user.token, body });
      expect(answer.status, JSON.stringify(body)).toBe(200);
      const bits = await decidedBits();
      const counts = await stored();
      expect(bits, JSON.stringify(body)).not.toBeNull();
      expect(counts, JSON.stringify(body)).not.toBeNull();
      await undecidedAsListed();
      expect((await call(t.app, 'GET', `${url}/results`, { token: user.token })).body.decisions).toEqual(counts);
      if (method === 'POST') expect(answer.body).toMatchObject({ accepted: (counts as { accepted: number }).accepted, rejected: (counts as { rejected: number }).rejected });
      expect(counts, JSON.stringify(body)).toEqual(await countedAgain());
      expect(bits, JSON.stringify(body)).toEqual(await bitsComputedAgain());
    }
    expect(await stored()).toEqual({ accepted: 0, rejected: 0, blockedQueries: { queries: 0, clicks: 0, cost: 0, costPerMonth: 0 } });
  });

  it('pages the semantic sections and the scores', async () => {
    const relevance = await get('/semantic/relevance?page_size=1');
    expect(relevance.status).toBe(200);
    expect(relevance.body.items.length).toBeLessThanOrEqual(1);
    expect((await get('/semantic/keyword_verdicts')).body.total).toBeGreaterThan(0);
    expect((await get('/semantic/nonsense')).status).toBe(422);
    const keywords = await get('/scores?level=keyword&page_size=500');
    const scores = keywords.body.items.map((s: { score: number }) => s.score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    const byMoney = await get('/scores?level=campaign&sort=money');
    expect(byMoney.body.total).toBe(2);
  });

  it('decides on 100 000 suggestions in one bulk request and exports them', async () => {
    auditRunner.run = storingRunner((input) => grownResult(input, { aggregated: 0, negatives: 100_000 }));
    const { id, analysis } = await startAnalysis();
    expect(analysis.status).toBe('completed');
    const results = await call(t.app, 'GET', `/api/v1/analyses/${id}/results`, { token: user.token });
    expect(Buffer.byteLength(JSON.stringify(results.body.summary))).toBeLessThan(100_000);
    const bulk = await call(t.app, 'POST', `/api/v1/analyses/${id}/decisions/bulk`, {
      token: user.token,
      body: { filter: { kind: 'negative_keyword' }, decision: 'accepted' },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.updated).toBeGreaterThanOrEqual(100_000);
    expect(bulk.body.accepted).toBe(bulk.body.updated);
    // Past RESULTS_TOTAL_CAP the lists stop counting: «более 10 000», and the pages go on while they are full.
    const page = (query: string) => call(t.app, 'GET', `/api/v1/analyses/${id}/suggestions?${query}`, { token: user.token });
    const accepted = await page('decision=accepted&kind=negative_keyword&page_size=500&page=30');
    expect(accepted.body).toMatchObject({ total: RESULTS_TOTAL_CAP, total_capped: true, page: 30 });
    expect(accepted.body.items).toHaveLength(500);
    expect(accepted.body.items.every((s: { decision: string }) => s.decision === 'accepted')).toBe(true);
    // The last page (not full) tells the exact total, past the cap too.
    const negatives = bulk.body.updated as number;
    const size = negatives % 500 === 0 ? 300 : 500;
    const last = await page(`decision=accepted&kind=negative_keyword&page_size=${size}&page=${Math.floor(negatives / size) + 1}`);
    expect(last.body).toMatchObject({ total: negatives, total_capped: false });
    expect(last.body.items).toHaveLength(negatives % size);
    expect((await page('decision=undecided&kind=negative_keyword')).body).toMatchObject({ total: 0, total_capped: false, items: [] });
    expect((await page('decision=undecided')).body).toMatchObject({ total: results.body.summary.suggestions.total - bulk.body.updated, total_capped: false });
    expect((await page(`text=${encodeURIComponent('минус9999')}`)).body).toMatchObject({ total: 11, total_capped: false });
    expect((await page('kind=negative_keyword&decision=accepted&decision=rejected')).body).toMatchObject({ total: RESULTS_TOTAL_CAP, total_capped: true });
    expect((await page('kind=negative_keyword&decision=rejected&decision=undecided')).body).toMatchObject({ total: 0, total_capped: false });
    expect((await call(t.app, 'GET', `/api/v1/analyses/${id}/results`, { token: user.token })).body.decisions).toMatchObject({ accepted: bulk.body.updated, rejected: 0 });
    const csv = await call(t.app, 'GET', `/api/v1/analyses/${id}/export?format=csv`, { token: user.token });
    expect(csv.status).toBe(200);
    expect(String(csv.body)).toContain('минус99999');
  }, 120_000);

  it('a save PostgreSQL refuses halfway leaves nothing: the batches already copied roll back with it', async () => {
    // Small batches, so many are copied before the one PostgreSQL refuses (jsonb takes no \u0000).
    analysisStorageLimits.batchRows = 50;
    auditRunner.run = storingRunner(async (input) => {
      const result = await grownResult(input, { aggregated: 10, negatives: 500 });
      const last = result.semantic.negatives.at(-1)!;
      last.reason = 'плохой \u0000 символ';
      return result;
    });
    const { id, analysis } = await startAnalysis();
    expect(analysis).toMatchObject({ status: 'failed', error_code: 'DB_ERROR' });
    for (const table of ['analysis_findings', 'analysis_finding_items', 'analysis_suggestions', 'analysis_scores', 'analysis_semantic'] as const) {
      const rows = await t.app.db.selectFrom(table).select(t.app.db.fn.countAll<number>().as('n')).where('analysis_id', '=', id).executeTakeFirstOrThrow();
      expect(Number(rows.n), table).toBe(0);
    }
    // The saving connection went back to the pool in a usable state: the next analysis is stored.
    auditRunner.run = storingRunner((input) => grownResult(input, { aggregated: 10, negatives: 500 }));
    const next = await startAnalysis();
    expect(next.analysis.status).toBe('completed');
    expect((await call(t.app, 'GET', `/api/v1/analyses/${next.id}/suggestions?page_size=1`, { token: user.token })).body.total).toBeGreaterThanOrEqual(500);
  });

  it('a result whose rows repeat a key fails with DB_ERROR and leaves nothing, whichever connections copied the two rows', async () => {
    // Two connections copy at once (result-saving.ts): the second row of a key copied by the other one
    // waits for that transaction, which only ends after every write; the lock limit turns that into a failure.
    analysisStorageLimits.batchRows = 50;
    const lockTimeout = resultSaving.lockTimeoutMs;
    resultSaving.lockTimeoutMs = 500;
    auditRunner.run = storingRunner(async (input) => {
      const result = await grownResult(input, { aggregated: 0, negatives: 400 });
      result.semantic.negatives.at(-1)!.id = result.semantic.negatives[0]!.id;
      return result;
    });
    try {
      const { id, analysis } = await startAnalysis();
      expect(analysis).toMatchObject({ status: 'failed', error_code: 'DB_ERROR' });
      const rows = await t.app.db.selectFrom('analysis_suggestions').select(t.app.db.fn.countAll<number>().as('n')).where('analysis_id', '=', id).executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(0);
    } finally {
      resultSaving.lockTimeoutMs = lockTimeout;
    }
  });

  it('a result too large to store fails once with RESULT_TOO_LARGE, logged with its stack, and is refunded', async () => {
    const logged: { obj: Record<string, unknown>; msg: string }[] = [];
    const previous = analysisLog.logger;
    analysisLog.logger = { error: (obj: object, msg?: string) => logged.push({ obj: obj as Record<string, unknown>, msg: msg ?? '' }), warn: () => undefined, info: () => undefined } as never;
    analysisStorageLimits.maxResultChars = 2_000;
    let runs = 0;
    auditRunner.run = async (...args) => {
      runs++;
      return runAuditInWorkerThread(...args);
    };
    try {
      const { id, analysis } = await startAnalysis();
      expect(analysis).toMatchObject({ status: 'failed', error_code: 'RESULT_TOO_LARGE' });
      expect(runs).toBe(1);
      const failure = logged.find((entry) => entry.obj.analysisId === id);
      expect(failure).toMatchObject({ msg: 'analysis run failed', obj: { errorCode: 'RESULT_TOO_LARGE' } });
      expect(String((failure!.obj.err as Error).stack ?? '')).toMatch(/ResultTooLargeError[\s\S]*result-rows/);
      // Nothing of it was stored: the rows and the completion are one transaction.
      const rows = await t.app.db.selectFrom('analysis_findings').select(t.app.db.fn.countAll<number>().as('n')).where('analysis_id', '=', id).executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(0);
      const ledger = await t.app.db.selectFrom('token_ledger').select('type').where('reference_id', '=', id).execute();
      expect(ledger.map((e) => e.type).sort()).toEqual(['analysis_debit', 'analysis_refund']);
      // pg-boss does not retry it: the job completed (the failure is the analysis's, not the job's).
      const job = await t.app.db.selectFrom('analyses').select('attempts').where('id', '=', id).executeTakeFirstOrThrow();
      expect(job.attempts).toBe(1);
    } finally {
      analysisLog.logger = previous;
    }
  });
});


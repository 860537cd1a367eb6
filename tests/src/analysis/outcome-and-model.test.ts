import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotifications, notificationStore, notificationsAtom } from '../../../src/features/notifications/notifications';
import { BACKGROUND_POLL_MS, failureMessage, reportOutcome, resumeTracking, stopTracking, trackInBackground } from '../../../src/features/analysis/outcome';
import { acceptedSummary, actionPlan, decide, nonTargetQueriesCoveredBy, nonTargetQueriesOf, suggestionSections, type NegativesPlanStep, type PlanStep } from '../../../src/features/analysis/result-model';
import { server, useTestServer } from '../lib/test-server';
import { analysisId, auditResult, makeAnalysis } from './fixtures';

useTestServer();

const notifications = () => notificationStore.get(notificationsAtom);

beforeEach(() => {
  clearNotifications();
  localStorage.setItem('access_token', 'access-1');
});

afterEach(() => {
  stopTracking(analysisId);
  vi.useRealTimers();
});

describe('finish notifications', () => {
  it('notifies once per analysis, and only for a run seen running on this device', () => {
    expect(reportOutcome(makeAnalysis({ status: 'completed', score: 80 }))).toBe(false);
    expect(reportOutcome(makeAnalysis({ status: 'running' }))).toBe(false);
    expect(reportOutcome(makeAnalysis({ status: 'completed', score: 80 }))).toBe(true);
    expect(reportOutcome(makeAnalysis({ status: 'completed', score: 80 }))).toBe(false);
    expect(notifications()).toHaveLength(1);
  });

  it('does not notify for a run the user cancelled', () => {
    reportOutcome(makeAnalysis({ status: 'running' }));
    expect(reportOutcome(makeAnalysis({ status: 'cancelled' }))).toBe(false);
    expect(notifications()).toHaveLength(0);
  });

  it('says the tokens went back without repeating it when the server already did', () => {
    expect(failureMessage({ error: null })).toBe('Не удалось выполнить анализ. Токены возвращены на баланс');
    expect(failureMessage({ error: 'Анализ выполнялся слишком долго и был остановлен. Токены возвращены на баланс' })).toBe(
      'Анализ выполнялся слишком долго и был остановлен. Токены возвращены на баланс',
    );
  });

  it('keeps watching a started run in the background and notifies when it fails', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status: 'running' | 'failed' = 'running';
    server.use(http.get(`/api/v1/analyses/${analysisId}`, () => HttpResponse.json({ analysis: makeAnalysis({ status, error: status === 'failed' ? 'Ошибка движка' : null }) })));
    trackInBackground(analysisId);
    await vi.advanceTimersByTimeAsync(BACKGROUND_POLL_MS);
    expect(notifications()).toHaveLength(0);
    status = 'failed';
    await vi.advanceTimersByTimeAsync(BACKGROUND_POLL_MS);
    await vi.waitFor(() => expect(notifications()).toEqual([expect.objectContaining({ title: 'Анализ не выполнен', message: 'Ошибка движка. Токены возвращены на баланс' })]));
  });
});

describe('finish notifications after a reload', () => {
  it('watches again the runs seen running before the reload, and only those', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const finishedId = '00000000-0000-4000-8000-00000000aaaa';
    // What the previous page left in storage: one run seen running, one already reported.
    localStorage.setItem('analysis_outcomes', JSON.stringify({ [analysisId]: 'running', [finishedId]: 'reported' }));
    const asked: string[] = [];
    server.use(
      http.get('/api/v1/analyses/:id', ({ params }) => {
        asked.push(String(params.id));
        return HttpResponse.json({ analysis: makeAnalysis({ id: String(params.id), status: 'completed', score: 71 }) });
      }),
    );
    resumeTracking();
    resumeTracking();
    await vi.advanceTimersByTimeAsync(BACKGROUND_POLL_MS);
    await vi.waitFor(() => expect(notifications()).toEqual([expect.objectContaining({ title: 'Анализ завершён', message: 'Результаты аудита готовы. Оценка аккаунта: 71 из 100.' })]));
    expect(asked).toEqual([analysisId]);
    await vi.advanceTimersByTimeAsync(BACKGROUND_POLL_MS);
    expect(asked).toEqual([analysisId]);
    expect(notifications()).toHaveLength(1);
  });
});

describe('result model', () => {
  it('moves an id between accepted and rejected without duplicates, and clears it', () => {
    const start = { accepted: ['a'], rejected: ['b'] };
    expect(decide(start, ['b'], 'accepted')).toEqual({ accepted: ['a', 'b'], rejected: [] });
    expect(decide(start, ['a', 'c'], 'rejected')).toEqual({ accepted: [], rejected: ['b', 'a', 'c'] });
    expect(decide(start, ['a'], null)).toEqual({ accepted: [], rejected: ['b'] });
  });

  it('never offers bulk acceptance of check-by-hand negatives', () => {
    const sections = suggestionSections(auditResult);
    expect(sections.map((section) => [section.id, section.items.map((item) => item.id), section.bulk])).toEqual([
      ['campaign-negatives', ['s-free', 's-jobs'], true],
      ['group-negatives', ['s-query'], true],
      ['check-by-hand', ['s-reviews'], false],
      ['cross-minus', ['s-cross'], true],
      ['ad-fixes', ['s-ad'], true],
    ]);
  });

  it('sums what the accepted suggestions change and save', () => {
    expect(acceptedSummary(auditResult, { accepted: ['s-free', 's-jobs', 's-ad'], rejected: [] })).toEqual({
      negatives: 2,
      crossMinus: 0,
      adFixes: 1,
      total: 3,
      // The query blocked by both «бесплатно» and «вакансии» counts once: (900 + 310 + 300) × 30 / 31.
      savingsPerMonth: 1461.29,
    });
  });

  it('covers the non-target queries of the chosen negatives, each query once, and not those of check-by-hand ones', () => {
    const summary = nonTargetQueriesOf(auditResult)!;
    expect(nonTargetQueriesCoveredBy(summary, ['s-free'])).toEqual({ queries: 2, cost: 1210, costPerMonth: 1170.97 });
    expect(nonTargetQueriesCoveredBy(summary, ['s-free', 's-jobs'])).toEqual({ queries: 3, cost: 1510, costPerMonth: 1461.29 });
    // Everything automatic accepted: the engine's own total.
    expect(nonTargetQueriesCoveredBy(summary, ['s-free', 's-jobs', 's-query', 's-reviews', 's-cross'])).toEqual({ queries: 4, cost: 1960, costPerMonth: summary.costPerMonth });
    expect(nonTargetQueriesCoveredBy(summary, ['s-reviews'])).toEqual({ queries: 0, cost: 0, costPerMonth: 0 });
  });

  it('reads a result stored before the query figure existed without inventing one', () => {
    const { nonTargetQueries: _absent, ...semantic } = auditResult.semantic;
    const older = { ...auditResult, semantic };
    expect(nonTargetQueriesOf(older)).toBeNull();
    expect(nonTargetQueriesOf({ ...auditResult, semantic: { ...semantic, nonTargetQueries: { queries: 'many' } as never } })).toBeNull();
    expect(acceptedSummary(older, { accepted: ['s-free', 's-jobs'], rejected: [] })).toMatchObject({ negatives: 2, savingsPerMonth: null });
  });

  it('orders the plan by roubles per month, then by severity', () => {
    expect(actionPlan(auditResult).map((step) => step.key)).toEqual(['stats.wasted_spend', 'negatives', 'stats.low_ctr', 'ads.headline_length']);
  });
});

describe('the negatives step of the plan', () => {
  const noDecisions = { accepted: [], rejected: [] };
  const negativesStep = (steps: PlanStep[]) => steps.find((step): step is NegativesPlanStep => step.kind === 'negatives');

  it('is priced with the deduplicated cost of the blocked queries, not the sum of the negatives’ own costs', () => {
    const step = negativesStep(actionPlan(auditResult, noDecisions))!;
    // 1 960 ₽ over 31 days × 30 / 31; the negatives' own 1 170,97 + 590,32 + 435 = 2 196,29 would count «вакансии … бесплатное обучение» twice.
    expect(step.moneyPerMonth).toBe(1896.77);
    expect(step.queries.queries).toBe(4);
    // The automatic ones, most money first; «отзывы» (check by hand) is not added by the plan.
    expect(step.negatives.map((item) => item.text)).toEqual(['бесплатно', 'вакансии', 'окна пвх rehau']);
    expect(step.accepted).toEqual({ negatives: 0, queries: 0, cost: 0, costPerMonth: 0 });
  });

  it('ranks by money among the checks: above an unpriced check when the checks price nothing', () => {
    const unpricedOnly = { ...auditResult, scoring: { ...auditResult.scoring, byCheck: auditResult.scoring.byCheck.filter((check) => check.moneyPerMonth === 0) } };
    expect(actionPlan(unpricedOnly, noDecisions).map((step) => step.key)).toEqual(['negatives', 'stats.low_ctr', 'ads.headline_length']);
    // Above the 3 290 ₽ check when the queries cost more.
    const costly = { ...auditResult, semantic: { ...auditResult.semantic, nonTargetQueries: { ...auditResult.semantic.nonTargetQueries!, costPerMonth: 5000 } } };
    expect(actionPlan(costly, noDecisions).map((step) => step.key)).toEqual(['negatives', 'stats.wasted_spend', 'stats.low_ctr', 'ads.headline_length']);
  });

  it('says what the accepted negatives cover, each query once', () => {
    const step = negativesStep(actionPlan(auditResult, { accepted: ['s-free', 's-jobs', 's-reviews', 's-ad'], rejected: [] }))!;
    // «отзывы» is not an automatic negative; the shared query counts once: (900 + 310 + 300) × 30 / 31.
    expect(step.accepted).toEqual({ negatives: 2, queries: 3, cost: 1510, costPerMonth: 1461.29 });
    expect(step.moneyPerMonth).toBe(1896.77);
  });

  it('is absent from a result stored before the query figure existed, and without automatic negatives', () => {
    const { nonTargetQueries: _absent, ...semantic } = auditResult.semantic;
    expect(actionPlan({ ...auditResult, semantic }, noDecisions).map((step) => step.key)).toEqual(['stats.wasted_spend', 'stats.low_ctr', 'ads.headline_length']);
    const byHandOnly = { ...auditResult, semantic: { ...auditResult.semantic, negatives: auditResult.semantic.negatives.filter((item) => item.status === 'check_by_hand') } };
    expect(negativesStep(actionPlan(byHandOnly, noDecisions))).toBeUndefined();
  });
});

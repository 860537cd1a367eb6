import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotifications, notificationStore, notificationsAtom } from '@/app/notifications';
import { BACKGROUND_POLL_MS, failureMessage, reportOutcome, resumeTracking, stopTracking, trackInBackground } from '@/features/analysis/outcome';
import { bulkAcceptFilter, describeFilter } from '@/features/analysis/components/SemanticScreen';
import { causeLink, validateFindingsSearch, validateSuggestionsSearch } from '@/features/analysis/list-search';
import { actionPlan, type CheckPlanStep, type NegativesPlanStep } from '@/features/analysis/result-model';
import { server, useTestServer } from '../lib/test-server';
import { analysisId, makeAnalysis, summary } from './fixtures';

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
  const noDecisions = { accepted: 0, rejected: 0, blockedQueries: null };

  it('orders the plan by roubles per month, then by severity, from the summary', () => {
    expect(actionPlan(summary, noDecisions).map((step) => step.key)).toEqual(['stats.wasted_spend', 'negatives', 'stats.low_ctr', 'ads.headline_length']);
    const step = actionPlan(summary, noDecisions)[0] as CheckPlanStep;
    // Counted in places (an aggregated «12 фраз» counts 12), with the biggest finding's fix.
    expect(step).toMatchObject({ count: 13, moneyPerMonth: 3290, fix: 'Остановите фразу «окна бесплатно» или снизьте ставку.' });
  });

  it('prices the negatives with the deduplicated cost of the blocked queries and names the automatic ones only', () => {
    const step = actionPlan(summary, noDecisions).find((item): item is NegativesPlanStep => item.kind === 'negatives')!;
    expect(step.moneyPerMonth).toBe(1896.77);
    expect(step.negatives).toBe(3);
    expect(step.named.map((item) => item.text)).toEqual(['бесплатно', 'вакансии', 'окна пвх rehau']);
    const accepted = { accepted: 2, rejected: 0, blockedQueries: { queries: 3, clicks: 22, cost: 1510, costPerMonth: 1461.29 } };
    expect(actionPlan(summary, accepted).find((item) => item.kind === 'negatives')).toMatchObject({ accepted: accepted.blockedQueries });
  });

  it('ranks the negatives by money among the checks, and leaves them out of summaries without the query figure', () => {
    const unpriced = { ...summary, byCheck: summary.byCheck.filter((check) => check.moneyPerMonth === 0) };
    expect(actionPlan(unpriced, noDecisions).map((step) => step.key)).toEqual(['negatives', 'stats.low_ctr', 'ads.headline_length']);
    expect(actionPlan({ ...summary, nonTargetQueries: null }, noDecisions).map((step) => step.key)).toEqual(['stats.wasted_spend', 'stats.low_ctr', 'ads.headline_length']);
  });
});

describe('bulk decisions by filter', () => {
  it('never accepts check-by-hand negatives in bulk: a negatives filter takes the ready ones, a mixed one cannot be accepted at once', () => {
    expect(bulkAcceptFilter({ kind: ['negative_keyword'], category: ['jobs'] })).toEqual({ kind: ['negative_keyword'], category: ['jobs'], status: ['ready'] });
    expect(bulkAcceptFilter({ kind: ['negative_keyword'], status: ['check_by_hand'] })).toBeNull();
    expect(bulkAcceptFilter({})).toBeNull();
    expect(bulkAcceptFilter({ kind: ['cross_minus'] })).toEqual({ kind: ['cross_minus'] });
  });

  it('names what a filter selects', () => {
    expect(describeFilter({ kind: ['negative_keyword'], category: ['jobs'] })).toBe('минус-слова категории „Работа и вакансии“');
    expect(describeFilter({ kind: ['ad_field'] })).toBe('исправления объявлений');
    expect(describeFilter({ text: 'окна' })).toBe('предложения по фильтру');
  });

  it('links each money cause to its list with its filters', () => {
    expect(causeLink({ kind: 'findings', checks: ['stats.wasted_spend', 'stats.expensive_cpc'] })).toEqual({ to: 'findings', search: { check: ['stats.wasted_spend', 'stats.expensive_cpc'] } });
    expect(causeLink({ kind: 'suggestions', suggestionKind: 'negative_keyword', category: 'jobs' })).toEqual({ to: 'suggestions', search: { kind: ['negative_keyword'], category: ['jobs'] } });
  });

  it('keeps known filters of an address and drops the rest', () => {
    expect(validateFindingsSearch({ severity: ['high', 'urgent'], check: 'stats.wasted_spend', campaign: ['c0', 'x'], sort: 'price', page: 3 })).toEqual({ severity: ['high'], check: ['stats.wasted_spend'], campaign: ['c0'] });
    expect(validateSuggestionsSearch({ kind: ['negative_keyword'], category: ['jobs', 'cars'], decision: 'undecided', text: '  окна ' })).toEqual({ kind: ['negative_keyword'], category: ['jobs'], decision: ['undecided'], text: 'окна' });
  });
});

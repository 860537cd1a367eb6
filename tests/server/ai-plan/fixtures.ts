/** Audit results for the AI-plan unit tests: a small hand-made one, and one of any size. */
import type { AuditResult } from '../../../contract/analysis.js';
import { defaultAnalysisSettings, type CheckSummary, type Finding, type NegativeKeywordSuggestion, type Severity, type Suggestion } from '../../../contract/analysis-results.js';

const period = { from: '2025-01-01', to: '2025-01-31' };

export function finding(id: string, patch: Partial<Finding> = {}): Finding {
  return {
    id,
    checkId: 'stats.wasted_spend',
    family: 'statistics',
    severity: 'high',
    weight: 10,
    title: 'Расход без конверсий',
    explanation: 'Фраза потратила деньги и не принесла ни одной конверсии.',
    fix: 'Остановите фразу или снизьте ставку.',
    target: { level: 'keyword', key: `c0g0k${id}`, campaignName: 'Окна — поиск', groupName: 'Пластиковые окна', label: `окна ${id}` },
    evidence: [{ label: 'Расход без конверсий', value: 3400, threshold: 3000, unit: 'rub' }],
    period,
    ...patch,
  };
}

export const wasteFinding = finding('waste', { moneyPerMonth: 3290, money: 3400, fix: 'Остановите фразу «окна бесплатно».', target: { level: 'keyword', key: 'c0g0k1', campaignName: 'Окна — поиск', groupName: 'Пластиковые окна', label: 'окна бесплатно' } });
export const cpcFinding = finding('cpc', { checkId: 'stats.expensive_cpc', title: 'Дорогой клик', severity: 'medium', weight: 5, moneyPerMonth: 1200, fix: 'Снизьте ставку.' });
export const ctrFinding = finding('ctr', { checkId: 'stats.low_ctr', title: 'Низкий CTR на поиске', severity: 'high', weight: 5, moneyPerMonth: undefined, fix: 'Добавьте фразу в заголовок.' });
export const lengthFinding = finding('len', {
  checkId: 'ads.headline_length',
  family: 'ads',
  title: 'Заголовок длиннее лимита',
  severity: 'low',
  weight: 2,
  moneyPerMonth: undefined,
  fix: 'Сократите заголовок до 56 символов.',
  target: { level: 'ad', key: 'c0g0a0', campaignName: 'Окна — поиск', groupName: 'Пластиковые окна', label: 'Пластиковые окна от завода' },
});

export const acceptedNegative: Suggestion = {
  id: 's-free',
  kind: 'negative_keyword',
  level: 'campaign',
  target: { level: 'campaign', key: 'c0', campaignIndex: 0, campaignName: 'Окна — поиск' },
  text: 'бесплатно',
  category: 'free',
  status: 'ready',
  source: 'queries',
  reason: 'Запросы о бесплатном не приносят заказов',
  queries: [],
  clicks: 12,
  cost: 900,
  costPerMonth: 870,
  evidence: [],
};

function summarize(findings: Finding[]): CheckSummary[] {
  const byCheck = new Map<string, CheckSummary>();
  for (const item of findings) {
    const summary = byCheck.get(item.checkId) ?? { checkId: item.checkId, title: item.title, severity: item.severity, count: 0, moneyPerMonth: 0, examples: [] };
    summary.count += 1;
    summary.moneyPerMonth += item.moneyPerMonth ?? 0;
    if (summary.examples.length < 3) summary.examples.push(item);
    byCheck.set(item.checkId, summary);
  }
  return [...byCheck.values()];
}

export function makeAudit(findings: Finding[] = [wasteFinding, cpcFinding, ctrFinding, lengthFinding], suggestions: Suggestion[] = [acceptedNegative]): AuditResult {
  const bySeverity = (severity: Severity) => {
    const of = findings.filter((item) => item.severity === severity);
    return { count: of.length, moneyPerMonth: of.reduce((sum, item) => sum + (item.moneyPerMonth ?? 0), 0) };
  };
  const money = findings.reduce((sum, item) => sum + (item.moneyPerMonth ?? 0), 0);
  return {
    scoring: {
      platform: 'yandex_direct',
      settings: defaultAnalysisSettings,
      period,
      periodDays: 31,
      monthFactor: 30 / 31,
      notices: [{ code: 'NO_SEARCH_QUERIES', message: 'Отчёт о поисковых запросах не загружен' }],
      account: { target: { level: 'account', key: 'account' }, score: 64, findings: findings.length, moneyPerMonth: money },
      campaigns: [
        { target: { level: 'campaign', key: 'c0', campaignName: 'Окна — поиск' }, score: 58, findings: findings.length, moneyPerMonth: money },
        { target: { level: 'campaign', key: 'c1', campaignName: 'Окна — РСЯ' }, score: 91, findings: 0, moneyPerMonth: 0 },
      ],
      groups: [],
      ads: [],
      keywords: [],
      findings,
      bySeverity: { high: bySeverity('high'), medium: bySeverity('medium'), low: bySeverity('low') },
      byCheck: summarize(findings),
      keywordVerdicts: [],
      wastedSpend: { period: 3400, perMonth: 3290 },
      suggestions: suggestions.filter((item) => item.kind === 'ad_field'),
      checks: [],
      counts: { campaigns: 2, groups: 3, ads: 4, keywords: 320, negativeKeywords: 2, searchQueries: 0 },
    },
    semantic: {
      platform: 'yandex_direct',
      settings: defaultAnalysisSettings,
      notices: [],
      clusters: [],
      duplicates: [],
      intersections: [],
      crossMinus: suggestions.filter((item) => item.kind === 'cross_minus'),
      negatives: suggestions.filter((item) => item.kind === 'negative_keyword'),
      droppedNegatives: [],
      collectData: [],
      relevance: [],
      counts: { keywords: 320, lemmas: 400, clusters: 0, duplicates: 2, intersections: 1, negatives: 1 },
    },
  };
}

/** `count` findings over 50 checks and 200 campaigns, money spread so the order is known: f<i> is worth 10 000 − i. */
export function largeAudit(count: number): AuditResult {
  const findings = Array.from({ length: count }, (_, i) =>
    finding(`f${i}`, {
      checkId: `check.${i % 50}`,
      title: `Проверка номер ${i % 50} с длинным названием, чтобы строки были похожи на настоящие`,
      moneyPerMonth: i % 3 === 0 ? 10_000 - i : undefined,
      severity: (['high', 'medium', 'low'] as const)[i % 3],
      fix: 'Исправьте это место: '.repeat(10),
      target: { level: 'keyword', key: `c${i % 200}g0k${i}`, campaignName: `Кампания ${i % 200}`, groupName: `Группа ${i}`, label: `фраза ${i}` },
    }),
  );
  const audit = makeAudit(findings);
  audit.scoring.campaigns = Array.from({ length: 200 }, (_, i) => ({ target: { level: 'campaign' as const, key: `c${i}`, campaignName: `Кампания ${i} ${'с очень длинным названием '.repeat(3)}` }, score: 50, findings: 10, moneyPerMonth: i }));
  return audit;
}

/** A ready (automatic) negative of the first campaign, or a check-by-hand one with `status`. */
export function negative(id: string, text: string, costPerMonth: number, patch: Partial<NegativeKeywordSuggestion> = {}): NegativeKeywordSuggestion {
  return { ...(acceptedNegative as NegativeKeywordSuggestion), id, text, category: 'jobs', cost: costPerMonth, costPerMonth, ...patch };
}

/**
 * The audit with the engine's non-target query figure: 3 rows, 2 000 ₽ over 31 days (1 935,48 ₽ a month),
 * one row blocked by both «бесплатно» and «вакансии» (the negatives' own costs overlap).
 */
export function withNonTargetQueries(audit: AuditResult, negatives: NegativeKeywordSuggestion[]): AuditResult {
  audit.semantic.negatives = negatives;
  audit.semantic.nonTargetQueries = {
    queries: 3,
    clicks: 30,
    cost: 2000,
    costPerMonth: 1935.48,
    period,
    periodDays: 31,
    monthFactor: 30 / 31,
    blockedBy: [
      { suggestionIds: ['s-free'], queries: 1, clicks: 10, cost: 600 },
      { suggestionIds: ['s-free', 's-jobs'], queries: 1, clicks: 10, cost: 300 },
      { suggestionIds: ['s-jobs'], queries: 1, clicks: 10, cost: 1100 },
    ],
  };
  return audit;
}

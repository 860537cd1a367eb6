/** Data of the analysis screen tests: a project, analyses in each state and a small audit result. */
import { http, HttpResponse } from 'msw';
import type { Analysis, AuditResult } from '@contract/analysis.js';
import { RESULTS_TOTAL_CAP, type BulkDecisionRequest, type DecisionChangesRequest, type DecisionCounts, type FindingItemsPage, type FindingsPage, type PagedResults, type ResultsSummary, type SuggestionWithDecision } from '@contract/analysis-pages.js';
import type { Finding, FindingItem, StoredMoneyStory, NegativeKeywordSuggestion, CrossMinusSuggestion, AdFieldFixSuggestion, Suggestion } from '@contract/analysis-results.js';
import { defaultAnalysisSettings, share } from '@contract/analysis-results.js';
import type { ProjectDetail } from '@contract/projects.js';

export const projectId = '44444444-4444-4444-8444-444444444444';
export const analysisId = '55555555-5555-4555-8555-555555555555';
const campaignA = '77777777-7777-4777-8777-777777777777';
const campaignB = '77777777-7777-4777-8777-777777777778';

export const project: ProjectDetail = {
  id: projectId,
  name: 'Окна Плюс',
  site_url: 'https://okna-plus.ru',
  platform: 'yandex_direct',
  region: 'Москва',
  target_cpa: 1500,
  author: { id: 'u1', full_name: 'Анна Петрова' },
  created_at: '2025-02-01T10:00:00.000Z',
  updated_at: '2025-02-03T10:00:00.000Z',
  counts: { campaigns: 2, groups: 3, ads: 4, keywords: 320 },
  last_analysis: null,
  settings: { min_clicks_for_negative: 7 },
  stats: null,
  period: null,
  search_queries: 0,
  campaigns: [
    { id: campaignA, external_id: '1001', name: 'Окна — поиск', type: 'search', groups_count: 2, ads_count: 3, keywords_count: 300, negative_keywords: 2, stats: null, groups: [] },
    { id: campaignB, external_id: '1002', name: 'Окна — РСЯ', type: 'network', groups_count: 1, ads_count: 1, keywords_count: 20, negative_keywords: 0, stats: null, groups: [] },
  ],
  imports: [],
  connection: null,
};

export const campaignIds = [campaignA, campaignB];

export function makeAnalysis(patch: Partial<Analysis> = {}): Analysis {
  return {
    id: analysisId,
    project_id: projectId,
    kind: 'audit',
    status: 'queued',
    stage: 'queued',
    progress: 0,
    progress_detail: null,
    options: { campaign_ids: campaignIds, settings: {}, target_cpa: 1500 },
    cost: 20,
    score: null,
    summary: null,
    error: null,
    author: { id: 'u1', full_name: 'Анна Петрова' },
    created_at: '2025-03-01T10:00:00.000Z',
    started_at: null,
    finished_at: null,
    ...patch,
  };
}

const period = { from: '2025-01-01', to: '2025-01-31' };

const wasteFinding: Finding = {
  id: 'f1',
  checkId: 'stats.wasted_spend',
  family: 'statistics',
  severity: 'high',
  weight: 10,
  title: 'Расход без конверсий',
  explanation: 'Фраза потратила деньги и не принесла ни одной конверсии.',
  fix: 'Остановите фразу «окна бесплатно» или снизьте ставку.',
  target: { level: 'keyword', key: 'c0g0k1', campaignName: 'Окна — поиск', groupName: 'Пластиковые окна', label: 'окна бесплатно' },
  evidence: [
    { label: 'Клики', value: 42, threshold: 30, setting: 'minClicksForKeywordAction', unit: 'clicks' },
    { label: 'Расход без конверсий', value: 3400, threshold: 3000, unit: 'rub' },
  ],
  period,
  money: 3400,
  moneyPerMonth: 3290,
};

const ctrFinding: Finding = {
  id: 'f2',
  checkId: 'stats.low_ctr',
  family: 'statistics',
  severity: 'medium',
  weight: 5,
  title: 'Низкий CTR на поиске',
  explanation: 'Объявление показывается, но по нему почти не кликают.',
  fix: 'Добавьте ключевую фразу в заголовок.',
  target: { level: 'keyword', key: 'c0g0k2', campaignName: 'Окна — поиск', groupName: 'Пластиковые окна', label: 'пластиковые окна' },
  evidence: [{ label: 'CTR', value: share(0.012), threshold: share(0.02), setting: 'lowSearchCtr', unit: 'share' }],
  period,
};

const lengthFinding: Finding = {
  id: 'f3',
  checkId: 'ads.headline_length',
  family: 'ads',
  severity: 'low',
  weight: 2,
  title: 'Заголовок длиннее лимита',
  explanation: 'Заголовок 1 длиннее 56 символов.',
  fix: 'Сократите заголовок до 56 символов.',
  target: { level: 'ad', key: 'c0g0a0', campaignName: 'Окна — поиск', groupName: 'Пластиковые окна', label: 'Пластиковые окна от завода с установкой под ключ и гарантией десять лет' },
  evidence: [{ label: 'Длина заголовка 1', value: 70, threshold: 56, unit: 'chars' }],
};

const campaignNegative: NegativeKeywordSuggestion = {
  id: 's-free',
  kind: 'negative_keyword',
  level: 'campaign',
  target: { level: 'campaign', key: 'c0', campaignIndex: 0, campaignName: 'Окна — поиск' },
  text: 'бесплатно',
  category: 'free',
  status: 'ready',
  source: 'queries',
  reason: 'Запросы о бесплатном не приносят заказов',
  queries: [
    { query: 'окна бесплатно', clicks: 12, cost: 900, conversions: 0 },
    { query: 'вакансии монтажника окон бесплатное обучение', clicks: 4, cost: 310, conversions: 0 },
  ],
  clicks: 16,
  cost: 1210,
  costPerMonth: 1170.97,
  evidence: [],
};

const jobsNegative: NegativeKeywordSuggestion = {
  ...campaignNegative,
  id: 's-jobs',
  text: 'вакансии',
  category: 'jobs',
  reason: 'Соискатели, а не покупатели',
  // «вакансии монтажника окон бесплатное обучение» is blocked by «бесплатно» too: one query, two negatives.
  queries: [
    { query: 'монтажник окон вакансии', clicks: 6, cost: 300, conversions: 0 },
    { query: 'вакансии монтажника окон бесплатное обучение', clicks: 4, cost: 310, conversions: 0 },
  ],
  clicks: 10,
  cost: 610,
  costPerMonth: 590.32,
};

/** A zero-conversion query with enough clicks: a group-level phrase, with the threshold it passed. */
const groupNegative: NegativeKeywordSuggestion = {
  ...campaignNegative,
  id: 's-query',
  level: 'group',
  target: { level: 'group', key: 'c0g0', campaignIndex: 0, groupIndex: 0, campaignName: 'Окна — поиск', groupName: 'Пластиковые окна' },
  text: 'окна пвх rehau',
  category: 'query',
  reason: 'Запрос без конверсий с достаточным числом кликов: минус-фраза на группу.',
  queries: [{ query: 'окна пвх rehau', clicks: 9, cost: 450, conversions: 0 }],
  clicks: 9,
  cost: 450,
  costPerMonth: 435,
  evidence: [
    { label: 'Клики', value: 9, threshold: 5, setting: 'minClicksForNegative', unit: 'clicks' },
    { label: 'Конверсии', value: 0, unit: 'conversions' },
    { label: 'Расход', value: 450, unit: 'rub' },
  ],
};

const handNegative: NegativeKeywordSuggestion = {
  ...campaignNegative,
  id: 's-reviews',
  text: 'отзывы',
  category: 'ambiguous',
  status: 'check_by_hand',
  reason: 'Отзывы ищут и покупатели: решите сами',
  queries: [],
  clicks: 0,
  cost: 0,
  costPerMonth: 0,
};

const crossMinus: CrossMinusSuggestion = {
  id: 's-cross',
  kind: 'cross_minus',
  level: 'keyword',
  target: { level: 'keyword', key: 'c0g0k0', campaignIndex: 0, groupIndex: 0, keywordIndex: 0, campaignName: 'Окна — поиск', groupName: 'Пластиковые окна', label: 'окна' },
  before: 'окна',
  after: 'окна -пластиковые',
  add: ['пластиковые'],
  because: [],
  remove: [],
  reason: 'Фраза «пластиковые окна» точнее',
};

const adFix: AdFieldFixSuggestion = {
  id: 's-ad',
  kind: 'ad_field',
  target: lengthFinding.target,
  field: 'headline',
  index: 0,
  before: 'Пластиковые окна от завода с установкой под ключ и гарантией десять лет',
  after: 'Пластиковые окна от завода с установкой под ключ',
  reason: 'Заголовок 1 длиннее 56 символов',
};

export const auditResult: AuditResult = {
  scoring: {
    platform: 'yandex_direct',
    settings: defaultAnalysisSettings,
    period,
    periodDays: 31,
    monthFactor: 30 / 31,
    notices: [],
    account: { target: { level: 'account', key: 'account' }, score: 64, findings: 3, moneyPerMonth: 3290 },
    campaigns: [
      { target: { level: 'campaign', key: 'c0', campaignName: 'Окна — поиск' }, score: 58, findings: 3, moneyPerMonth: 3290 },
      { target: { level: 'campaign', key: 'c1', campaignName: 'Окна — РСЯ' }, score: 91, findings: 0, moneyPerMonth: 0 },
    ],
    groups: [],
    ads: [],
    keywords: [],
    findings: [wasteFinding, ctrFinding, lengthFinding],
    bySeverity: { high: { count: 1, moneyPerMonth: 3290 }, medium: { count: 1, moneyPerMonth: 0 }, low: { count: 1, moneyPerMonth: 0 } },
    byCheck: [
      { checkId: 'ads.headline_length', title: 'Заголовок длиннее лимита', severity: 'low', count: 1, moneyPerMonth: 0, examples: [lengthFinding] },
      { checkId: 'stats.low_ctr', title: 'Низкий CTR на поиске', severity: 'medium', count: 1, moneyPerMonth: 0, examples: [ctrFinding] },
      { checkId: 'stats.wasted_spend', title: 'Расход без конверсий', severity: 'high', count: 1, moneyPerMonth: 3290, examples: [wasteFinding] },
    ],
    keywordVerdicts: [],
    wastedSpend: { period: 3400, perMonth: 3290 },
    suggestions: [adFix],
    checks: [],
    counts: { campaigns: 2, groups: 3, ads: 4, keywords: 320, negativeKeywords: 2, searchQueries: 40 },
  },
  semantic: {
    platform: 'yandex_direct',
    settings: defaultAnalysisSettings,
    notices: [],
    clusters: [{ id: 'k1', lemmas: ['окно', 'пластиковый'], intent: 'commercial', keywords: [crossMinus.target], groupKeys: ['c0g0', 'c0g1'] }],
    duplicates: [],
    intersections: [],
    crossMinus: [crossMinus],
    negatives: [campaignNegative, jobsNegative, groupNegative, handNegative],
    droppedNegatives: [],
    // The distinct queries of the ready negatives: 900 + 310 + 300 + 450 = 1 960 ₽ over 31 days (the
    // negatives' own costs add up to 2 270 ₽: the shared query would be counted twice).
    nonTargetQueries: {
      queries: 4,
      clicks: 31,
      cost: 1960,
      costPerMonth: 1896.77,
      period,
      periodDays: 31,
      monthFactor: 30 / 31,
      blockedBy: [
        { suggestionIds: ['s-free'], queries: 1, clicks: 12, cost: 900 },
        { suggestionIds: ['s-query'], queries: 1, clicks: 9, cost: 450 },
        { suggestionIds: ['s-free', 's-jobs'], queries: 1, clicks: 4, cost: 310 },
        { suggestionIds: ['s-jobs'], queries: 1, clicks: 6, cost: 300 },
      ],
    },
    collectData: [],
    relevance: [],
    counts: { keywords: 320, lemmas: 400, clusters: 1, duplicates: 0, intersections: 1, negatives: 4 },
  },
};

/** «Фразы без конверсий» as the engine aggregates it: one finding on the group, 12 keywords, 5 examples. */
export const aggregatedWasteItems: FindingItem[] = Array.from({ length: 12 }, (_, index) => ({
  target: { level: 'keyword', key: `c0g0k${index + 10}`, campaignName: 'Окна — поиск', groupName: 'Пластиковые окна', label: `окна дешево ${index + 1}` },
  evidence: [{ label: 'Клики', value: 40 - index, unit: 'clicks' }],
  money: 300 - index * 10,
  moneyPerMonth: Math.round(((300 - index * 10) * 30) / 31),
}));

export const aggregatedWaste: Finding = {
  ...wasteFinding,
  id: 'f-agg',
  checkId: 'stats.wasted_spend',
  title: 'Фразы без конверсий',
  target: { level: 'group', key: 'c0g0', campaignName: 'Окна — поиск', groupName: 'Пластиковые окна' },
  evidence: [{ label: 'Расход без конверсий', value: 2940, unit: 'rub' }],
  fix: 'Остановите фразы без конверсий или снизьте по ним ставки.',
  count: 12,
  items: aggregatedWasteItems.slice(0, 5),
  money: 2940,
  moneyPerMonth: 2845,
};

/** The one money figure as stored before the lost/saving split (no `saving`): the keywords' waste and the non-target queries of the other keywords. */
export const moneyStory: StoredMoneyStory = {
  perMonth: 5187,
  period: 5360,
  causes: [
    { cause: 'wasted_keywords', perMonth: 3290, period: 3400, count: 13, list: { kind: 'findings', checks: ['stats.wasted_spend'] } },
    { cause: 'non_target_queries', perMonth: 1897, period: 1960, count: 4, list: { kind: 'suggestions', suggestionKind: 'negative_keyword' } },
  ],
};

export const allFindings: Finding[] = [wasteFinding, aggregatedWaste, ctrFinding, lengthFinding];

export const summary: ResultsSummary = {
  platform: 'yandex_direct',
  settings: defaultAnalysisSettings,
  period,
  periodDays: 31,
  monthFactor: 30 / 31,
  notices: [],
  counts: auditResult.scoring.counts,
  scores: { account: auditResult.scoring.account, campaigns: auditResult.scoring.campaigns, campaignsTotal: 2 },
  money: moneyStory,
  wastedSpend: { period: 3400, perMonth: 3290 },
  bySeverity: { high: { findings: 2, entities: 13, moneyPerMonth: 6135 }, medium: { findings: 1, entities: 1, moneyPerMonth: 0 }, low: { findings: 1, entities: 1, moneyPerMonth: 0 } },
  byCheck: [
    { checkId: 'stats.wasted_spend', title: 'Расход без конверсий', family: 'statistics', severity: 'high', findings: 2, entities: 13, moneyPerMonth: 3290 },
    { checkId: 'stats.low_ctr', title: 'Низкий CTR на поиске', family: 'statistics', severity: 'medium', findings: 1, entities: 1, moneyPerMonth: 0 },
    { checkId: 'ads.headline_length', title: 'Заголовок длиннее лимита', family: 'ads', severity: 'low', findings: 1, entities: 1, moneyPerMonth: 0 },
  ],
  checks: [],
  findingsTotal: 4,
  suggestions: {
    total: 6,
    byKind: [
      { kind: 'negative_keyword', category: 'free', status: 'ready', count: 1, costPerMonth: 1170.97 },
      { kind: 'negative_keyword', category: 'jobs', status: 'ready', count: 1, costPerMonth: 590.32 },
      { kind: 'negative_keyword', category: 'query', status: 'ready', count: 1, costPerMonth: 435 },
      { kind: 'negative_keyword', category: 'ambiguous', status: 'check_by_hand', count: 1, costPerMonth: 0 },
      { kind: 'cross_minus', category: null, status: null, count: 1, costPerMonth: 0 },
      { kind: 'ad_field', category: null, status: null, count: 1, costPerMonth: 0 },
    ],
  },
  semantic: {
    notices: [],
    counts: { ...auditResult.semantic.counts, collectData: 0, droppedNegatives: 0, relevance: 0, keywordVerdicts: 0 },
  },
  nonTargetQueries: (({ blockedBy: _rows, ...figure }) => figure)(auditResult.semantic.nonTargetQueries!),
  top: { findings: [wasteFinding, aggregatedWaste, ctrFinding, lengthFinding], suggestions: [campaignNegative, jobsNegative, groupNegative] },
};

export const allSuggestions: Suggestion[] = [campaignNegative, jobsNegative, groupNegative, handNegative, crossMinus, adFix];

/** A page as the server answers it: the total counted up to `cap` (`total_capped` past it). */
const page = <T,>(items: T[], pageNumber: number, pageSize: number, cap = RESULTS_TOTAL_CAP) => ({
  items: items.slice((pageNumber - 1) * pageSize, pageNumber * pageSize),
  total: Math.min(items.length, cap),
  total_capped: items.length > cap,
  page: pageNumber,
  page_size: pageSize,
});

export function makeResults(patch: Partial<PagedResults> = {}): PagedResults {
  return {
    analysis: makeAnalysis({ status: 'completed', stage: 'done', progress: 100, score: 64, finished_at: '2025-03-01T10:05:00.000Z' }),
    summary,
    findings: page(allFindings, 1, 50),
    decisions: { accepted: 0, rejected: 0, blockedQueries: null },
    ...patch,
  };
}

export interface FakePagesOptions {
  findings?: Finding[];
  suggestions?: Suggestion[];
  decisions?: Record<string, 'accepted' | 'rejected'>;
  summary?: ResultsSummary;
  /** The lists count their matches up to this many, as the server does up to RESULTS_TOTAL_CAP. */
  totalCap?: number;
}

const listParam = (params: URLSearchParams, name: string) => params.getAll(name).flatMap((value) => value.split(',')).filter(Boolean);

/**
 * The paged results API as msw handlers over in-memory rows: filters, pages, decisions (one by one and
 * in bulk) as the server's contract describes them. Returns the requests seen and the decisions held.
 */
export function fakePagedApi(options: FakePagesOptions = {}) {
  const findings = options.findings ?? allFindings;
  const suggestions = options.suggestions ?? allSuggestions;
  const decisions = new Map(Object.entries(options.decisions ?? {}));
  const values = new Map<string, string>();
  const requests: { path: string; params: URLSearchParams }[] = [];
  const bulk: BulkDecisionRequest[] = [];
  const patches: DecisionChangesRequest[] = [];
  const counts = (): DecisionCounts => ({
    accepted: [...decisions.values()].filter((value) => value === 'accepted').length,
    rejected: [...decisions.values()].filter((value) => value === 'rejected').length,
    blockedQueries: null,
  });
  const record = (request: Request) => {
    const url = new URL(request.url);
    requests.push({ path: url.pathname, params: url.searchParams });
    return url.searchParams;
  };
  const matches = (item: Suggestion, filter: Record<string, string[] | string | undefined>) => {
    const has = (name: string, value: string | null) => {
      const wanted = filter[name];
      if (wanted === undefined || (Array.isArray(wanted) && wanted.length === 0)) return true;
      return value !== null && (Array.isArray(wanted) ? wanted : [wanted]).includes(value);
    };
    const decision = decisions.get(item.id) ?? 'undecided';
    const text = typeof filter.text === 'string' ? filter.text.toLowerCase() : '';
    return (
      has('kind', item.kind) &&
      has('category', item.kind === 'negative_keyword' ? item.category : null) &&
      has('status', item.kind === 'negative_keyword' ? item.status : null) &&
      has('decision', decision) &&
      (!text || JSON.stringify(item).toLowerCase().includes(text))
    );
  };
  const withDecision = (item: Suggestion): SuggestionWithDecision => ({
    ...item,
    decision: (decisions.get(item.id) as 'accepted' | 'rejected' | undefined) ?? null,
    ...(values.has(item.id) ? { value: values.get(item.id) } : {}),
  });
  const base = `/api/v1/analyses/${analysisId}`;
  const handlers = [
    http.get(`${base}/results`, ({ request }) => {
      record(request);
      return HttpResponse.json(makeResults({ summary: options.summary ?? summary, findings: page(findings, 1, 50), decisions: counts() }));
    }),
    http.get(`${base}/findings`, ({ request }) => {
      const params = record(request);
      const checks = listParam(params, 'check');
      const severitiesWanted = listParam(params, 'severity');
      const text = (params.get('text') ?? '').toLowerCase();
      const chosen = findings.filter(
        (finding) =>
          (checks.length === 0 || checks.includes(finding.checkId)) &&
          (severitiesWanted.length === 0 || severitiesWanted.includes(finding.severity)) &&
          (!text || JSON.stringify(finding).toLowerCase().includes(text)),
      );
      return HttpResponse.json(page(chosen, Number(params.get('page') ?? 1), Number(params.get('page_size') ?? 50), options.totalCap) satisfies FindingsPage);
    }),
    http.get(`${base}/findings/:findingId/items`, ({ request, params: path }) => {
      const params = record(request);
      const finding = findings.find((item) => item.id === path.findingId);
      const items = finding?.id === aggregatedWaste.id ? aggregatedWasteItems : (finding?.items ?? []);
      return HttpResponse.json(page(items, Number(params.get('page') ?? 1), Number(params.get('page_size') ?? 50)) satisfies FindingItemsPage);
    }),
    http.get(`${base}/suggestions`, ({ request }) => {
      const params = record(request);
      const filter = Object.fromEntries(['kind', 'category', 'status', 'decision', 'campaign', 'group'].map((name) => [name, listParam(params, name)]));
      const chosen = suggestions.filter((item) => matches(item, { ...filter, text: params.get('text') ?? undefined })).map(withDecision);
      return HttpResponse.json(page(chosen, Number(params.get('page') ?? 1), Number(params.get('page_size') ?? 50), options.totalCap));
    }),
    http.patch(`${base}/decisions`, async ({ request }) => {
      record(request);
      const body = (await request.json()) as DecisionChangesRequest;
      patches.push(body);
      // Only these suggestions change (as the server does); a value stays on an accepted ad fix only.
      for (const change of body.changes) {
        const kind = suggestions.find((item) => item.id === change.id)?.kind;
        if (change.decision === 'undecided') decisions.delete(change.id);
        else decisions.set(change.id, change.decision);
        if (change.decision !== 'accepted' || kind !== 'ad_field') values.delete(change.id);
        else if (change.value !== undefined) values.set(change.id, change.value);
      }
      const { accepted, rejected } = counts();
      return HttpResponse.json({ accepted, rejected });
    }),
    http.post(`${base}/decisions/bulk`, async ({ request }) => {
      record(request);
      const body = (await request.json()) as BulkDecisionRequest;
      bulk.push(body);
      const chosen = suggestions.filter((item) => matches(item, body.filter as Record<string, string[] | string | undefined>));
      for (const item of chosen) {
        if (body.decision === 'undecided') decisions.delete(item.id);
        else decisions.set(item.id, body.decision);
      }
      return HttpResponse.json({ updated: chosen.length, ...counts() });
    }),
  ];
  return { handlers, requests, bulk, patches, decisions, requestsTo: (suffix: string) => requests.filter((entry) => entry.path === `${base}${suffix}`) };
}

/**
 * What the results, semantic and plan screens show, read out of the stored engine output. Pure
 * functions of the data, so the screens stay thin and the rules are tested on their own.
 */
import * as v from 'valibot';
import type { AnalysisDecisions, AuditResult } from '../../contract/analysis.js';
import {
  NonTargetQueriesSchema,
  roundMoney,
  type AdFieldFixSuggestion,
  type CheckSummary,
  type CrossMinusSuggestion,
  type MoneyStory,
  type NegativeCategory,
  type NegativeKeywordSuggestion,
  type NonTargetQueries,
  type Severity,
  type Suggestion,
} from '../../contract/analysis-results.js';

export const severities: Severity[] = ['high', 'medium', 'low'];

export interface SeverityGroup {
  severity: Severity;
  count: number;
  moneyPerMonth: number;
  /** Checks that fired at this severity, money first, then how often. */
  checks: CheckSummary[];
}

const byMoneyThenCount = (a: CheckSummary, b: CheckSummary) => b.moneyPerMonth - a.moneyPerMonth || b.count - a.count;

export function severityGroups(result: AuditResult): SeverityGroup[] {
  const { scoring } = result;
  return severities.map((severity) => ({
    severity,
    count: scoring.bySeverity[severity]?.count ?? 0,
    moneyPerMonth: scoring.bySeverity[severity]?.moneyPerMonth ?? 0,
    checks: scoring.byCheck.filter((check) => check.severity === severity && check.count > 0).sort(byMoneyThenCount),
  }));
}

/** Every suggestion the user can accept or reject, by id. */
export function allSuggestions(result: AuditResult): Suggestion[] {
  return [...result.semantic.negatives, ...result.semantic.crossMinus, ...result.scoring.suggestions];
}

export interface SuggestionSection {
  id: string;
  title: string;
  hint: string;
  items: Suggestion[];
  /** Ambiguous intents are decided one by one, never in bulk. */
  bulk: boolean;
  /** Sub-heading of each item (the negative's category), when the section groups by it. */
  categoryOf?: (item: Suggestion) => NegativeCategory | null;
}

const isNegative = (item: Suggestion): item is NegativeKeywordSuggestion => item.kind === 'negative_keyword';
const isCrossMinus = (item: Suggestion): item is CrossMinusSuggestion => item.kind === 'cross_minus';
const isAdFix = (item: Suggestion): item is AdFieldFixSuggestion => item.kind === 'ad_field';

/** The sections of the semantic screen, in the order a marketer works through them. */
export function suggestionSections(result: AuditResult): SuggestionSection[] {
  const negatives = result.semantic.negatives;
  const crossMinus = result.semantic.crossMinus;
  const sections: SuggestionSection[] = [
    {
      id: 'campaign-negatives',
      title: 'Минус-слова на уровне кампании',
      hint: 'По одному слову на категорию нецелевых запросов: бесплатное, информационные, вакансии, б/у, другая география, конкуренты.',
      items: negatives.filter((item) => item.level === 'campaign' && item.status === 'ready'),
      bulk: true,
      categoryOf: (item) => (isNegative(item) ? item.category : null),
    },
    {
      id: 'group-negatives',
      title: 'Минус-фразы на уровне групп',
      hint: 'Запросы без конверсий с достаточным числом кликов, добавляются в группу, где они показывались.',
      items: negatives.filter((item) => item.level === 'group' && item.status === 'ready'),
      bulk: true,
    },
    {
      id: 'check-by-hand',
      title: 'Проверить вручную',
      hint: 'Неоднозначные запросы (отзывы, сравнения…): иногда это ваши покупатели. Они не добавляются сами — решите по каждому.',
      items: negatives.filter((item) => item.status === 'check_by_hand'),
      bulk: false,
    },
    {
      id: 'cross-minus',
      title: 'Кросс-минусовка',
      hint: 'Фразы, которые пересекаются между собой: минус-слова разводят их, чтобы показ шёл по самой точной фразе.',
      items: crossMinus.filter((item) => item.remove.length === 0),
      bulk: true,
    },
    {
      id: 'duplicates',
      title: 'Дубли ключевых фраз',
      hint: 'Одинаковые по смыслу фразы: лишние удаляются, их минус-слова переносятся в оставшуюся.',
      items: crossMinus.filter((item) => item.remove.length > 0),
      bulk: true,
    },
    {
      id: 'ad-fixes',
      title: 'Исправления объявлений',
      hint: 'Поля длиннее лимита площадки, ссылки без UTM-меток.',
      items: result.scoring.suggestions,
      bulk: true,
    },
  ];
  return sections.filter((section) => section.items.length > 0);
}

export type Choice = 'accepted' | 'rejected' | null;

export function choiceOf(decisions: AnalysisDecisions, id: string): Choice {
  if (decisions.accepted.includes(id)) return 'accepted';
  if (decisions.rejected.includes(id)) return 'rejected';
  return null;
}

/** Sets (or clears, with null) the choice of some suggestions; the lists never hold an id twice. */
export function decide(decisions: AnalysisDecisions, ids: string[], choice: Choice): AnalysisDecisions {
  const touched = new Set(ids);
  const accepted = decisions.accepted.filter((id) => !touched.has(id));
  const rejected = decisions.rejected.filter((id) => !touched.has(id));
  if (choice === 'accepted') accepted.push(...ids);
  if (choice === 'rejected') rejected.push(...ids);
  const values = decisions.values ? Object.fromEntries(Object.entries(decisions.values).filter(([id]) => choice === 'accepted' || !touched.has(id))) : undefined;
  return { accepted, rejected, ...(values && Object.keys(values).length > 0 ? { values } : {}) };
}

/** Keeps the user's own value of an accepted ad-field fix (the suggested value needs no entry). */
export function withValue(decisions: AnalysisDecisions, id: string, value: string, suggested: string): AnalysisDecisions {
  const values = { ...(decisions.values ?? {}) };
  if (value === suggested) delete values[id];
  else values[id] = value;
  const { values: _old, ...rest } = decisions;
  return Object.keys(values).length > 0 ? { ...rest, values } : rest;
}

export interface AcceptedSummary {
  negatives: number;
  crossMinus: number;
  adFixes: number;
  total: number;
  /**
   * Cost per month of the queries the accepted negatives would have blocked, each query once; null for
   * results stored before the engine reported query costs (their negatives' costs overlap).
   */
  savingsPerMonth: number | null;
}

/** What the accepted suggestions change, for the results screen and the export buttons. */
export function acceptedSummary(result: AuditResult, decisions: AnalysisDecisions): AcceptedSummary {
  const accepted = new Set(decisions.accepted);
  const chosen = allSuggestions(result).filter((item) => accepted.has(item.id));
  const negatives = chosen.filter(isNegative);
  const nonTarget = nonTargetQueriesOf(result);
  return {
    negatives: negatives.length,
    crossMinus: chosen.filter(isCrossMinus).length,
    adFixes: chosen.filter(isAdFix).length,
    total: chosen.length,
    savingsPerMonth: nonTarget ? nonTargetQueriesCoveredBy(nonTarget, decisions.accepted).costPerMonth : null,
  };
}

/** What the non-target queries cost (engine figure), or null for a result stored before it existed. */
export function nonTargetQueriesOf(result: AuditResult): NonTargetQueries | null {
  const parsed = v.safeParse(NonTargetQueriesSchema, result.semantic.nonTargetQueries);
  return parsed.success ? parsed.output : null;
}

export interface QueriesCovered {
  queries: number;
  cost: number;
  costPerMonth: number;
}

/**
 * The part of the non-target queries that some suggestions (the accepted ones) block. A query blocked
 * by two chosen suggestions counts once: the engine groups the rows by the set of suggestions blocking them.
 */
export function nonTargetQueriesCoveredBy(summary: NonTargetQueries, suggestionIds: Iterable<string>): QueriesCovered {
  const chosen = new Set(suggestionIds);
  let queries = 0;
  let cost = 0;
  for (const entry of summary.blockedBy) {
    if (!entry.suggestionIds.some((id) => chosen.has(id))) continue;
    queries += entry.queries;
    cost += entry.cost;
  }
  return { queries, cost: roundMoney(cost), costPerMonth: roundMoney(cost * summary.monthFactor) };
}

export interface CheckPlanStep {
  kind: 'check';
  /** Unique within the plan (the check id). */
  key: string;
  checkId: string;
  title: string;
  severity: Severity;
  /** What to do, in the engine's words (the fix of the check's first example). */
  fix: string;
  explanation: string;
  /** Places the check fired on (keywords, ads…; an aggregated finding «12 фраз» is 12). */
  count: number;
  moneyPerMonth: number;
  examples: CheckSummary['examples'];
}

/**
 * Add the automatic negatives (campaign category words and group phrases; never the check-by-hand ones).
 * Priced with the engine's deduplicated cost of the queries they block, not the sum of the negatives'
 * own costs (a query blocked by two of them would count twice).
 */
export interface NegativesPlanStep {
  kind: 'negatives';
  key: 'negatives';
  /** The automatic negatives, the ones blocking the most money first. */
  negatives: NegativeKeywordSuggestion[];
  /** The non-target queries they block: count, money of the period and per month, each query once. */
  queries: NonTargetQueries;
  moneyPerMonth: number;
  /** Negatives of the step the user already accepted, and the queries those cover (each once). */
  accepted: { negatives: number } & QueriesCovered;
}

export type PlanStep = CheckPlanStep | NegativesPlanStep;

/** Automatic negatives: what the semantic screen lets the user accept in bulk (not check-by-hand). */
const isAutomaticNegative = (item: NegativeKeywordSuggestion) => item.status === 'ready';

/** The negatives step, or null for results stored before the query figure existed or without automatic negatives. */
export function negativesPlanStep(result: AuditResult, decisions: AnalysisDecisions): NegativesPlanStep | null {
  const queries = nonTargetQueriesOf(result);
  const negatives = result.semantic.negatives.filter(isAutomaticNegative).sort((a, b) => b.costPerMonth - a.costPerMonth || b.clicks - a.clicks);
  if (!queries || negatives.length === 0) return null;
  const acceptedIds = new Set(decisions.accepted);
  return {
    kind: 'negatives',
    key: 'negatives',
    negatives,
    queries,
    moneyPerMonth: queries.costPerMonth,
    accepted: { negatives: negatives.filter((item) => acceptedIds.has(item.id)).length, ...nonTargetQueriesCoveredBy(queries, decisions.accepted) },
  };
}

/**
 * The action plan, money first: checks with money and the automatic negatives (priced by the queries
 * they block), largest roubles per month first; then the remaining high-severity checks (money leaking
 * without a price on it), then the rest by how often they fired.
 */
export function actionPlan(result: AuditResult, decisions: AnalysisDecisions = { accepted: [], rejected: [] }): PlanStep[] {
  const rank: Record<Severity, number> = { high: 0, medium: 1, low: 2 };
  const checks = result.scoring.byCheck.filter((check) => check.count > 0 && check.examples.length > 0);
  const priced = checks.filter((check) => check.moneyPerMonth > 0).sort(byMoneyThenCount);
  const unpriced = checks
    .filter((check) => check.moneyPerMonth <= 0)
    .sort((a, b) => rank[a.severity] - rank[b.severity] || b.count - a.count);
  const checkSteps = (list: CheckSummary[]): CheckPlanStep[] =>
    list.map((check) => ({
      kind: 'check',
      key: check.checkId,
      checkId: check.checkId,
      title: check.title,
      severity: check.severity,
      fix: check.examples[0].fix,
      explanation: check.examples[0].explanation,
      count: check.entities ?? check.count,
      moneyPerMonth: check.moneyPerMonth,
      examples: check.examples,
    }));
  const negatives = negativesPlanStep(result, decisions);
  // A stable sort: on a tie the negatives go first (one list, accepted on one screen). Without a price
  // (curated words, no query report) they still come before the unpriced checks.
  const pricedSteps: PlanStep[] = [...(negatives ? [negatives] : []), ...checkSteps(priced)].sort((a, b) => b.moneyPerMonth - a.moneyPerMonth);
  return [...pricedSteps, ...checkSteps(unpriced)];
}

/**
 * The plan's total: the money story («Теряете ≈ X ₽ в месяц» and its causes), the one figure every
 * screen shows; null for results stored before it existed (the plan then sums its priced steps).
 */
export function planMoneyStory(result: AuditResult): MoneyStory | null {
  const story = result.money;
  return story && typeof story.perMonth === 'number' && Array.isArray(story.causes) ? story : null;
}

/** The stored result when it has the audit's two parts (an unfinished analysis has none). */
export function auditResultOf(raw: unknown): AuditResult | null {
  if (!raw || typeof raw !== 'object') return null;
  const record = raw as Partial<AuditResult>;
  return record.scoring && record.semantic ? (record as AuditResult) : null;
}

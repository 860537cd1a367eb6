/**
 * What the results and plan screens show, read out of the stored summary of an analysis (the paged
 * results API: the summary holds every figure of the header, the lists are read page by page). Pure
 * functions of the data, so the screens stay thin and the rules are tested on their own.
 */
import type { CheckCount, DecisionCounts, ResultsSummary } from '../../contract/analysis-pages.js';
import type { Finding, NegativeKeywordSuggestion, Severity } from '../../contract/analysis-results.js';

export const severities: Severity[] = ['high', 'medium', 'low'];

export type Choice = 'accepted' | 'rejected' | null;

export interface CheckPlanStep {
  kind: 'check';
  /** Unique within the plan (the check id). */
  key: string;
  checkId: string;
  title: string;
  severity: Severity;
  /** What to do, in the engine's words (the fix of the check's biggest finding, else the check's description). */
  fix: string;
  explanation: string;
  /** Places the check covers (an aggregated finding «N фраз» counts N). */
  count: number;
  moneyPerMonth: number;
  /** The biggest findings of the check the summary carries (its `top` list). */
  examples: Finding[];
}

/**
 * Add the automatic negatives (campaign category words and group phrases; never the check-by-hand ones),
 * priced with the engine's deduplicated cost of the non-target queries they block.
 */
export interface NegativesPlanStep {
  kind: 'negatives';
  key: 'negatives';
  /** The biggest automatic negatives the summary names (its `top` list). */
  named: NegativeKeywordSuggestion[];
  /** How many automatic negatives there are. */
  negatives: number;
  queries: NonNullable<ResultsSummary['nonTargetQueries']>;
  moneyPerMonth: number;
  /** What the accepted negatives block of the queries (each query once); null without a query report. */
  accepted: DecisionCounts['blockedQueries'];
}

export type PlanStep = CheckPlanStep | NegativesPlanStep;

const byMoneyThenCount = (a: CheckCount, b: CheckCount) => b.moneyPerMonth - a.moneyPerMonth || b.entities - a.entities;

/** The negatives step, or null for summaries without the query figure or without automatic negatives. */
export function negativesPlanStep(summary: ResultsSummary, decisions: DecisionCounts): NegativesPlanStep | null {
  const queries = summary.nonTargetQueries;
  const negatives = summary.suggestions.byKind
    .filter((entry) => entry.kind === 'negative_keyword' && entry.status !== 'check_by_hand' && entry.category !== 'ambiguous')
    .reduce((sum, entry) => sum + entry.count, 0);
  if (!queries || negatives === 0) return null;
  const named = summary.top.suggestions
    .filter((item): item is NegativeKeywordSuggestion => item.kind === 'negative_keyword' && item.status === 'ready')
    .sort((a, b) => b.costPerMonth - a.costPerMonth || b.clicks - a.clicks);
  return { kind: 'negatives', key: 'negatives', named, negatives, queries, moneyPerMonth: queries.costPerMonth, accepted: decisions.blockedQueries };
}

/**
 * The action plan, money first: checks with money and the automatic negatives (priced by the queries
 * they block), largest roubles per month first; then the remaining high-severity checks (money leaking
 * without a price on it), then the rest by how often they fired.
 */
export function actionPlan(summary: ResultsSummary, decisions: DecisionCounts): PlanStep[] {
  const rank: Record<Severity, number> = { high: 0, medium: 1, low: 2 };
  const checks = summary.byCheck.filter((check) => check.findings > 0);
  const priced = checks.filter((check) => check.moneyPerMonth > 0).sort(byMoneyThenCount);
  const unpriced = checks.filter((check) => check.moneyPerMonth <= 0).sort((a, b) => rank[a.severity] - rank[b.severity] || b.entities - a.entities);
  const checkSteps = (list: CheckCount[]): CheckPlanStep[] =>
    list.map((check) => {
      const examples = summary.top.findings.filter((finding) => finding.checkId === check.checkId);
      const description = summary.checks.find((item) => item.id === check.checkId)?.description ?? '';
      return {
        kind: 'check',
        key: check.checkId,
        checkId: check.checkId,
        title: check.title,
        severity: check.severity,
        fix: examples[0]?.fix ?? description,
        explanation: examples[0]?.explanation ?? '',
        count: check.entities,
        moneyPerMonth: check.moneyPerMonth,
        examples,
      };
    });
  const negatives = negativesPlanStep(summary, decisions);
  // A stable sort: on a tie the negatives go first (one list, accepted on one screen).
  const pricedSteps: PlanStep[] = [...(negatives ? [negatives] : []), ...checkSteps(priced)].sort((a, b) => b.moneyPerMonth - a.moneyPerMonth);
  return [...pricedSteps, ...checkSteps(unpriced)];
}

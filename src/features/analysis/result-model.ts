/**
 * What the results and plan screens show, read out of the stored summary of an analysis (the paged
 * results API: the summary holds every figure of the header, the lists are read page by page). Pure
 * functions of the data, so the screens stay thin and the rules are tested on their own.
 */
import type { CheckCount, DecisionCounts, ResultsSummary } from '@contract/analysis-pages.js';
import { moneyCauseKinds, readMoneyStory, roundMoney, type Finding, type MoneyKind, type MoneyStory, type NegativeKeywordSuggestion, type Severity } from '@contract/analysis-results.js';

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
  /** The money of the check's findings. */
  moneyPerMonth: number;
  /** The part of it in the money story (see `CountedMoney`); null when none of it is. */
  counted: CountedMoney | null;
  /** The biggest findings of the check the summary carries (its `top` list). */
  examples: Finding[];
}

/**
 * The money of a step that the money story counts: in the headline (`lost`) or in the money that could
 * be saved (`saving`). The counted money of the steps adds up to those two figures exactly; a step's
 * own money may be more (the negatives' queries inside keywords already counted, an excess over the
 * target capped by its keyword's cost) or not counted at all (a suspicion, such as a high CTR in the networks).
 */
export interface CountedMoney {
  kind: MoneyKind;
  perMonth: number;
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
  /** What the blocked queries cost a month (all of them, also those inside keywords other steps count). */
  moneyPerMonth: number;
  /** The part of it the headline counts (the queries outside the keywords already counted as lost). */
  counted: CountedMoney | null;
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
  return { kind: 'negatives', key: 'negatives', named, negatives, queries, moneyPerMonth: queries.costPerMonth, counted: null, accepted: decisions.blockedQueries };
}

/**
 * Which part of each step's money the story counts: a cause listed by findings is shared by its checks
 * in proportion to their money (the rounding left on the largest, so the steps add up to the cause to the
 * kopeck); the non-target queries' cause is the negatives step's.
 */
function countStoryMoney(story: MoneyStory, checkSteps: CheckPlanStep[], negatives: NegativesPlanStep | null): void {
  for (const cause of story.causes) {
    const kind = moneyCauseKinds[cause.cause];
    if (cause.list.kind === 'suggestions') {
      if (negatives && cause.list.suggestionKind === 'negative_keyword') negatives.counted = { kind, perMonth: cause.perMonth };
      continue;
    }
    const steps = checkSteps.filter((step) => cause.list.checks?.includes(step.checkId) && step.moneyPerMonth > 0).sort((a, b) => b.moneyPerMonth - a.moneyPerMonth);
    const total = steps.reduce((sum, step) => sum + step.moneyPerMonth, 0);
    if (total <= 0) continue;
    let left = cause.perMonth;
    for (const step of steps.slice(1)) {
      const share = roundMoney((cause.perMonth * step.moneyPerMonth) / total);
      step.counted = { kind, perMonth: share };
      left -= share;
    }
    steps[0]!.counted = { kind, perMonth: roundMoney(left) };
  }
}

const countedMoney = (step: PlanStep) => step.counted?.perMonth ?? 0;

/**
 * The action plan, money first: checks with money and the automatic negatives (priced by the queries
 * they block), the money the story counts (lost or to save) largest first, then priced steps it does not
 * count; then the remaining high-severity checks (money leaking without a price on it), then the rest
 * by how often they fired.
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
        counted: null,
        examples,
      };
    });
  const negatives = negativesPlanStep(summary, decisions);
  const pricedChecks = checkSteps(priced);
  if (summary.money) countStoryMoney(readMoneyStory(summary.money, summary.settings.targetCpa), pricedChecks, negatives);
  // Money the story counts first (the largest first), then money it does not (a suspicion, money inside
  // other steps'). A stable sort: on a tie the negatives go first (one list, accepted on one screen).
  const pricedSteps: PlanStep[] = [...(negatives ? [negatives] : []), ...pricedChecks].sort(
    (a, b) => countedMoney(b) - countedMoney(a) || b.moneyPerMonth - a.moneyPerMonth,
  );
  return [...pricedSteps, ...checkSteps(unpriced)];
}

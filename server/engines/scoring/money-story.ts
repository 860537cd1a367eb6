/**
 * The one money story: «Теряете ≈ X ₽ в месяц», the money that could be saved beside it, and their
 * causes, each a separate slice of the account's spend, so the lost causes add up to the headline, the
 * saving ones to `saving`, and no rouble is counted twice.
 *
 * - Фразы без конверсий (`wasted_keywords`): the keywords the «Остановить фразу» findings price (clicks
 *   over the action threshold, no conversions, cost ≥ `stopCostCpaRatio` × CPA) and the keywords of a
 *   campaign with no conversions at all («Расход без конверсий», its items). Exactly the money of those
 *   findings, so the cause's list (the findings of these two checks) adds up to it.
 * - Нецелевые запросы (`non_target_queries`): the query rows the automatic negatives would block (the
 *   rows `semantic.nonTargetQueries` sums, each once), without the rows whose keyword is already counted
 *   as wasted: a query's cost is inside its keyword's cost. A row is matched to its keyword by the
 *   report's keyword column within its group; without that column, a row of a group (or campaign) whose
 *   whole spend is already wasted is left out, any other row counts (a report with neither the group
 *   nor the keyword column cannot be matched at all: its rows count, and only their keyword-level cap
 *   below is lost).
 * - Конверсии дороже ориентира (`overpaid_clicks`, money that could be saved, not lost): keywords with
 *   conversions whose CPA is over the «Снизить ставку» rule, the excess only (cost − conversions ×
 *   reference CPA). A keyword to stop has no conversions, so it is never also overpaying. The excess
 *   holds the keyword's non-target queries (counted as lost): they come off it, and the group's (rows
 *   without a keyword) cap it, so lost and to save never overlap.
 *
 * The headline (`perMonth`) is the lost causes only (wasted keywords, non-target queries): spend that
 * brought nothing. The excess over the reference bought conversions: it is `saving`, beside the headline,
 * never added to it. A cause whose money rounds to 0 ₽ a month is left out (nothing to act on).
 * - Network sites (a placements report, `stats.network_sites`) are named without money: a site's spend is
 *   inside its keywords' spend, which the causes above already count. Broken pages need page checks the
 *   import does not carry yet: that cause is left out rather than guessed.
 *
 * Pure: the prepared account, the scoring result and the semantic engine's non-target rows in, the
 * story out. Money of the period is summed first and turned into money per month once per cause.
 */
import { moneyCauseKinds, roundMoney, type MoneyStory, type ScoringResult } from '../../../contract/analysis-results.js';
import type { SearchQuery } from '../../../contract/campaigns.js';
import type { PreparedAccount, PreparedGroup, PreparedKeyword } from '../semantic/prepare.js';
import { campaignStatsOf } from './checks/statistics.js';
import { checks } from './registry.js';

export interface MoneyStoryInput {
  account: PreparedAccount;
  scoring: Pick<ScoringResult, 'findings' | 'keywordVerdicts' | 'settings' | 'periodDays'>;
  /** The query rows `semantic.nonTargetQueries` counts (no conversions, blocked by an automatic negative), each once. */
  nonTargetRows: Iterable<SearchQuery>;
}

type Cause = MoneyStory['causes'][number];

const wastedChecks = [checks.keywordStop.id, checks.campaignWastedSpend.id];
const overpaidChecks = [checks.keywordLowerBid.id];

export function moneyStory({ account, scoring, nonTargetRows }: MoneyStoryInput): MoneyStory {
  // The same factor the findings use (accountFacts): 30 days over the period's days.
  const monthFactor = scoring.settings.daysPerMonth / scoring.periodDays;
  const wasted = wastedKeywords(scoring);
  const queries = nonTargetQueries(account, nonTargetRows, wasted, monthFactor);
  const causes = [wasted.cause, queries.cause, overpaidClicks(account, scoring, wasted, queries, monthFactor)].filter((cause) => cause !== null);

  // Rounded to whole roubles a month, a cause of 0 ₽ says nothing: left out.
  const shown = causes.filter((cause) => Math.round(cause.perMonth) > 0).sort((a, b) => b.perMonth - a.perMonth);
  const sum = (kind: 'lost' | 'saving', key: 'perMonth' | 'period') => roundMoney(shown.reduce((total, cause) => total + (moneyCauseKinds[cause.cause] === kind ? cause[key] : 0), 0));
  let spend: number | null = null;
  for (const campaign of account.campaigns) {
    const stats = campaignStatsOf(campaign);
    if (stats) spend = (spend ?? 0) + stats.cost;
  }
  return {
    perMonth: sum('lost', 'perMonth'),
    period: sum('lost', 'period'),
    saving: { perMonth: sum('saving', 'perMonth'), period: sum('saving', 'period'), reference: scoring.settings.targetCpa !== null ? 'target' : 'account' },
    spendPerMonth: spend === null ? null : roundMoney(spend * monthFactor),
    causes: shown,
  };
}

const costOf = (keyword: PreparedKeyword) => keyword.keyword.stats?.cost ?? 0;

/** The keywords and campaigns counted as wasted, and what of a group's spend is still open. */
class Wasted {
  readonly keys = new Set<string>();
  readonly campaigns = new Set<string>();
  cause: Cause | null = null;
  /** Spend of a group not already counted as wasted (what its queries and overpaid clicks can still be). */
  private readonly openSpend = new Map<PreparedGroup, number>();

  has(keyword: PreparedKeyword): boolean {
    return this.keys.has(keyword.ref.key) || this.campaigns.has(keyword.campaign.ref.key);
  }

  openSpendOf(group: PreparedGroup): number {
    let spend = this.openSpend.get(group);
    if (spend === undefined) {
      spend = group.keywords.reduce((sum, keyword) => sum + (this.has(keyword) ? 0 : costOf(keyword)), 0);
      this.openSpend.set(group, spend);
    }
    return spend;
  }
}

/** Wasted keywords: the findings' own money. */
function wastedKeywords(scoring: MoneyStoryInput['scoring']): Wasted {
  const wasted = new Wasted();
  let wastedPeriod = 0;
  let wastedPerMonth = 0;
  let wastedCount = 0;
  for (const finding of scoring.findings) {
    if (!wastedChecks.includes(finding.checkId)) continue;
    if (finding.checkId === checks.campaignWastedSpend.id) wasted.campaigns.add(finding.target.key);
    else wasted.keys.add(finding.target.key);
    for (const item of finding.items ?? []) wasted.keys.add(item.target.key);
    if (!finding.money) continue;
    wastedPeriod += finding.money;
    wastedPerMonth += finding.moneyPerMonth ?? 0;
    wastedCount += finding.count ?? 1;
  }
  if (wastedCount > 0) wasted.cause = { cause: 'wasted_keywords', period: roundMoney(wastedPeriod), perMonth: roundMoney(wastedPerMonth), count: wastedCount, list: { kind: 'findings', checks: wastedChecks } };
  return wasted;
}

interface QueriesCounted {
  cause: Cause | null;
  /** The non-target queries' cost by the keyword they matched. */
  ofKeyword: Map<PreparedKeyword, number>;
  /** The cost of the group's non-target queries that matched no keyword. */
  ofGroup: Map<PreparedGroup, number>;
}

/** Non-target queries outside wasted keywords. */
function nonTargetQueries(account: PreparedAccount, nonTargetRows: Iterable<SearchQuery>, wasted: Wasted, monthFactor: number): QueriesCounted {
  const preparedOf = new Map(account.queries.map((prepared) => [prepared.query, prepared]));
  const keywordsByPhrase = new Map<PreparedGroup, Map<string, PreparedKeyword>>();
  const phraseKey = (text: string) => text.trim().toLowerCase().replace(/ё/g, 'е');
  const keywordOf = (group: PreparedGroup, text: string) => {
    let byPhrase = keywordsByPhrase.get(group);
    if (!byPhrase) {
      byPhrase = new Map(group.keywords.map((keyword) => [phraseKey(keyword.keyword.phrase), keyword]));
      keywordsByPhrase.set(group, byPhrase);
    }
    return byPhrase.get(phraseKey(text));
  };
  const counted: QueriesCounted = { cause: null, ofKeyword: new Map(), ofGroup: new Map() };
  let queriesPeriod = 0;
  let queriesCount = 0;
  for (const row of nonTargetRows) {
    const prepared = preparedOf.get(row);
    const campaign = prepared?.campaign;
    if (campaign && wasted.campaigns.has(campaign.ref.key)) continue;
    const group = prepared?.group;
    const groups = group ? [group] : campaign?.groups ?? [];
    const keyword = row.keyword ? groups.map((candidate) => keywordOf(candidate, row.keyword!)).find((found) => found !== undefined) : undefined;
    if (keyword) {
      if (wasted.has(keyword)) continue;
      counted.ofKeyword.set(keyword, (counted.ofKeyword.get(keyword) ?? 0) + row.stats.cost);
    } else if (groups.length > 0) {
      // Keyword unknown: left out only when everything its group (or campaign) spent is already wasted.
      if (groups.every((candidate) => wasted.openSpendOf(candidate) <= 0)) continue;
      if (group) counted.ofGroup.set(group, (counted.ofGroup.get(group) ?? 0) + row.stats.cost);
    }
    queriesPeriod += row.stats.cost;
    queriesCount++;
  }
  if (queriesCount > 0) {
    counted.cause = {
      cause: 'non_target_queries',
      period: roundMoney(queriesPeriod),
      perMonth: roundMoney(queriesPeriod * monthFactor),
      count: queriesCount,
      list: { kind: 'suggestions', suggestionKind: 'negative_keyword' },
    };
  }
  return counted;
}

/** Overpaid clicks: the excess over the CPA rule. */
function overpaidClicks(account: PreparedAccount, scoring: MoneyStoryInput['scoring'], wasted: Wasted, queries: QueriesCounted, monthFactor: number): Cause | null {
  // Only the keywords of priced lower-bid findings are looked up (a few): a map of every keyword was a
  // million entries and ~80 MB with its entry pairs at 1 000 000 keywords, made at the end of the
  // engines' run, where the thread's heap peaks. (A later keyword of the same key wins, as in that map.)
  const overpaidKeys = new Set<string>();
  for (const finding of scoring.findings) if (finding.checkId === checks.keywordLowerBid.id && finding.money) overpaidKeys.add(finding.target.key);
  const keywordsByKey = new Map<string, PreparedKeyword>();
  if (overpaidKeys.size > 0) for (const keyword of account.keywords) if (overpaidKeys.has(keyword.ref.key)) keywordsByKey.set(keyword.ref.key, keyword);
  const overpaidByGroup = new Map<PreparedGroup, number>();
  let overpaidCount = 0;
  for (const finding of scoring.findings) {
    if (finding.checkId !== checks.keywordLowerBid.id || !finding.money) continue;
    const keyword = keywordsByKey.get(finding.target.key);
    if (!keyword || wasted.has(keyword)) continue;
    // The excess (cost − conversions × reference) holds the keyword's non-target queries, already lost: they come off it.
    const excess = Math.min(finding.money, costOf(keyword)) - (queries.ofKeyword.get(keyword) ?? 0);
    if (excess <= 0) continue;
    overpaidByGroup.set(keyword.group, (overpaidByGroup.get(keyword.group) ?? 0) + excess);
    overpaidCount++;
  }
  let overpaidPeriod = 0;
  for (const [group, excess] of overpaidByGroup) {
    // The group's queries without a keyword are inside some keyword of the group: what is left of its open spend caps the excess.
    const attributed = group.keywords.reduce((sum, keyword) => sum + (queries.ofKeyword.get(keyword) ?? 0), 0);
    const left = Math.max(0, wasted.openSpendOf(group) - attributed - (queries.ofGroup.get(group) ?? 0));
    overpaidPeriod += Math.min(excess, left);
  }
  if (overpaidCount === 0 || overpaidPeriod <= 0) return null;
  return { cause: 'overpaid_clicks', period: roundMoney(overpaidPeriod), perMonth: roundMoney(overpaidPeriod * monthFactor), count: overpaidCount, list: { kind: 'findings', checks: overpaidChecks } };
}

/**
 * The account's score beside its money: at most 100 − the share of the spend lost (a score of 79 beside
 * «39 % of the budget brought nothing» reads as a contradiction). Only money lost caps it: conversions
 * dearer than the target still brought conversions, and the checks' weights already judge them.
 */
export function scoreBesideLoss(score: number, story: MoneyStory): number {
  if (!story.spendPerMonth || story.spendPerMonth <= 0 || story.perMonth <= 0) return score;
  return Math.min(score, Math.max(0, Math.round(100 * (1 - story.perMonth / story.spendPerMonth))));
}

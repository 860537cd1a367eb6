/**
 * The money figure of the negative suggestions: what the non-target queries they would block cost.
 *
 * Suggestions overlap (one query can hold two category words, «вакансии спб»), so adding their
 * `cost` would count such a query twice. Here every query row of the report counts once, and the
 * rows are also grouped by the exact set of suggestions blocking them, so the results screen can
 * say what the accepted ones cover without counting twice either.
 */
import { roundMoney, type NonTargetQueries } from '../../../contract/analysis-results.js';
import type { SearchQuery } from '../../../contract/campaigns.js';
import type { AccountFacts } from './account-facts.js';

/** A ready (automatic) suggestion with every query row it would block, not only the ones it lists. */
export interface SuggestionBlocking {
  suggestionId: string;
  queries: readonly SearchQuery[];
}

/**
 * The non-target rows: every query row without conversions some automatic negative blocks, once, with
 * the ids of the suggestions blocking it. Rows are the report's own objects, so identity is "the same
 * row" even when two rows share a text. The money story reads the same rows (money-story.ts).
 */
export function nonTargetRows(blocking: readonly SuggestionBlocking[]): Map<SearchQuery, string[]> {
  const blockersOf = new Map<SearchQuery, string[]>();
  for (const { suggestionId, queries } of blocking) {
    for (const query of queries) {
      // A negative never blocks a converting query (such negatives are dropped), but the figure is
      // "money without conversions" by definition, so it does not rely on that.
      if (query.stats.conversions > 0) continue;
      const ids = blockersOf.get(query) ?? [];
      if (!ids.includes(suggestionId)) ids.push(suggestionId);
      blockersOf.set(query, ids);
    }
  }
  return blockersOf;
}

export function summarizeNonTargetQueries(blocking: readonly SuggestionBlocking[] | ReadonlyMap<SearchQuery, string[]>, facts: Pick<AccountFacts, 'period' | 'periodDays' | 'monthFactor'>): NonTargetQueries {
  const blockersOf = blocking instanceof Map ? blocking : nonTargetRows(blocking as readonly SuggestionBlocking[]);
  const groups = new Map<string, { suggestionIds: string[]; queries: number; clicks: number; cost: number }>();
  let clicks = 0;
  let cost = 0;
  for (const [query, suggestionIds] of blockersOf) {
    clicks += query.stats.clicks;
    cost += query.stats.cost;
    const key = suggestionIds.join('\n');
    const group = groups.get(key) ?? { suggestionIds, queries: 0, clicks: 0, cost: 0 };
    group.queries++;
    group.clicks += query.stats.clicks;
    group.cost += query.stats.cost;
    groups.set(key, group);
  }
  return {
    queries: blockersOf.size,
    clicks,
    cost: roundMoney(cost),
    costPerMonth: roundMoney(cost * facts.monthFactor),
    period: facts.period,
    periodDays: facts.periodDays,
    monthFactor: facts.monthFactor,
    blockedBy: [...groups.values()].map((group) => ({ ...group, cost: roundMoney(group.cost) })).sort((a, b) => b.cost - a.cost),
  };
}

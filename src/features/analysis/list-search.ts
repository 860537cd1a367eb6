/**
 * The filters of the results and semantic lists live in the address (TanStack Router validated search),
 * so a filtered list can be linked to (each money cause links to its own), reloaded and shared. A value
 * the schema does not know is dropped, never an error: an old or hand-edited link still opens.
 */
import * as v from 'valibot';
import { decisionFilters, negativeCategories, severities, suggestionKinds, suggestionStatuses } from '@contract/analysis-pages.js';
import type { MoneyStory } from '@contract/analysis-results.js';
import type { FindingsListFilter, SuggestionsListFilter } from './pages-api';

/** A list of allowed values (one value is taken as a list of one); unknown values are dropped. */
const listOf = (allowed: readonly string[] | null) =>
  v.optional(
    v.fallback(
      v.pipe(
        v.union([v.string(), v.array(v.string())]),
        v.transform((value) => (Array.isArray(value) ? value : [value]).filter((item) => item !== '' && (allowed === null || allowed.includes(item)))),
        v.transform((value) => (value.length > 0 ? value : undefined)),
      ),
      undefined,
    ),
  );
const entityKeys = v.optional(
  v.fallback(
    v.pipe(
      v.union([v.string(), v.array(v.string())]),
      v.transform((value) => (Array.isArray(value) ? value : [value]).filter((key) => /^c\d+(g\d+)?$/.test(key))),
      v.transform((value) => (value.length > 0 ? value : undefined)),
    ),
    undefined,
  ),
);
const text = v.optional(v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200), v.transform((value) => value || undefined)), undefined));

export const FindingsSearchSchema = v.object({
  severity: listOf(severities),
  check: listOf(null),
  campaign: entityKeys,
  group: entityKeys,
  text,
  sort: v.fallback(v.optional(v.picklist(['money', 'severity'])), undefined),
});
export type FindingsSearch = v.InferOutput<typeof FindingsSearchSchema>;

export const SuggestionsSearchSchema = v.object({
  kind: listOf(suggestionKinds),
  category: listOf(negativeCategories),
  status: listOf(suggestionStatuses),
  decision: listOf(decisionFilters),
  campaign: entityKeys,
  group: entityKeys,
  text,
});
export type SuggestionsSearch = v.InferOutput<typeof SuggestionsSearchSchema>;

/** Keeps only the keys with a value (the address stays short: `?check=…`, not `?severity=&text=`). */
function compact<T extends object>(search: T): T {
  return Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined)) as T;
}

export const validateFindingsSearch = (search: Record<string, unknown>): FindingsSearch => compact(v.parse(FindingsSearchSchema, search));
export const validateSuggestionsSearch = (search: Record<string, unknown>): SuggestionsSearch => compact(v.parse(SuggestionsSearchSchema, search));

export const findingsFilterOf = (search: FindingsSearch): FindingsListFilter => compact({ ...search });
export const suggestionsFilterOf = (search: SuggestionsSearch): SuggestionsListFilter => compact({ ...search });

type MoneyCauseList = MoneyStory['causes'][number]['list'];

/** Where a money cause's list is: the findings of its checks, or its suggestions (kind, category). */
export function causeLink(list: MoneyCauseList):
  | { to: 'findings'; search: FindingsSearch }
  | { to: 'suggestions'; search: SuggestionsSearch } {
  if (list.kind === 'findings') return { to: 'findings', search: compact({ check: list.checks && list.checks.length > 0 ? list.checks : undefined }) };
  return {
    to: 'suggestions',
    search: compact({ kind: list.suggestionKind ? [list.suggestionKind] : undefined, category: list.category ? [list.category] : undefined }),
  };
}

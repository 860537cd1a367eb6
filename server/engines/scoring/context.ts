/** What every check module reads and where it writes its findings. */
import type { AdFieldFixSuggestion, AnalysisSettings, Evidence, KeywordVerdict, SemanticResult } from '../../../contract/analysis-results.js';
import type { FindingCollector } from './aggregate.js';
import type { AccountFacts } from '../semantic/account-facts.js';
import type { PreparedAccount } from '../semantic/prepare.js';

export interface ScoringContext {
  account: PreparedAccount;
  semantic: SemanticResult;
  settings: AnalysisSettings;
  facts: AccountFacts;
  /** Per-entity findings, as the checks make them (aggregated afterwards). */
  findings: FindingCollector;
  suggestions: AdFieldFixSuggestion[];
  verdicts: KeywordVerdict[];
}

export const percent = (share: number) => Math.round(share * 10000) / 100;
export const rub = (value: number) => Math.round(value * 100) / 100;
/** Roubles in the checks' texts: the one ru-RU writing of the product (whole roubles, no-break spaces). */
export { formatRub } from '../../../contract/format.js';

/** Shared one-entry evidence lists, by content (see `oneEvidence`). */
const evidenceLists = new Map<string, Evidence[]>();

/**
 * A one-entry evidence list of plain values, shared by every finding with the same one: a check that
 * fires on a million entities («Нет UTM-меток: 0, порог 1») would otherwise hold a million equal lists.
 * Never mutated (an aggregated finding's evidence is built from copies).
 */
export function oneEvidence(evidence: Evidence): Evidence[] {
  const key = `${evidence.label}\u0001${evidence.value}\u0001${evidence.threshold ?? ''}\u0001${evidence.setting ?? ''}\u0001${evidence.unit ?? ''}`;
  let list = evidenceLists.get(key);
  if (!list) {
    // Bounded: labels and small counts repeat; a thread that runs many analyses starts over now and then.
    if (evidenceLists.size >= 10_000) evidenceLists.clear();
    list = [evidence];
    evidenceLists.set(key, list);
  }
  return list;
}

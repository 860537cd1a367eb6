/** What every check module reads and where it writes its findings. */
import type { AdFieldFixSuggestion, AnalysisSettings, KeywordVerdict, SemanticResult } from '../../../src/contract/analysis-results.js';
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
export const formatRub = (value: number) => `${Math.round(value).toLocaleString('ru-RU')} ₽`;

/**
 * The semantic engine: clusters, duplicates, cross-minus, negative keywords, relevance, from a prepared
 * account. Pure and deterministic: the same data gives the same result.
 */
import type { AnalysisProgress, AnalysisSettings, SemanticResult } from '../../../contract/analysis-results.js';
import type { SearchQuery } from '../../../contract/campaigns.js';
import { accountFacts } from './account-facts.js';
import { clusterKeywords } from './clusters.js';
import { findCrossMinus } from './cross-minus.js';
import { suggestNegatives } from './negatives.js';
import { nonTargetRows, summarizeNonTargetQueries } from './non-target-queries.js';
import type { PreparedAccount } from './prepare.js';
import { groupRelevance } from './relevance.js';

export interface SemanticRun {
  result: SemanticResult;
  /** The query rows `result.nonTargetQueries` sums (each once), for the money story; not part of the stored result. */
  nonTargetRows: ReadonlySet<SearchQuery>;
}

export function runSemanticEngine(account: PreparedAccount, settings: AnalysisSettings, onProgress?: (progress: AnalysisProgress) => void): SemanticRun {
  const facts = accountFacts(account.data, settings);
  const steps = 4;
  const step = (done: number) => onProgress?.({ stage: 'semantic', done, total: steps });
  step(0);
  const clusters = clusterKeywords(account);
  step(1);
  const cross = findCrossMinus(account);
  step(2);
  const negativeResult = suggestNegatives(account, settings, facts.hasConversions, facts.monthFactor);
  step(3);
  const relevance = groupRelevance(account);
  step(4);
  const rows = nonTargetRows(negativeResult.blocking);
  const result: SemanticResult = {
    platform: account.platform,
    settings,
    notices: facts.notices.filter((notice) => notice.code !== 'NO_PERIOD' && notice.code !== 'NO_IDS'),
    clusters,
    duplicates: cross.duplicates,
    intersections: cross.intersections,
    crossMinus: cross.suggestions,
    negatives: negativeResult.negatives,
    droppedNegatives: negativeResult.dropped,
    coveredQueries: negativeResult.covered,
    nonTargetQueries: summarizeNonTargetQueries(rows, facts),
    collectData: negativeResult.collectData,
    relevance,
    counts: {
      keywords: account.keywords.length,
      lemmas: account.lemmatizer.vocabularySize,
      // What the results list: clusters of two or more keywords (a topic of one keyword is no cluster).
      clusters: clusters.length,
      duplicates: cross.duplicates.length,
      intersections: cross.intersections.length,
      negatives: negativeResult.negatives.length,
    },
  };
  return { result, nonTargetRows: new Set(rows.keys()) };
}

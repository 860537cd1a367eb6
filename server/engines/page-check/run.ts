/**
 * Entry of the relevance engine in a thread of the relevance pool (`relevancePool()`): loads the morphology dictionaries
 * of this thread, then runs the pure engine. Reading a hundred 2 MB pages and lemmatising their text
 * is CPU work that must not hold up the API's event loop.
 */
import type { RelevanceResult } from '../../../contract/relevance.js';
import { createLemmatizer, loadMorphology } from '../semantic/lemmatizer.js';
import { analyzeRelevance, type RelevanceInput } from './engine.js';

export async function runRelevanceEngine(input: RelevanceInput): Promise<RelevanceResult> {
  await loadMorphology();
  return analyzeRelevance(input, createLemmatizer());
}

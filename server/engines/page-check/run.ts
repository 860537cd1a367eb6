/**
 * Entry of the page check engine in a thread of the page check pool (`pageCheckPool()`): loads the morphology dictionaries
 * of this thread, then runs the pure engine. Reading a hundred 2 MB pages and lemmatising their text
 * is CPU work that must not hold up the API's event loop.
 */
import type { PageCheckResult } from '../../../contract/page-check.js';
import { createLemmatizer, loadMorphology } from '../semantic/lemmatizer.js';
import { checkPages, type PageCheckInput } from './engine.js';

export async function runPageCheckEngine(input: PageCheckInput): Promise<PageCheckResult> {
  await loadMorphology();
  return checkPages(input, createLemmatizer());
}

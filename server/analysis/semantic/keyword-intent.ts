/**
 * Is a keyword itself non-commercial? Its words, read by lemma against the curated lists of its own
 * language (intent-lexicon.ts, entries marked `keywordIntent`): «цветы бесплатно», «букет своими
 * руками», «вакансии флорист», «iphone б/у», «free flowers». No statistics needed: the word says it.
 *
 * Ambiguous words (отзывы, обзор, рейтинг, reviews) are not here on purpose: for many businesses such a
 * keyword sells, so it stays with the negatives' «проверить вручную» and lowers no score.
 */
import type { NegativeCategory } from '../../../src/contract/analysis-results.js';
import { nonCommercialLexicon, type LexiconEntry } from './intent-lexicon.js';
import { languageOfWords } from './language.js';
import type { Lemmatizer } from './lemmatizer.js';
import { negativeBlocks } from './negative-match.js';
import { parsePhrase, type ParsedPhrase, type PhraseWord } from './phrase.js';

export interface KeywordIntent {
  /** The lexicon entry that matched («своими руками»). */
  word: string;
  category: NegativeCategory;
}

const parsedEntries = new WeakMap<Lemmatizer, { entry: LexiconEntry; parsed: ParsedPhrase }[]>();

function entriesFor(lemmatizer: Lemmatizer) {
  let list = parsedEntries.get(lemmatizer);
  if (!list) {
    list = nonCommercialLexicon.filter((entry) => entry.keywordIntent).map((entry) => ({ entry, parsed: parsePhrase(entry.text, lemmatizer) }));
    parsedEntries.set(lemmatizer, list);
  }
  return list;
}

export function nonCommercialIntent(words: PhraseWord[], lemmatizer: Lemmatizer): KeywordIntent | null {
  const language = languageOfWords(words);
  if (!language) return null;
  for (const { entry, parsed } of entriesFor(lemmatizer)) {
    if (entry.language !== language) continue;
    if (!negativeBlocks(parsed, words, 'yandex_direct')) continue;
    if (entry.unlessWith && words.some((word) => entry.unlessWith!.includes(word.form) || word.lemmas.some((lemma) => entry.unlessWith!.includes(lemma)))) continue;
    return { word: entry.text, category: entry.category };
  }
  return null;
}

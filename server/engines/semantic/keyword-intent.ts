/**
 * Is a keyword itself non-commercial? Its words, read by lemma against the curated lists of its own
 * language (intent-lexicon.ts, entries marked `keywordIntent`): «цветы бесплатно», «букет своими
 * руками», «вакансии флорист», «iphone б/у», «free flowers». No statistics needed: the word says it.
 *
 * Ambiguous words (отзывы, обзор, рейтинг, reviews) are not here on purpose: for many businesses such a
 * keyword sells, so it stays with the negatives' «проверить вручную» and lowers no score.
 */
import type { NegativeCategory } from '../../../contract/analysis-results.js';
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

interface ParsedEntries {
  list: { entry: LexiconEntry; parsed: ParsedPhrase }[];
  /**
   * Positions in `list` by the form or lemmas of each entry's first significant word: an entry blocks no
   * phrase without that word (negative-match.ts), so a keyword tries only the entries its words name.
   */
  byWord: Map<string, number[]>;
}

const parsedEntries = new WeakMap<Lemmatizer, ParsedEntries>();

function entriesFor(lemmatizer: Lemmatizer): ParsedEntries {
  let entries = parsedEntries.get(lemmatizer);
  if (!entries) {
    const list = nonCommercialLexicon.filter((entry) => entry.keywordIntent).map((entry) => ({ entry, parsed: parsePhrase(entry.text, lemmatizer) }));
    const byWord = new Map<string, number[]>();
    list.forEach(({ parsed }, position) => {
      const first = parsed.significant[0];
      if (!first) return;
      for (const key of first.fixed || first.stop ? [first.form] : first.lemmas) {
        const positions = byWord.get(key);
        if (!positions) byWord.set(key, [position]);
        else if (!positions.includes(position)) positions.push(position);
      }
    });
    entries = { list, byWord };
    parsedEntries.set(lemmatizer, entries);
  }
  return entries;
}

export function nonCommercialIntent(words: PhraseWord[], lemmatizer: Lemmatizer): KeywordIntent | null {
  const language = languageOfWords(words);
  if (!language) return null;
  const { list, byWord } = entriesFor(lemmatizer);
  // The entries the phrase's words can match, in the lexicon's order (the first match is the answer).
  let positions: number[] | undefined;
  const collect = (key: string) => {
    const found = byWord.get(key);
    if (!found) return;
    positions ??= [];
    for (const position of found) if (!positions.includes(position)) positions.push(position);
  };
  for (const word of words) {
    collect(word.form);
    for (const lemma of word.lemmas) collect(lemma);
  }
  if (!positions) return null;
  positions.sort((a, b) => a - b);
  for (const position of positions) {
    const { entry, parsed } = list[position];
    if (entry.language !== language) continue;
    if (!negativeBlocks(parsed, words, 'yandex_direct')) continue;
    if (entry.unlessWith && words.some((word) => entry.unlessWith!.includes(word.form) || word.lemmas.some((lemma) => entry.unlessWith!.includes(lemma)))) continue;
    return { word: entry.text, category: entry.category };
  }
  return null;
}

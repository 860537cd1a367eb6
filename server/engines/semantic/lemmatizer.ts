/**
 * Russian lemmatisation with `az` (pymorphy2's OpenCorpora dictionaries, shipped inside the package and
 * read from disk: never from the network); words the dictionary does not know are joined by their
 * Snowball stem; English words are lower-cased and lightly stemmed.
 *
 * Why a dictionary first and a stemmer only for unknown words: measured on a hand-labelled sample of
 * ad-account words (tests/fixtures/analysis/lemma-sample.ts, figures in the README, «Движок анализа»,
 * asserted by lemmatizer-comparison.test.ts). A stemmer cuts endings by rule: it splits forms a
 * negative keyword must cover (окна/окон, дети/детей/ребенок, ковер/ковра) and merges words it must
 * keep apart (сталь/стал, полка/полк). The dictionary gets those right, but it does not know niche
 * product words (ламинат, керамогранит, профнастил) and its suffix guesses for them are inconsistent
 * (керамогранит → «керамогранить», керамогранита → «керамогранит», электросамокат → «самокат»),
 * while the stemmer joins their forms reliably. So: dictionary lemmas where the dictionary knows the
 * word, the stem where it does not.
 *
 * A dictionary costs memory (~12 MB) and start-up (~0.2 s) and is slower per word than a stemmer;
 * the per-word memo makes that irrelevant for ad accounts, whose vocabulary is a few thousand words
 * (the bench prints both speeds).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import Az from 'az';
import { snowballRussian } from './snowball-russian.js';

export interface LemmaInfo {
  /** The most likely lemma, lower case, ё→е. */
  lemma: string;
  /** Every dictionary lemma of the word (homonyms: стали → стать, сталь). */
  all: string[];
}

export interface Lemmatizer {
  /** Lemmas of one normalised (lower case, ё→е) word; memoised. */
  lemmatize(word: string): LemmaInfo;
  /** Words seen so far (size of the memo). */
  readonly vocabularySize: number;
  /** Words/s of the raw analyser without the memo, measured on `words` (for the bench). */
  measureRawSpeed(words: string[]): number;
}

let morphReady: Promise<void> | null = null;

function dictionaryDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('az/package.json')), 'dicts');
}

/** Loads the OpenCorpora dictionaries once per process (or worker thread). */
export function loadMorphology(): Promise<void> {
  morphReady ??= new Promise<void>((resolve, reject) => {
    Az.Morph.init(dictionaryDir(), (error) => (error ? reject(error) : resolve()));
  });
  return morphReady;
}

const CYRILLIC = /[а-я]/;
/** OpenCorpora's grammemes of first names, surnames and patronymics. */
const PERSON_NAME = /\b(Name|Surn|Patr)\b/;
const MORPH_OPTIONS = { ignoreCase: true };
const LATIN_WORD = /^[a-z]+$/;

/** A light English stemmer: plural and a few verb endings, enough to join "iphone"/"iphones", "repair"/"repairs". */
export function stemEnglish(word: string): string {
  if (!LATIN_WORD.test(word) || word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  return word;
}

const yoToE = (text: string) => text.replace(/ё/g, 'е');

export interface LemmatizerOptions {
  /** Words unknown to the dictionary: joined by their Snowball stem (default), or kept as they are (only to measure the difference). */
  unknownWords?: 'stem' | 'keep';
}

/** The dictionary's own parses of a word (none for a word it only guesses by suffix). */
function dictionaryParses(word: string) {
  // The dictionary keeps proper nouns capitalised (Москва, Казань); ignoreCase finds them from lower case.
  return Az.Morph(word, MORPH_OPTIONS).filter((parse) => parse.parser === 'Dictionary');
}

/** Whether the dictionary knows a normalised Cyrillic word (the bench counts the words that fall back to the stem). */
export const isDictionaryWord = (word: string): boolean => dictionaryParses(word).length > 0;

function analyse(word: string, unknownWords: 'stem' | 'keep'): LemmaInfo {
  if (!CYRILLIC.test(word)) {
    const stem = stemEnglish(word);
    return { lemma: stem, all: [stem] };
  }
  const dictionary = dictionaryParses(word);
  // Unknown words: az guesses by suffix, inconsistently (авито → авитый, керамогранит → керамогранить,
  // but керамогранита → керамогранит); the Snowball stem joins their forms the same way every time.
  if (dictionary.length === 0) {
    const lemma = unknownWords === 'stem' ? snowballRussian(word) : word;
    return { lemma, all: [lemma] };
  }
  // A person's name is a reading ads hardly ever mean when the word has another one («цветы» is not
  // a form of the name «Цвета», «розы» not of «Роза»): such readings are left out unless they are all there is.
  const common = dictionary.filter((parse) => !PERSON_NAME.test(String(parse.tag)));
  const all: string[] = [];
  for (const parse of common.length > 0 ? common : dictionary) {
    const lemma = yoToE(parse.normalize().word.toLowerCase());
    if (!all.includes(lemma)) all.push(lemma);
  }
  return { lemma: all[0], all };
}

/** A lemmatiser with its own memo; call `loadMorphology()` first. */
export function createLemmatizer(options: LemmatizerOptions = {}): Lemmatizer {
  const unknownWords = options.unknownWords ?? 'stem';
  const memo = new Map<string, LemmaInfo>();
  return {
    lemmatize(word) {
      let info = memo.get(word);
      if (!info) {
        info = analyse(word, unknownWords);
        memo.set(word, info);
      }
      return info;
    },
    get vocabularySize() {
      return memo.size;
    },
    measureRawSpeed(words) {
      const started = performance.now();
      for (const word of words) analyse(word, unknownWords);
      const seconds = (performance.now() - started) / 1000;
      return seconds > 0 ? Math.round(words.length / seconds) : Infinity;
    },
  };
}

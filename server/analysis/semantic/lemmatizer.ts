/**
 * Russian lemmatisation with `az` (pymorphy2's OpenCorpora dictionaries, shipped inside the package and
 * read from disk: never from the network), English words lower-cased and lightly stemmed.
 *
 * Why a morphology dictionary and not a stemmer. A Snowball-style Russian stemmer cuts endings by rule and
 * both over-merges and under-merges words a negative keyword must keep apart or together. Measured on
 * the same words (Snowball Russian as implemented in `tests/server/analysis-engine/snowball-russian.ts`,
 * see `lemmatizer.test.ts` which asserts these rows):
 *
 *   word          snowball   az (lemmas, ё→е)
 *   окна          окн        окно
 *   окон          окон       окно            ← the stemmer splits окна/окон (different stems), az joins them
 *   шуба, шубы    шуб        шуба
 *   норковая      норков     норковый
 *   авто          авт        авто
 *   автобус       автобус    автобус         (both keep авто ≠ автобус; a substring match would not)
 *   стали         стал       стать | сталь   ← one stem for two words; az knows both readings
 *   сталь         стал       сталь
 *   стал          стал       стать           ← the stemmer merges сталь (steel) with стал (became)
 *   дешево        дешев      дешевый | дешево
 *   дешевые       дешев      дешевый
 *   елки          елк        елка
 *   купил         куп        купить
 *   купить        куп        купить
 *   люди          люд        человек         ← suppletive forms only a dictionary knows
 *   дети          дет        ребенок
 *   пошел         пошел      пойти
 *   идти          идт        идти
 *   вакансии      ваканс     вакансия
 *   красивейший   красив     красивый
 *
 * A dictionary costs memory (~12 MB) and start-up (~0.2 s) and is slower per word (~50 000 words/s raw);
 * the per-word memo makes that irrelevant for ad accounts, whose vocabulary is a few thousand words.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import Az from 'az';

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

function analyse(word: string): LemmaInfo {
  if (!CYRILLIC.test(word)) {
    const stem = stemEnglish(word);
    return { lemma: stem, all: [stem] };
  }
  // The dictionary keeps proper nouns capitalised (Москва, Казань); ignoreCase finds them from lower case.
  const parses = Az.Morph(word, MORPH_OPTIONS);
  const dictionary = parses.filter((parse) => parse.parser === 'Dictionary');
  // Unknown words: az guesses by suffix, and its guesses for brands/abbreviations (авито → авитый) are
  // worse than the word itself, so an unknown word is its own lemma.
  if (dictionary.length === 0) return { lemma: word, all: [word] };
  const all: string[] = [];
  for (const parse of dictionary) {
    const lemma = yoToE(parse.normalize().word.toLowerCase());
    if (!all.includes(lemma)) all.push(lemma);
  }
  return { lemma: all[0], all };
}

/** A lemmatiser with its own memo; call `loadMorphology()` first. */
export function createLemmatizer(): Lemmatizer {
  const memo = new Map<string, LemmaInfo>();
  return {
    lemmatize(word) {
      let info = memo.get(word);
      if (!info) {
        info = analyse(word);
        memo.set(word, info);
      }
      return info;
    },
    get vocabularySize() {
      return memo.size;
    },
    measureRawSpeed(words) {
      const started = performance.now();
      for (const word of words) analyse(word);
      const seconds = (performance.now() - started) / 1000;
      return seconds > 0 ? Math.round(words.length / seconds) : Infinity;
    },
  };
}

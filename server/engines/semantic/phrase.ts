/**
 * Normalisation of keywords, negatives and queries into words with lemmas.
 *
 * - case folded, ё→е;
 * - Yandex operators stripped but remembered: `"…"` (exact word set), `[…]` (fixed order), `!` (fixed
 *   form), `+` (forced stop word), `(а|б)` (alternatives: their words are kept, the grouping dropped);
 * - minus-words (` -слово`) split off the phrase;
 * - Yandex ignores prepositions, conjunctions and particles unless `+`/`!` marks them, so they are not
 *   "significant" for duplicates, cross-minus and negative matching.
 */
import type { MatchType } from '../../../contract/campaigns.js';
import type { Lemmatizer } from './lemmatizer.js';

/** Shared between every occurrence of the same word (see `parseWords`): never mutate one (but `settleHomonyms`, once, before the engines read them). */
export interface PhraseWord {
  /** Normalised surface form (lower case, ё→е). */
  form: string;
  lemma: string;
  lemmas: string[];
  /** `!слово`: only this form matches. */
  fixed: boolean;
  /** `+слово`: a stop word that counts. */
  forced: boolean;
  stop: boolean;
}

export interface ParsedPhrase {
  words: PhraseWord[];
  /** Words that take part in matching: not stop words, or stop words marked with `+`/`!`. */
  significant: PhraseWord[];
  /** Minus-words split off the phrase text plus the keyword's own `negativeWords`, normalised. */
  minus: ParsedPhrase[];
  /** `"…"` in Yandex, phrase match in Google negatives notation. */
  quoted: boolean;
  /** `[…]` in Yandex / `[…]` exact in Google negatives notation. */
  bracketed: boolean;
  /** Sorted unique significant lemmas (fixed words as `!form`), space-separated: the phrase's meaning for dedup (`lemmasOfKey` splits it). */
  lemmaKey: string;
}

const STOP_WORDS = new Set([
  // Russian prepositions, conjunctions, particles (Yandex's stop words)
  'а', 'без', 'в', 'во', 'для', 'до', 'же', 'за', 'и', 'из', 'или', 'к', 'ко', 'ли', 'на', 'над', 'не', 'ни', 'но', 'о',
  'об', 'от', 'по', 'под', 'при', 'про', 'с', 'со', 'у', 'бы', 'то', 'через', 'около', 'перед', 'между',
  // English
  'a', 'an', 'the', 'for', 'of', 'in', 'on', 'to', 'and', 'or', 'with', 'at', 'by',
]);

export const isStopWord = (form: string) => STOP_WORDS.has(form);

/**
 * Characters `toLowerCase` leaves as they are: ASCII other than A-Z, Latin-1 signs before À, Cyrillic
 * а-я and ѐ-џ, general punctuation (dashes, quotes).
 */
const keepsCase = (code: number) => code < 65 || (code > 90 && code < 0xc0) || (code >= 0x430 && code <= 0x45f) || (code >= 0x2000 && code <= 0x206f);

export function normalizeText(text: string): string {
  // Keywords and queries are mostly written in lower case already: then there is nothing to lower.
  let lower = text;
  let yo = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!keepsCase(code)) {
      lower = text.toLowerCase();
      yo = lower.includes('ё');
      break;
    }
    if (code === 0x451) yo = true;
  }
  return yo ? lower.replace(/ё/g, 'е') : lower;
}

/** A character of a word: a-z, а-я (ё is folded to е before), 0-9. */
const isWordChar = (code: number) => (code >= 97 && code <= 122) || (code >= 0x430 && code <= 0x44f) || (code >= 48 && code <= 57);

const SLASH = 47;
const BANG = 33;
const PLUS = 43;

/**
 * Words with their operator prefix in a normalised text: `б/у` stays one word, a hyphen splits (as
 * Yandex does). Exactly the matches of `/([!+]?)([a-zа-я0-9]+(?:\/[a-zа-я0-9]+)*)/g`, scanned by hand:
 * no match object per word (prepare parses every keyword, ad and query of the account, millions of words).
 */
function scanWords(text: string, visit: (form: string, op: '' | '!' | '+') => void): void {
  const length = text.length;
  let i = 0;
  while (i < length) {
    let code = text.charCodeAt(i);
    let op: '' | '!' | '+' = '';
    if (!isWordChar(code)) {
      // `[!+]?` takes the operator only right before a word; otherwise the scan moves on.
      if ((code === BANG || code === PLUS) && i + 1 < length && isWordChar(text.charCodeAt(i + 1))) {
        op = code === BANG ? '!' : '+';
        i++;
      } else {
        i++;
        continue;
      }
    }
    const start = i;
    for (;;) {
      while (i < length && isWordChar(text.charCodeAt(i))) i++;
      // `(?:\/[a-zа-я0-9]+)*`: a slash joins the next run only when a word character follows it.
      if (i + 1 < length && text.charCodeAt(i) === SLASH && isWordChar(text.charCodeAt(i + 1))) {
        i++;
        continue;
      }
      break;
    }
    visit(text.slice(start, i), op);
  }
}

export function tokenize(text: string): { form: string; op: '' | '!' | '+' }[] {
  const result: { form: string; op: '' | '!' | '+' }[] = [];
  scanWords(normalizeText(text), (form, op) => result.push({ form, op }));
  return result;
}

/** Splits `окна на заказ -дешево -!жалюзи` into the phrase and its minus-words (without `-`). */
export function splitMinusWords(text: string): { phrase: string; minus: string[] } {
  // Without a hyphen there is nothing to split off (most keywords): no regular expression needed.
  if (!text.includes('-')) return { phrase: text.trim(), minus: [] };
  const parts = text.split(/\s+-(?=[^\s-])/);
  const phrase = parts[0].trim().replace(/^-+(?=\S)/, '');
  return { phrase, minus: parts.slice(1).map((part) => part.trim()).filter(Boolean) };
}

/**
 * One shared, read-only `PhraseWord` per distinct form and operator of a lemmatiser's account: a
 * million keywords repeat a few thousand words, and an object per occurrence was most of the
 * prepared account's memory. A table per operator, so the form itself is the key (no string built per word).
 */
interface WordTable {
  plain: Map<string, PhraseWord>;
  fixed: Map<string, PhraseWord>;
  forced: Map<string, PhraseWord>;
}

const internedWords = new WeakMap<Lemmatizer, WordTable>();

function wordTable(lemmatizer: Lemmatizer): WordTable {
  let table = internedWords.get(lemmatizer);
  if (!table) internedWords.set(lemmatizer, (table = { plain: new Map(), fixed: new Map(), forced: new Map() }));
  return table;
}

function phraseWord(form: string, op: '' | '!' | '+', table: WordTable, lemmatizer: Lemmatizer): PhraseWord {
  const words = op === '' ? table.plain : op === '!' ? table.fixed : table.forced;
  let word = words.get(form);
  if (!word) {
    const info = lemmatizer.lemmatize(form);
    word = { form, lemma: info.lemma, lemmas: info.all, fixed: op === '!', forced: op === '+', stop: isStopWord(form) };
    words.set(form, word);
  }
  return word;
}

/**
 * Homonyms read the way the account reads them. A form with several dictionary lemmas takes, as its
 * lemma, the one the most distinct words of the account share (then the dictionary's likeliest):
 * «цветов» is a form of both «цвет» (colour) and «цветок»; in a flower shop whose texts also say
 * «цветы», «цветок», «цветка» it is «цветок», in a paint shop saying «цвет», «цвета» it is «цвет».
 * Without that «доставка цветов» (цвет) and «цветы с доставкой» (цветок) were two topics, two
 * clusters and never duplicates. Call once, after every text of the account is parsed and before any
 * engine reads a lemma; returns the words whose lemma changed (phrases holding them need a new key).
 */
export function settleHomonyms(lemmatizer: Lemmatizer): Set<PhraseWord> {
  const table = wordTable(lemmatizer);
  const tables = [table.plain, table.fixed, table.forced];
  const support = new Map<string, number>();
  const counted = new Set<string>();
  for (const words of tables) {
    for (const word of words.values()) {
      if (word.stop || counted.has(word.form)) continue;
      counted.add(word.form);
      for (const lemma of word.lemmas) support.set(lemma, (support.get(lemma) ?? 0) + 1);
    }
  }
  const changed = new Set<PhraseWord>();
  for (const words of tables) {
    for (const word of words.values()) {
      if (word.lemmas.length < 2) continue;
      let best = word.lemma;
      for (const lemma of word.lemmas) if ((support.get(lemma) ?? 0) > (support.get(best) ?? 0)) best = lemma;
      if (best === word.lemma) continue;
      word.lemma = best;
      changed.add(word);
    }
  }
  return changed;
}

/** The `lemmaKey` of a phrase's significant words again, after `settleHomonyms` changed a lemma. */
export const lemmaKeyOf = (significant: PhraseWord[]): string => keyOf(significant);

export function parseWords(text: string, lemmatizer: Lemmatizer): PhraseWord[] {
  const table = wordTable(lemmatizer);
  const words: PhraseWord[] = [];
  scanWords(normalizeText(text), (form, op) => words.push(phraseWord(form, op, table, lemmatizer)));
  return words;
}

/**
 * A phrase's few distinct strings, sorted as `Array.prototype.sort()` sorts them (by UTF-16 code units)
 * and joined by spaces. In place, by insertion: the built-in sort sets up a work area per call, and
 * this runs for every keyword (its lemma key, its topic).
 */
export function sortedKey(strings: string[]): string {
  if (strings.length === 1) return strings[0];
  for (let i = 1; i < strings.length; i++) {
    const value = strings[i];
    let j = i - 1;
    for (; j >= 0 && strings[j] > value; j--) strings[j + 1] = strings[j];
    strings[j + 1] = value;
  }
  return strings.join(' ');
}

/** Sorted unique significant lemmas (fixed words as `!form`), space-separated. */
function keyOf(words: PhraseWord[]): string {
  // A phrase has a handful of words: a list and `includes` beat a Set.
  const keys: string[] = [];
  for (const word of words) {
    const key = word.fixed ? `!${word.form}` : word.lemma;
    if (!keys.includes(key)) keys.push(key);
  }
  return sortedKey(keys);
}

/** The lemmas of a `lemmaKey`, sorted (the key is built sorted). */
export const lemmasOfKey = (key: string): string[] => (key === '' ? [] : key.split(' '));

const noMinus: ParsedPhrase[] = [];

/**
 * Parses a phrase in platform notation. `extraMinus` are the keyword's `negativeWords`.
 * Google keywords are bare text with a match type; pass it so `phrase`/`exact` count as quoted/bracketed.
 */
export function parsePhrase(text: string, lemmatizer: Lemmatizer, extraMinus: string[] = [], matchType?: MatchType): ParsedPhrase {
  const { phrase, minus } = splitMinusWords(text);
  const trimmed = phrase.trim();
  const words = parseWords(trimmed, lemmatizer);
  const filtered = words.filter((word) => !word.stop || word.forced || word.fixed);
  // The same array when nothing was filtered out: one array less per keyword.
  const significant = filtered.length === 0 || filtered.length === words.length ? words : filtered;
  const minusTexts = minus.length + extraMinus.length > 0 ? [...minus, ...extraMinus] : null;
  return {
    words,
    significant,
    minus: minusTexts ? minusTexts.map((item) => parsePhrase(item.replace(/^-/, ''), lemmatizer)) : noMinus,
    quoted: trimmed.startsWith('"') || matchType === 'phrase' || matchType === 'exact',
    bracketed: trimmed.startsWith('[') || matchType === 'exact',
    lemmaKey: keyOf(significant),
  };
}

/** The phrase written back in Yandex notation with minus-words: `окна на заказ -дешево -жалюзи`. */
export function withMinusWords(phrase: string, minus: string[]): string {
  return [phrase.trim(), ...minus.map((word) => `-${word}`)].join(' ');
}

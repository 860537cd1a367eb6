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
import type { MatchType } from '../../../src/contract/campaigns.js';
import type { Lemmatizer } from './lemmatizer.js';

/** Shared between every occurrence of the same word (see `parseWords`): never mutate one. */
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

export function normalizeText(text: string): string {
  return text.toLowerCase().replace(/ё/g, 'е');
}

/** Words with their operator prefix; `б/у` stays one word, a hyphen splits (as Yandex does). */
const WORD = /([!+]?)([a-zа-я0-9]+(?:\/[a-zа-я0-9]+)*)/g;

export function tokenize(text: string): { form: string; op: '' | '!' | '+' }[] {
  const result: { form: string; op: '' | '!' | '+' }[] = [];
  for (const match of normalizeText(text).matchAll(WORD)) result.push({ form: match[2], op: match[1] as '' | '!' | '+' });
  return result;
}

/** Splits `окна на заказ -дешево -!жалюзи` into the phrase and its minus-words (without `-`). */
export function splitMinusWords(text: string): { phrase: string; minus: string[] } {
  const parts = text.split(/\s+-(?=[^\s-])/);
  const phrase = parts[0].trim().replace(/^-+(?=\S)/, '');
  return { phrase, minus: parts.slice(1).map((part) => part.trim()).filter(Boolean) };
}

/**
 * One shared, read-only `PhraseWord` per distinct form and operator of a lemmatiser's account: a
 * million keywords repeat a few thousand words, and an object per occurrence was most of the
 * prepared account's memory.
 */
const internedWords = new WeakMap<Lemmatizer, Map<string, PhraseWord>>();

function phraseWord(form: string, op: '' | '!' | '+', lemmatizer: Lemmatizer): PhraseWord {
  let words = internedWords.get(lemmatizer);
  if (!words) internedWords.set(lemmatizer, (words = new Map()));
  const key = op + form;
  let word = words.get(key);
  if (!word) {
    const info = lemmatizer.lemmatize(form);
    word = { form, lemma: info.lemma, lemmas: info.all, fixed: op === '!', forced: op === '+', stop: isStopWord(form) };
    words.set(key, word);
  }
  return word;
}

export function parseWords(text: string, lemmatizer: Lemmatizer): PhraseWord[] {
  return tokenize(text).map(({ form, op }) => phraseWord(form, op, lemmatizer));
}

/** Sorted unique significant lemmas (fixed words as `!form`), space-separated. */
function keyOf(words: PhraseWord[]): string {
  const set = new Set<string>();
  for (const word of words) set.add(word.fixed ? `!${word.form}` : word.lemma);
  return [...set].sort().join(' ');
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

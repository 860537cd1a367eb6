/**
 * Shortened ad copy that still reads as copy. A proposed fix for a field over its limit must be
 * something an advertiser would publish, so:
 * - a text loses a whole trailing clause (after «.», «!», «?», «;», «:», «,» or a spaced dash) before it
 *   loses single words; words are only ever dropped whole;
 * - it never ends on a function word (preposition, conjunction, particle, a determiner waiting for its
 *   noun: «…под ваш бюджет и», «…delivery for the»): such words are dropped too;
 * - no dangling comma, colon or dash; the text's own final «.» or «!» comes back when the limit allows
 *   it (with Direct's counting, narrow punctuation is free up to 15 marks — the caller's `measure`);
 * - a cut that keeps less than half of the text's content (the letters of its words other than function
 *   words) is no fix: the field needs rewriting by
 *   a person (`null`), and so does a text no cut brings under the limit.
 * Display links and Google paths are cut at `-`/`_`/`/` between words, never inside a word.
 */

export type Measure = (value: string) => number;

const plainLength: Measure = (value) => value.length;

/** Words a phrase cannot end on. Lower case; `ё` as `е`. */
const RUSSIAN_FUNCTION_WORDS = [
  // prepositions
  'в', 'во', 'на', 'с', 'со', 'для', 'под', 'подо', 'по', 'из', 'изо', 'к', 'ко', 'от', 'ото', 'до', 'о', 'об', 'обо',
  'у', 'за', 'над', 'при', 'про', 'через', 'без', 'безо', 'между', 'перед', 'пред', 'около', 'возле', 'среди', 'вокруг', 'после',
  // conjunctions
  'и', 'а', 'но', 'или', 'либо', 'да', 'что', 'чтобы', 'как', 'если', 'когда', 'чем', 'так', 'также', 'тоже', 'зато', 'однако', 'причем', 'притом',
  // particles
  'не', 'ни', 'же', 'ли', 'бы', 'ведь', 'вот', 'лишь', 'уже', 'еще', 'даже',
  // determiners and possessives that wait for their noun
  'ваш', 'ваша', 'ваше', 'ваши', 'вашего', 'вашей', 'вашу', 'вашим', 'ваших', 'наш', 'наша', 'наше', 'наши', 'нашего', 'нашей', 'нашу', 'нашим', 'наших',
  'свой', 'своя', 'свое', 'свои', 'своего', 'своей', 'свою', 'этот', 'эта', 'это', 'эти', 'каждый', 'каждая', 'каждое', 'любой', 'любая', 'любое', 'любые', 'весь', 'вся', 'все',
];

const ENGLISH_FUNCTION_WORDS = [
  'and', 'or', 'but', 'nor', 'of', 'for', 'to', 'with', 'without', 'the', 'a', 'an', 'in', 'on', 'at', 'by', 'from', 'into', 'onto',
  'as', 'than', 'that', 'if', 'so', 'not', 'no', 'via', 'per', 'about', 'over', 'under', 'up', 'off', 'out', 'upon', 'within',
  'your', 'our', 'their', 'its', 'my', 'his', 'her', 'this', 'these', 'those', 'every', 'each', 'any', 'some', 'all', 'is', 'are', '&', '+',
];

/** Prepositions as they appear in a transliterated display link («dostavka-v-moskve»). */
const TRANSLITERATED_FUNCTION_WORDS = ['v', 'vo', 'na', 's', 'so', 'dlya', 'dlia', 'pod', 'po', 'iz', 'k', 'ot', 'do', 'o', 'ob', 'u', 'za', 'pri', 'pro', 'bez', 'i', 'ili'];

const FUNCTION_WORDS = new Set([...RUSSIAN_FUNCTION_WORDS, ...ENGLISH_FUNCTION_WORDS]);
const SLUG_FUNCTION_WORDS = new Set([...FUNCTION_WORDS, ...TRANSLITERATED_FUNCTION_WORDS]);

/** The share of the text's content (letters of its content words) a cut keeps at least; with less it is a different ad. */
const MIN_KEPT_SHARE = 0.5;

/** A Latin or Cyrillic letter or a digit after lower-casing: \p{L}/\p{N}, so nothing to strip at that end. */
const isPlainWordChar = (code: number) => (code >= 97 && code <= 122) || (code >= 0x430 && code <= 0x44f) || (code >= 48 && code <= 57);

const bareWord = (word: string) => {
  const lower = word.toLowerCase();
  const folded = lower.includes('ё') ? lower.replace(/ё/g, 'е') : lower;
  // Most words start and end on a letter: the regular expression (Unicode classes) is only for the rest.
  if (folded.length > 0 && isPlainWordChar(folded.charCodeAt(0)) && isPlainWordChar(folded.charCodeAt(folded.length - 1))) return folded;
  return folded.replace(/^[^\p{L}\p{N}&+]+|[^\p{L}\p{N}&+]+$/gu, '');
};

/** How much meaning a text carries: the letters of its words other than function words and stray marks. */
const contentLength = (text: string) =>
  text
    .split(/\s+/)
    .map(bareWord)
    .filter((word) => word && !FUNCTION_WORDS.has(word))
    .reduce((sum, word) => sum + word.length, 0);

/** Trailing separators, dashes, opening brackets and quotes that would dangle at the end. */
const DANGLING_END = /[\s,;:–—\-−/(«„"“'[]+$/u;

/** `\s` of a regular expression, by code. */
const isSpace = (code: number) =>
  code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;

/**
 * Where the text's last word starts (`index`: the space before it, or 0) and the word, as
 * `/(^|\s)(\S+)$/u` matches them, or null when the text ends on a space or is empty. A scan back from the
 * end: the expression tried every position of the text, for every candidate cut of every ad.
 */
function lastWord(text: string): { index: number; word: string } | null {
  let start = text.length;
  while (start > 0 && !isSpace(text.charCodeAt(start - 1))) start--;
  if (start === text.length) return null;
  return { index: start === 0 ? 0 : start - 1, word: text.slice(start) };
}

/** Drops dangling punctuation and function words from the end, until the text ends on a content word. */
function tidyEnd(text: string): string {
  let result = text.replace(DANGLING_END, '');
  for (;;) {
    const match = lastWord(result);
    if (!match || !FUNCTION_WORDS.has(bareWord(match.word))) break;
    // A word glued to a mark before it ends a clause: «услуги, и» → «услуги».
    result = result.slice(0, match.index).replace(DANGLING_END, '');
  }
  return result.replace(/[.!?…]+$/u, '').replace(DANGLING_END, '').trimEnd();
}

/** The text with `mark` after it when the limit allows, else without. */
function withMark(text: string, mark: string, limit: number, measure: Measure): string {
  return mark && measure(text + mark) <= limit ? text + mark : text;
}

/**
 * The field's text shortened to `limit` as `measure` counts it, or null when only a person can shorten
 * it (no clause or word cut fits, or the cut keeps less than half of its content).
 */
export function shortenCopy(text: string, limit: number, measure: Measure = plainLength): string | null {
  const source = text.trim();
  if (measure(source) <= limit) return source;
  const finalMark = /[.!]$/.exec(source)?.[0] ?? '';
  const minContent = contentLength(source) * MIN_KEPT_SHARE;
  // The length first: a cut over the limit is ruled out without counting its content.
  const acceptable = (candidate: string) => candidate.length > 0 && measure(candidate) <= limit && contentLength(candidate) >= minContent;

  // 1. Whole clauses: the longest run of complete clauses that fits.
  let best: string | null = null;
  for (const boundary of source.matchAll(/([.!?…;:,])\s+|\s+[–—-]\s+/gu)) {
    const sentenceMark = boundary[1] && /[.!?…]/u.test(boundary[1]) ? boundary[1] : '';
    const kept = tidyEnd(source.slice(0, boundary.index));
    if (!kept) continue;
    const candidate = withMark(kept, sentenceMark || finalMark, limit, measure);
    if (acceptable(candidate) && (best === null || candidate.length > best.length)) best = candidate;
  }
  if (best !== null) return best;

  // 2. Whole words: the longest prefix of words that fits once its end is tidied.
  const words = source.split(/\s+/);
  for (let count = words.length - 1; count > 0; count--) {
    const kept = tidyEnd(words.slice(0, count).join(' '));
    if (!kept) continue;
    const candidate = withMark(kept, finalMark, limit, measure);
    if (measure(candidate) <= limit) return acceptable(candidate) ? candidate : null;
  }
  return null;
}

/**
 * A display link (Direct «Отображаемая ссылка») or a Google path shortened to `limit` by dropping whole
 * words from its end (words are parted by `-`, `_`, `/` or a space), or null when its first word alone
 * is over the limit.
 */
export function shortenSlug(slug: string, limit: number): string | null {
  const source = slug.trim();
  if (source.length <= limit) return source;
  const words = source.split(/(?=[-_/\s])/u);
  for (let count = words.length - 1; count > 0; count--) {
    const kept = words.slice(0, count);
    while (kept.length > 1 && SLUG_FUNCTION_WORDS.has(bareWord(kept[kept.length - 1]))) kept.pop();
    const candidate = kept.join('').replace(/[-_/\s]+$/u, '');
    if (candidate && candidate.length <= limit && !SLUG_FUNCTION_WORDS.has(bareWord(candidate))) return candidate;
  }
  return null;
}

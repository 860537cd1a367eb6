/**
 * Keyword texts in each platform's notation.
 *
 * Yandex Direct: `купить диван -бесплатно -б/у` is the phrase `купить диван` with minus-words
 * `бесплатно`, `б/у`. Operators stay in the phrase: `"…"` (exactly these words), `[…]` (word order),
 * `!` (word form), `+` (stop word), `(а|б)` (alternatives). A `-` inside a word (`диван-кровать`) or inside
 * quotes/brackets is not a minus-word. The match type is our reading of the operators, for engines that
 * think in Google's terms: quotes → phrase; quotes around a fully fixed phrase (every word `!` or the whole
 * phrase in `[]`) → exact; otherwise broad.
 *
 * Google Ads: the keyword is bare and the match type comes from Criterion Type; negatives are written
 * `word` (broad), `"word"` (phrase), `[word]` (exact).
 */
import type { MatchType } from '../../../contract/campaigns.js';

export const AUTOTARGETING_PHRASE = '---autotargeting';

export interface ParsedYandexPhrase {
  phrase: string;
  negativeWords: string[];
  matchType: MatchType;
  isAutotargeting: boolean;
}

const AUTOTARGETING_RU = 'автотаргетинг';

export function isAutotargeting(raw: string): boolean {
  const trimmed = raw.trim();
  // Lower-casing never shortens a text (only «İ» lengthens, adding a combining dot neither name has), so
  // a text of another length is neither name: no lower-cased copy of every keyword of an export.
  if (trimmed.length !== AUTOTARGETING_PHRASE.length && trimmed.length !== AUTOTARGETING_RU.length) return false;
  const text = trimmed.toLowerCase();
  return text === AUTOTARGETING_PHRASE || text === AUTOTARGETING_RU;
}

/** `\s` of a regular expression (NBSP included), by code. */
const isSpace = (code: number) =>
  code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;

/**
 * Runs of whitespace (NBSP included) as one space: `text.replace(/[\s\u00a0]+/g, ' ')`, without the
 * replace when there is nothing to change (a lone plain space everywhere: nearly every cell).
 */
export function collapseSpaces(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isSpace(code) && (code !== 32 || (i + 1 < text.length && isSpace(text.charCodeAt(i + 1))))) return text.replace(/[\s\u00a0]+/g, ' ');
  }
  return text;
}

export function parseYandexPhrase(raw: string): ParsedYandexPhrase {
  const text = collapseSpaces(raw).trim();
  if (isAutotargeting(text)) {
    return { phrase: AUTOTARGETING_PHRASE, negativeWords: [], matchType: 'broad', isAutotargeting: true };
  }
  // No minus-word without a hyphen (most keywords): the tokens joined again would be the text itself.
  if (!text.includes('-')) return { phrase: text, negativeWords: [], matchType: yandexMatchType(text), isAutotargeting: false };
  const kept: string[] = [];
  const negativeWords: string[] = [];
  for (const token of tokenize(text)) {
    if (token.length > 1 && token.startsWith('-')) {
      const word = token.replace(/^-+/, '').trim();
      if (word && !negativeWords.includes(word)) negativeWords.push(word);
    } else if (token !== '-') {
      kept.push(token);
    }
  }
  const phrase = kept.join(' ');
  return { phrase, negativeWords, matchType: yandexMatchType(phrase), isAutotargeting: false };
}

const QUOTE = 34;
const SPACE = 32;
const isOpening = (code: number) => code === 40 || code === 91; // ( [
const isClosing = (code: number) => code === 41 || code === 93; // ) ]

/**
 * Whitespace-separated tokens, but a quoted or bracketed part stays one token with its spaces. Each token
 * is sliced out of the text where it ends (a token built character by character was most of the parse).
 */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let start = 0;
  let inQuotes = false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) inQuotes = !inQuotes;
    else if (isOpening(code)) depth += 1;
    else if (isClosing(code) && depth > 0) depth -= 1;
    if (code === SPACE && !inQuotes && depth === 0) {
      if (i > start) tokens.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (text.length > start) tokens.push(text.slice(start));
  return tokens;
}

function yandexMatchType(phrase: string): MatchType {
  if (phrase.length >= 2 && phrase.startsWith('"') && phrase.endsWith('"')) {
    const inner = phrase.slice(1, -1).trim();
    const wholeInBrackets = inner.startsWith('[') && inner.endsWith(']') && inner.indexOf(']') === inner.length - 1;
    const words = inner.replace(/[[\]]/g, ' ').split(/\s+/).filter(Boolean);
    const allFixed = words.length > 0 && words.every((word) => word.startsWith('!') || word.startsWith('+'));
    return wholeInBrackets || allFixed ? 'exact' : 'phrase';
  }
  return 'broad';
}

/**
 * A list of minus-words/phrases from one cell: `-бесплатно -своими руками`, `бесплатно, б/у`,
 * `бесплатно||б/у` or one per line. Returned without the leading `-`, duplicates dropped.
 */
export function parseNegativeList(raw: string): string[] {
  const result: string[] = [];
  if (!raw || raw.trim() === '') return result;
  for (const part of raw.split(/\|\||[\n\r,;]+/)) {
    const pieces = /(^|\s)-\S/.test(part) ? part.split(/(?:^|\s)-(?=\S)/) : [part];
    for (const piece of pieces) {
      const word = piece.replace(/[\s\u00a0]+/g, ' ').trim().replace(/^-+/, '').trim();
      if (word && !result.includes(word)) result.push(word);
    }
  }
  return result;
}

/** Google keyword text with its match type: `[a]` exact, `"a"` phrase, `+a` modified broad → broad. */
export function parseGoogleKeyword(raw: string): { text: string; matchType: MatchType | null } {
  const text = raw.replace(/[\s\u00a0]+/g, ' ').trim();
  if (text.length >= 2 && text.startsWith('[') && text.endsWith(']')) return { text: text.slice(1, -1).trim(), matchType: 'exact' };
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return { text: text.slice(1, -1).trim(), matchType: 'phrase' };
  return { text, matchType: null };
}

export function googleNegativeNotation(text: string, matchType: MatchType): string {
  if (matchType === 'exact') return `[${text}]`;
  if (matchType === 'phrase') return `"${text}"`;
  return text;
}

/** Match type from a Google column value: `Exact`, `Phrase match`, `Broad`, `Точное соответствие`… */
export function matchTypeFromLabel(raw: string): MatchType | null {
  const text = raw.trim().toLowerCase();
  if (text === '') return null;
  if (text.includes('exact') || text.includes('точн')) return 'exact';
  if (text.includes('phrase') || text.includes('фраз')) return 'phrase';
  if (text.includes('broad') || text.includes('широк')) return 'broad';
  return null;
}

/** Key used to find a keyword again from a report: lower case, `ё`→`е`, minus-words and extra spaces gone. */
export function phraseKey(phrase: string): string {
  return phrase.toLowerCase().replace(/ё/g, 'е').replace(/[\s\u00a0]+/g, ' ').trim();
}

/** The same key without any operator characters, for reports that print phrases bare. */
export function barePhraseKey(phrase: string): string {
  return phraseKey(phrase.replace(/["[\]!+]/g, ' '));
}

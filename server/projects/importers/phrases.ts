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

export function isAutotargeting(raw: string): boolean {
  const text = raw.trim().toLowerCase();
  return text === AUTOTARGETING_PHRASE || text === 'автотаргетинг';
}

export function parseYandexPhrase(raw: string): ParsedYandexPhrase {
  const text = raw.replace(/[\s\u00a0]+/g, ' ').trim();
  if (isAutotargeting(text)) {
    return { phrase: AUTOTARGETING_PHRASE, negativeWords: [], matchType: 'broad', isAutotargeting: true };
  }
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

/** Whitespace-separated tokens, but a quoted or bracketed part stays one token with its spaces. */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let current = '';
  let inQuotes = false;
  let depth = 0;
  for (const char of text) {
    if (char === '"') inQuotes = !inQuotes;
    else if (char === '[' || char === '(') depth += 1;
    else if ((char === ']' || char === ')') && depth > 0) depth -= 1;
    if (char === ' ' && !inQuotes && depth === 0) {
      if (current) tokens.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  if (current) tokens.push(current);
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

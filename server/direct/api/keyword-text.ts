import type { MatchType } from '../../../contract/campaigns.js';

/**
 * Splitting a Direct keyword as the API returns it (`купить шубу -норковая -[из москвы]`) into the
 * phrase and its minus-words, keeping every operator of the phrase as written.
 *
 * Operators (official help): `-слово` minus-word, `!` fixed form, `+` forced stop word, `"…"` exactly
 * these words, `[…]` fixed order, `(а|б)` alternatives. Minus-words follow the phrase, each starting
 * with `-` after a space; a `-` inside a word (`санкт-петербург`) or inside quotes/brackets is not one.
 */

export const AUTOTARGETING_PHRASE = '---autotargeting';

export interface SplitKeyword {
  phrase: string;
  negativeWords: string[];
  matchType: MatchType;
  isAutotargeting: boolean;
}

export function splitKeyword(text: string): SplitKeyword {
  const trimmed = text.trim();
  if (trimmed === AUTOTARGETING_PHRASE) return { phrase: trimmed, negativeWords: [], matchType: 'broad', isAutotargeting: true };

  const cuts = minusPositions(trimmed);
  const phrase = (cuts.length > 0 ? trimmed.slice(0, cuts[0]) : trimmed).trim();
  const negativeWords = cuts
    .map((start, i) => trimmed.slice(start + 1, cuts[i + 1] ?? trimmed.length).trim())
    .filter((word) => word !== '');
  return { phrase, negativeWords, matchType: matchTypeOf(phrase), isAutotargeting: false };
}

/** Positions of the `-` that start a minus-word: after whitespace, outside quotes, brackets and parentheses. */
function minusPositions(text: string): number[] {
  const positions: number[] = [];
  let inQuotes = false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') inQuotes = !inQuotes;
    else if (char === '[' || char === '(') depth++;
    else if ((char === ']' || char === ')') && depth > 0) depth--;
    else if (char === '-' && !inQuotes && depth === 0 && (i === 0 || /\s/.test(text[i - 1]!))) positions.push(i);
  }
  return positions;
}

/**
 * The nearest of the model's three match types: a quoted phrase whose every word is also fixed
 * with `!` (or wrapped in `[]`) behaves as exact; quotes alone as phrase; no quotes as broad.
 */
export function matchTypeOf(phrase: string): MatchType {
  const quoted = /^"[^"]*"$/.test(phrase);
  if (!quoted) return 'broad';
  const inner = phrase.slice(1, -1).trim();
  if (/^\[[^\]]*\]$/.test(inner)) return 'exact';
  const words = inner.split(/\s+/).filter(Boolean);
  return words.length > 0 && words.every((word) => word.startsWith('!')) ? 'exact' : 'phrase';
}

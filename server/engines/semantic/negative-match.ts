/**
 * Does a negative keyword block a query (or a keyword)? Word by word, never by substring:
 * 'авто' does not block 'автобус'.
 *
 * Yandex Direct: a minus-word blocks every form of the word (here: the word's lemmas intersect),
 * `!слово` only that form, a stop word only itself; a minus-phrase blocks queries holding all its
 * words; `"…"` also needs the same number of words; `[…]` keeps the order.
 * Google Ads: negatives do not extend to close variants, so words compare by form; broad = all words
 * in any order, `"phrase"` = the words in a row, `[exact]` = exactly these words.
 */
import type { AdPlatform } from '../../../contract/campaigns.js';
import type { ParsedPhrase, PhraseWord } from './phrase.js';

function sameLemma(a: PhraseWord, b: PhraseWord): boolean {
  // Words are shared per form (phrase.ts parseWords): the same word is a common case, decided without a scan.
  if (a === b) return a.lemmas.length > 0;
  for (const lemma of a.lemmas) if (b.lemmas.includes(lemma)) return true;
  return false;
}

function yandexWordMatches(negative: PhraseWord, word: PhraseWord): boolean {
  if (negative.fixed || negative.stop) return negative.form === word.form;
  return sameLemma(negative, word);
}

function blocksYandex(negative: ParsedPhrase, words: PhraseWord[]): boolean {
  const needed = negative.significant;
  if (needed.length === 0) return false;
  let lastPosition = -1;
  for (const want of needed) {
    let position = -1;
    for (let i = 0; i < words.length; i++) {
      if (yandexWordMatches(want, words[i]) && (!negative.bracketed || i > lastPosition)) {
        position = i;
        break;
      }
    }
    if (position < 0) return false;
    lastPosition = position;
  }
  if (negative.quoted) {
    const significantCount = words.filter((word) => !word.stop || word.forced || word.fixed).length;
    if (significantCount !== needed.length) return false;
  }
  return true;
}

function blocksGoogle(negative: ParsedPhrase, words: PhraseWord[]): boolean {
  const want = negative.words.map((word) => word.form);
  const have = words.map((word) => word.form);
  if (want.length === 0) return false;
  if (negative.bracketed) return want.length === have.length && want.every((form, i) => form === have[i]);
  if (negative.quoted) {
    for (let start = 0; start + want.length <= have.length; start++) {
      if (want.every((form, i) => have[start + i] === form)) return true;
    }
    return false;
  }
  return want.every((form) => have.includes(form));
}

/** True when `negative` keeps an ad from showing on a query made of `words`. */
export function negativeBlocks(negative: ParsedPhrase, words: PhraseWord[], platform: AdPlatform): boolean {
  return platform === 'google_ads' ? blocksGoogle(negative, words) : blocksYandex(negative, words);
}

/**
 * Whether a group or campaign negative that the keyword itself contains switches the keyword off.
 * Google Ads: yes (the keyword is «blocked by a negative»). Yandex Direct: no — a group or campaign
 * minus-phrase wholly contained in a keyword is not applied to that keyword (API reference, «Минус-фразы»:
 * «…полностью входит в состав ключевой фразы, то к данной ключевой фразе она не применяется»), so the
 * keyword keeps showing and spending, queries with that word included.
 */
export const containedNegativeBlocksKeyword = (platform: AdPlatform): boolean => platform === 'google_ads';

/** Whether a group or campaign negative acts on a keyword's traffic at all (see `containedNegativeBlocksKeyword`). */
export function sharedNegativeApplies(negative: ParsedPhrase, keywordWords: PhraseWord[] | undefined, platform: AdPlatform): boolean {
  return platform === 'google_ads' || !keywordWords || !blocksYandex(negative, keywordWords);
}

/**
 * Ad field limits of each platform (official help pages, see /work/shared/reference/ad-platforms.md).
 *
 * Yandex Direct counts «narrow» punctuation (. , ! : ; ") apart in Заголовок 2 and Текст: up to 15 of
 * them are free. Заголовок 1 counts every character.
 */
export const yandexLimits = {
  headline1: 56,
  headline1Word: 22,
  headline2: 30,
  text: 81,
  textWord: 23,
  freePunctuation: 15,
  displayUrl: 20,
  sitelinkTitle: 30,
  sitelinkDescription: 60,
  callout: 25,
} as const;

export const googleLimits = {
  headline: 30,
  description: 90,
  path: 15,
  minHeadlines: 3,
  maxHeadlines: 15,
  minDescriptions: 2,
  maxDescriptions: 4,
  sitelinkTitle: 25,
  sitelinkDescription: 35,
  callout: 25,
} as const;

const NARROW_PUNCTUATION = /[.,!:;"]/g;

/** Length as Yandex counts it for Заголовок 2 and Текст: up to 15 narrow punctuation marks are free. */
export function yandexCountedLength(text: string): number {
  const free = Math.min(yandexLimits.freePunctuation, (text.match(NARROW_PUNCTUATION) ?? []).length);
  return text.length - free;
}

/** Certainly a letter or a digit (\p{L}/\p{N}): Latin, Russian, digits; other characters go to the regular expression. */
const isPlainLetterOrDigit = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || (code >= 0x410 && code <= 0x44f) || code === 0x401 || code === 0x451;

/** The word without the punctuation around it; most words begin and end on a letter or a digit, and have none to strip. */
const strippedWord = (raw: string) =>
  raw.length > 0 && isPlainLetterOrDigit(raw.charCodeAt(0)) && isPlainLetterOrDigit(raw.charCodeAt(raw.length - 1)) ? raw : raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** The longest word (punctuation around it does not count). */
export function longestWord(text: string): string {
  let longest = '';
  for (const raw of text.split(/\s+/)) {
    const word = strippedWord(raw);
    if (word.length > longest.length) longest = word;
  }
  return longest;
}

/**
 * The language of a phrase by the script of its words: Latin words and no Cyrillic one → English,
 * any Cyrillic word → Russian («купить iphone» is a Russian query), digits only → unknown. A campaign's
 * language is the language most of its keywords have (ties go to Russian, the product's default).
 */
import type { PhraseWord } from './phrase.js';

export type ScriptLanguage = 'ru' | 'en';

const CYRILLIC = /[а-я]/;
const LATIN = /[a-z]/;

export function languageOfWords(words: readonly PhraseWord[]): ScriptLanguage | null {
  let latin = false;
  for (const word of words) {
    if (CYRILLIC.test(word.form)) return 'ru';
    if (LATIN.test(word.form)) latin = true;
  }
  return latin ? 'en' : null;
}

export function majorityLanguage(phrases: readonly (readonly PhraseWord[])[]): ScriptLanguage {
  let ru = 0;
  let en = 0;
  for (const words of phrases) {
    const language = languageOfWords(words);
    if (language === 'ru') ru++;
    else if (language === 'en') en++;
  }
  return en > ru ? 'en' : 'ru';
}

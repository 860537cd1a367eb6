/**
 * The engines' hot paths replace a regular expression or a built-in with hand-written code for speed
 * (bench/analysis.ts); each must give exactly what the original gives. Checked against the original on
 * tricky cases and on many random texts made of the characters that matter.
 */
import { describe, expect, it } from 'vitest';
import { random } from '../../../bench/analysis.js';
import { normalizeText, sortedKey, tokenize } from '../../../server/engines/semantic/phrase.js';

/** What `tokenize` did with the regular expression: the reference. */
const WORD = /([!+]?)([a-zа-я0-9]+(?:\/[a-zа-я0-9]+)*)/g;
const byPattern = (text: string) => [...text.toLowerCase().replace(/ё/g, 'е').matchAll(WORD)].map((match) => ({ form: match[2], op: match[1] }));

/** Random texts of letters of both cases and scripts, ё/Ё, digits, operators, slashes, hyphens, quotes, brackets, spaces. */
function randomTexts(count: number): string[] {
  const next = random(7); // bench/analysis.ts's seeded PRNG: the same texts on every run
  const alphabet = [...'abzAZаяАЯёЁжЖ09!+/-"[]() .,«»—\tİßÀµ₽'];
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * 24) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
}

describe('the hand-written tokenizer', () => {
  it('finds exactly the words and operators the regular expression finds', () => {
    const cases = ['"Купить !Ёлку +в [Москве]" -Бесплатно', 'б/у запчасти', 'б/у/', '/бу', 'а//б', '!!окна', '+!окна', 'окна!', '!+', '+', '', 'интернет-магазин', 'ЁЖИК ёжик', 'iPhone 15 Pro/Max', 'İstanbul straße'];
    for (const text of [...cases, ...randomTexts(20_000)]) expect(tokenize(text), text).toEqual(byPattern(text));
  });
});

describe('normalisation without work when there is none', () => {
  it('gives what lower-casing and folding ё give, for any text', () => {
    for (const text of ['Ёлка', 'ёлка', 'елка', 'ÀÉ', 'Straße', 'İ', 'ΣΑΣ', 'окна пвх', '—«»', ...randomTexts(20_000)]) {
      expect(normalizeText(text), text).toBe(text.toLowerCase().replace(/ё/g, 'е'));
    }
  });
});

describe('sortedKey', () => {
  it('sorts as Array.prototype.sort() and joins by spaces', () => {
    const next = random(11);
    const words = ['окно', 'окна', '!окна', 'zeta', 'Zeta', 'а', 'я', 'ё', '10', '9', 'iphone', ''];
    for (let run = 0; run < 5_000; run++) {
      const strings = Array.from({ length: 1 + Math.floor(next() * 8) }, () => words[Math.floor(next() * words.length)]);
      expect(sortedKey([...strings])).toBe([...strings].sort().join(' '));
    }
  });
});

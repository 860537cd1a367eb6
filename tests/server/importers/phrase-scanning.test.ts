/**
 * The hand-written scans of phrases.ts (issue 26's import speed) read texts exactly as the regular
 * expressions they replace: runs of whitespace, autotargeting, tokens with quotes and brackets.
 */
import { describe, expect, it } from 'vitest';
import { collapseSpaces, isAutotargeting, parseYandexPhrase } from '../../../server/projects/importers/phrases.js';
import { nameKeyOf } from '../../../server/projects/importers/builder.js';

const byRegex = (text: string) => text.replace(/[\s\u00a0]+/g, ' ');

describe('phrase scanning', () => {
  it('collapses every whitespace character of a regular expression, alone and in runs, and leaves clean text as it is', () => {
    for (let code = 0; code < 0x10000; code++) {
      const char = String.fromCharCode(code);
      for (const text of [`а${char}б`, `а ${char}б`, `${char}${char}`]) expect(collapseSpaces(text)).toBe(byRegex(text));
    }
    const clean = 'купить диван недорого';
    expect(collapseSpaces(clean)).toBe(clean);
  });

  it('recognises autotargeting in any case and with spaces around, and nothing else', () => {
    expect(isAutotargeting('  ---AUTOTARGETING ')).toBe(true);
    expect(isAutotargeting('Автотаргетинг')).toBe(true);
    expect(isAutotargeting('автотаргетинг диван')).toBe(false);
    expect(isAutotargeting('İ--autotargeting')).toBe(false);
  });

  it('keeps quoted and bracketed parts whole, splits minus-words off, and returns a phrase without hyphens as written', () => {
    expect(parseYandexPhrase(' купить\u00a0 диван  ')).toEqual({ phrase: 'купить диван', negativeWords: [], matchType: 'broad', isAutotargeting: false });
    expect(parseYandexPhrase('"[диван кровать] -кресло" -бу -бу - --дешево')).toEqual({ phrase: '"[диван кровать] -кресло"', negativeWords: ['бу', 'дешево'], matchType: 'phrase', isAutotargeting: false });
    expect(parseYandexPhrase('(диван|софа) угловой-большой -б/у')).toEqual({ phrase: '(диван|софа) угловой-большой', negativeWords: ['б/у'], matchType: 'broad', isAutotargeting: false });
    expect(parseYandexPhrase('"!диван !угловой"').matchType).toBe('exact');
  });

  it('keys names by lower case, «е» for «ё» and single spaces', () => {
    expect(nameKeyOf('  Ёлки\u00a0\u00a0ПАЛКИ ')).toBe('елки палки');
    expect(nameKeyOf('диваны')).toBe('диваны');
  });
});

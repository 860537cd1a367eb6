/**
 * `formatInteger` (contract/format.ts) writes integers without ICU; it must write exactly what ICU writes
 * for ru-RU, or every text with money or a count would change (issue 26: output identical).
 */
import { describe, expect, it } from 'vitest';
import { formatCount, formatInteger, formatRub } from '../../../contract/format.js';
import { formatRub as engineRub } from '../../../server/engines/scoring/context.js';

const whole = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });

describe('formatInteger', () => {
  it('writes what Intl.NumberFormat("ru-RU") writes, for integers of every length, fractions, -0 and the limits', () => {
    const values = [0, -0, 1, -1, 9, 10, 99, 100, 999, 1000, -1000, 9999, 10000, 123456, -123456, 1234567, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 2 ** 53 + 2, 1e21, 1e22];
    values.push(0.4, -0.4, 0.5, -0.5, 2.5, -2.5, 1234.5, -1234.5, 999.9, NaN, Infinity, -Infinity);
    let seed = 26;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 20_000; i++) values.push(Math.round((next() - 0.2) * 10 ** Math.floor(next() * 17)), (next() - 0.5) * 10 ** Math.floor(next() * 9));
    for (const value of values) {
      expect(formatInteger(value)).toBe(whole.format(value));
      expect(formatCount(value)).toBe(whole.format(value));
      expect(formatRub(value)).toBe(`${whole.format(Math.round(value))} ₽`);
      expect(engineRub(value)).toBe(`${Math.round(value).toLocaleString('ru-RU')} ₽`);
    }
  });
});

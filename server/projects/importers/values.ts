/**
 * Cell values as people and platforms write them: numbers with spaces, NBSP and comma decimals
 * (`1 234,56`), English thousands (`1,234.56`), currency marks, `--` for "no data"; dates as
 * `31.10.2026`, `2026-10-31` or `Oct 31, 2026`.
 */
import type { NumberLocale } from './types.js';

export type ParsedNumber = { ok: true; value: number } | { ok: false } | null;

const NO_VALUE = new Set(['', '-', '--', '—', '–', 'n/a', 'нет данных', '[]']);

/** Digits with at most a dot before decimals: what the rules below would read as it is (most cells of a big export). */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** null for an empty cell, `{ok:false}` for text that is not a number. */
export function parseNumber(raw: string, locale: NumberLocale = 'ru'): ParsedNumber {
  if (PLAIN_NUMBER.test(raw)) {
    const value = Number(raw);
    // Too many digits to be a number (Infinity) goes the long way, to the same refusal.
    if (Number.isFinite(value)) return { ok: true, value };
  }
  let text = raw.trim().toLowerCase();
  if (NO_VALUE.has(text)) return null;
  text = text
    .replace(/[\s\u00a0\u202f\u2009']/g, '')
    .replace(/(руб\.?|р\.|₽|rub|usd|eur|\$|€|%)$/u, '')
    .replace(/^(₽|\$|€)/u, '');
  if (text === '') return null;
  const hasComma = text.includes(',');
  const hasDot = text.includes('.');
  if (hasComma && hasDot) {
    // The later separator is the decimal one.
    if (text.lastIndexOf(',') > text.lastIndexOf('.')) text = text.replace(/\./g, '').replace(',', '.');
    else text = text.replace(/,/g, '');
  } else if (hasComma) {
    const groups = /^-?\d{1,3}(,\d{3})+$/.test(text);
    if (locale === 'en' && groups) text = text.replace(/,/g, '');
    else if (text.split(',').length > 2) text = text.replace(/,/g, '');
    else text = text.replace(',', '.');
  } else if (hasDot && text.split('.').length > 2) {
    text = text.replace(/\./g, '');
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/.test(text)) return { ok: false };
  const value = Number(text);
  return Number.isFinite(value) ? { ok: true, value } : { ok: false };
}

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
  янв: 1, фев: 2, мар: 3, апр: 4, мая: 5, май: 5, июн: 6, июл: 7, авг: 8, сен: 9, окт: 10, ноя: 11, дек: 12,
};

/** ISO date (YYYY-MM-DD) or null. */
export function parseDate(raw: string): string | null {
  const text = raw.trim();
  if (text === '') return null;
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(text);
  if (match) return iso(+match[1], +match[2], +match[3]);
  match = /^(\d{1,2})[./](\d{1,2})[./](\d{4}|\d{2})\b/.exec(text);
  if (match) return iso(match[3].length === 2 ? 2000 + +match[3] : +match[3], +match[2], +match[1]);
  match = /^([A-Za-zА-Яа-яё]{3})[a-zа-яё]*\.?\s+(\d{1,2}),?\s+(\d{4})/i.exec(text);
  if (match) {
    const month = MONTHS[match[1].toLowerCase()];
    if (month) return iso(+match[3], month, +match[2]);
  }
  match = /^(\d{1,2})\s+([A-Za-zА-Яа-яё]{3})[a-zа-яё]*\.?\s+(\d{4})/i.exec(text);
  if (match) {
    const month = MONTHS[match[2].toLowerCase()];
    if (month) return iso(+match[3], month, +match[1]);
  }
  return null;
}

/** All dates written in a line of text such as «Период: 01.10.2026 – 31.10.2026». */
export function findDates(text: string): string[] {
  const found: string[] = [];
  const pattern = /(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{4}|[A-Za-z]{3,9}\.?\s+\d{1,2},\s+\d{4}|\d{1,2}\s+[А-Яа-яё]{3,8}\.?\s+\d{4})/g;
  for (const match of text.matchAll(pattern)) {
    const date = parseDate(match[1]);
    if (date) found.push(date);
  }
  return found;
}

function iso(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1990 || year > 2200) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Several values in one cell, Direct style: `a||b||c`. */
export function splitMulti(raw: string): string[] {
  if (raw.trim() === '') return [];
  return raw.split('||').map((part) => part.trim());
}

/** Collapse runs of whitespace (NBSP included) and trim. */
export function clean(raw: string | undefined): string {
  if (!raw) return '';
  const trimmed = raw.trim();
  // Most cells are already clean: skip the replace then.
  return /\s\s|[\t\r\n\u00a0]/.test(trimmed) ? trimmed.replace(/[\s\u00a0]+/g, ' ') : trimmed;
}

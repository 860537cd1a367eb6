/** Russian formatting of dates, numbers and relative times, shared by every screen. */

const dateTimeFormat = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const dateFormat = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric' });
const numberFormat = new Intl.NumberFormat('ru-RU');

function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDateTime(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = toDate(value);
  return date ? dateTimeFormat.format(date) : String(value);
}

export function formatDate(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = toDate(value);
  return date ? dateFormat.format(date) : String(value);
}

export function formatNumber(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? numberFormat.format(value) : '—';
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Spec section 2 (notification time): 'только что' under 1 minute, 'N мин назад' under 60 minutes,
 * 'N ч назад' under 24 hours, otherwise a Russian-locale date.
 */
export function formatRelativeTime(value: Date | string | number, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return '';
  const elapsed = now.getTime() - date.getTime();
  if (elapsed < MINUTE) return 'только что';
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)} мин назад`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)} ч назад`;
  return date.toLocaleDateString('ru-RU');
}

/** A stable, readable value for any scalar an API can return. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'да' : 'нет';
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'string') {
    if (/^\d{4}-\d{2}-\d{2}T/.test(value)) return formatDateTime(value);
    return value;
  }
  return JSON.stringify(value);
}

/** Russian plural: pluralRu(5, ['кампания', 'кампании', 'кампаний']) → 'кампаний'; a fraction takes the second form. */
export function pluralRu(count: number, forms: [string, string, string]): string {
  const whole = Math.abs(Math.trunc(count));
  const mod10 = whole % 10;
  const mod100 = whole % 100;
  if (!Number.isInteger(count)) return forms[1];
  if (mod10 === 1 && mod100 !== 11) return forms[0];
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return forms[1];
  return forms[2];
}

const wholeNumber = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });

/**
 * An integer as `Intl.NumberFormat('ru-RU')` writes it, without a call into ICU for the common case: digit
 * groups of three parted by a no-break space, «-» before a negative (tests/server/analysis-engine/
 * number-format.test.ts holds it to ICU's output). The engines write money and counts into the texts of
 * every keyword's verdict and finding, and ICU's formatting was ~4 % of their CPU. Fractions, -0 and
 * integers beyond 2^53 go to ICU.
 */
export function formatInteger(value: number): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return wholeNumber.format(value);
  const digits = String(Math.abs(value));
  let head = digits.length % 3 || 3;
  let text = digits.slice(0, head);
  for (; head < digits.length; head += 3) text += `\u00a0${digits.slice(head, head + 3)}`;
  return value < 0 ? `-${text}` : text;
}

export const formatCount = (value: number) => formatInteger(value);
export const formatRub = (value: number) => `${formatInteger(Math.round(value))} ₽`;
/** A count with its noun in the right form: formatCountOf(4, ['фраза', 'фразы', 'фраз']) → «4 фразы». */
export const formatCountOf = (value: number, forms: [string, string, string]) => `${formatCount(value)} ${pluralRu(value, forms)}`;
export const formatTokens = (value: number) => formatCountOf(value, ['токен', 'токена', 'токенов']);

export const formatRubPerMonth = (value: number) => `${formatRub(value)} в месяц`;
/** «Теряете ≈ 12 345 ₽ в месяц»: the one money figure of an analysis, the same on every screen and in the client report. */
export const moneyHeadline = (perMonth: number) => `Теряете ≈ ${formatRubPerMonth(perMonth)}`;

/** A statistics period «01.03.2026 — 31.03.2026» (as the results screen and the client report write it). */
export function formatPeriod(period: { from: string; to: string } | null | undefined): string | null {
  if (!period) return null;
  const from = new Date(period.from);
  const to = new Date(period.to);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return `${period.from} — ${period.to}`;
  return `${dateFormat.format(from)} — ${dateFormat.format(to)}`;
}

/** The colour band of a 0–100 score, shared by the gauges, bars and badges of every analysis. */
export function scoreBand(score: number): 'good' | 'fair' | 'poor' {
  if (score >= 80) return 'good';
  if (score >= 50) return 'fair';
  return 'poor';
}

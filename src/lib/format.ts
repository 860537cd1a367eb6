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

import { describe, expect, it } from 'vitest';
import { formatDateTime, formatNumber, formatRelativeTime, formatValue } from '@contract/format';

const now = new Date('2025-03-10T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('relative time (notification times, spec section 2)', () => {
  it("'только что' under one minute", () => {
    expect(formatRelativeTime(ago(0), now)).toBe('только что');
    expect(formatRelativeTime(ago(59_999), now)).toBe('только что');
  });

  it("'N мин назад' under 60 minutes", () => {
    expect(formatRelativeTime(ago(60_000), now)).toBe('1 мин назад');
    expect(formatRelativeTime(ago(59 * 60_000 + 59_000), now)).toBe('59 мин назад');
  });

  it("'N ч назад' under 24 hours", () => {
    expect(formatRelativeTime(ago(60 * 60_000), now)).toBe('1 ч назад');
    expect(formatRelativeTime(ago(23 * 3_600_000 + 59 * 60_000), now)).toBe('23 ч назад');
  });

  it('a Russian-locale date from 24 hours on', () => {
    const date = ago(24 * 3_600_000);
    expect(formatRelativeTime(date, now)).toBe(date.toLocaleDateString('ru-RU'));
    expect(formatRelativeTime(date, now)).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
  });
});

describe('formatting', () => {
  it('formats numbers and dates the Russian way, with a dash for nothing', () => {
    expect(formatNumber(1234567)).toBe((1234567).toLocaleString('ru-RU'));
    expect(formatNumber(undefined)).toBe('—');
    expect(formatDateTime(null)).toBe('—');
    expect(formatValue(true)).toBe('да');
    expect(formatValue('2025-03-10T12:00:00Z')).toBe(formatDateTime('2025-03-10T12:00:00Z'));
  });
});

import { describe, expect, it } from 'vitest';
import { runsPerMonth } from '../../../contract/monitoring.js';
import { inQuietHours, nextLocalHour, nextSlot } from '../../../server/monitoring/schedule-slots.js';

/** Slots are local hours of the project's zone, whatever the server's zone, across month ends and DST changes. */
describe('schedule slots', () => {
  const daily7 = { frequency: 'daily' as const, hour: 7, weekday: null, month_day: null };

  it('a daily slot is the next 07:00 of the zone', () => {
    expect(nextSlot(daily7, 'Europe/Moscow', new Date('2026-03-10T03:59:00Z')).toISOString()).toBe('2026-03-10T04:00:00.000Z');
    // At the slot itself the next one is a day later (a slot is claimed once, then moved past now).
    expect(nextSlot(daily7, 'Europe/Moscow', new Date('2026-03-10T04:00:00Z')).toISOString()).toBe('2026-03-11T04:00:00.000Z');
    expect(nextSlot(daily7, 'Asia/Vladivostok', new Date('2026-03-10T00:00:00Z')).toISOString()).toBe('2026-03-10T21:00:00.000Z');
  });

  it('follows a zone with daylight saving time', () => {
    // Berlin: UTC+1 before 29 March 2026, UTC+2 after.
    expect(nextSlot(daily7, 'Europe/Berlin', new Date('2026-03-28T12:00:00Z')).toISOString()).toBe('2026-03-29T05:00:00.000Z');
    expect(nextSlot(daily7, 'Europe/Berlin', new Date('2026-03-27T12:00:00Z')).toISOString()).toBe('2026-03-28T06:00:00.000Z');
  });

  it('weekly on its weekday, monthly on its day, across the year end', () => {
    // 31 December 2026 is a Thursday; Monday is 4 January 2027.
    expect(nextSlot({ frequency: 'weekly', hour: 9, weekday: 1, month_day: null }, 'Europe/Moscow', new Date('2026-12-31T10:00:00Z')).toISOString()).toBe('2027-01-04T06:00:00.000Z');
    expect(nextSlot({ frequency: 'monthly', hour: 0, weekday: null, month_day: 1 }, 'Europe/Moscow', new Date('2026-12-31T10:00:00Z')).toISOString()).toBe('2026-12-31T21:00:00.000Z');
    expect(nextSlot({ frequency: 'monthly', hour: 10, weekday: null, month_day: 28 }, 'Europe/Moscow', new Date('2027-01-28T07:00:00Z')).toISOString()).toBe('2027-02-28T07:00:00.000Z');
  });

  it('quiet hours across midnight and the morning hour', () => {
    const quiet = { from: 22, to: 9 };
    expect(inQuietHours(new Date('2026-03-10T19:30:00Z'), 'Europe/Moscow', quiet)).toBe(true); // 22:30
    expect(inQuietHours(new Date('2026-03-10T05:59:00Z'), 'Europe/Moscow', quiet)).toBe(true); // 08:59
    expect(inQuietHours(new Date('2026-03-10T06:00:00Z'), 'Europe/Moscow', quiet)).toBe(false); // 09:00
    expect(inQuietHours(new Date('2026-03-10T19:30:00Z'), 'Europe/Moscow', { from: null, to: null })).toBe(false);
    expect(nextLocalHour(new Date('2026-03-10T19:30:00Z'), 9, 'Europe/Moscow').toISOString()).toBe('2026-03-11T06:00:00.000Z');
    expect(nextLocalHour(new Date('2026-03-10T05:00:00Z'), 9, 'Europe/Moscow').toISOString()).toBe('2026-03-10T06:00:00.000Z');
  });

  it('counts runs per month for the monthly cost', () => {
    expect([runsPerMonth('daily'), runsPerMonth('weekly'), runsPerMonth('monthly')]).toEqual([30, 4, 1]);
  });
});

/**
 * Slots of a schedule in its time zone: pure (an instant in, an instant out; the clock is the caller's).
 * A slot is the UTC instant of «hour:00 local time» on a matching local day; on a DST change that skips
 * the hour, the instant the zone's offset gives for it (the hour after).
 */
import type { ScheduleFrequency } from '../db/tables/monitoring.js';

export interface ScheduleTimes {
  frequency: ScheduleFrequency;
  hour: number;
  /** 1 = Monday … 7 = Sunday; weekly only. */
  weekday: number | null;
  /** 1…28; monthly only. */
  month_day: number | null;
}

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 1 = Monday … 7 = Sunday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short', hourCycle: 'h23' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether the zone is one the runtime knows (an IANA name such as Europe/Moscow). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock date and time of an instant in a zone. */
export function localParts(instant: Date, timeZone: string): LocalParts {
  const parts = Object.fromEntries(formatterOf(timeZone).formatToParts(instant).map((part) => [part.type, part.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), weekday: WEEKDAYS[parts.weekday!]! };
}

/** Milliseconds the zone is ahead of UTC at this instant. */
function offsetAt(instant: number, timeZone: string): number {
  const p = localParts(new Date(instant), timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(instant / 60_000) * 60_000;
}

/** The instant of a local date and hour in a zone. */
export function zonedInstant(year: number, month: number, day: number, hour: number, timeZone: string): Date {
  const asUtc = Date.UTC(year, month - 1, day, hour);
  const first = asUtc - offsetAt(asUtc, timeZone);
  // Once more at the found instant: the offset differs there when a DST change lies between the two.
  return new Date(asUtc - offsetAt(first, timeZone));
}

function matches(times: ScheduleTimes, date: { day: number; weekday: number }): boolean {
  if (times.frequency === 'daily') return true;
  if (times.frequency === 'weekly') return date.weekday === (times.weekday ?? 1);
  return date.day === (times.month_day ?? 1);
}

/** The first slot strictly after `after`. A monthly slot is at most 31 days away; 40 local days always hold one. */
export function nextSlot(times: ScheduleTimes, timeZone: string, after: Date): Date {
  const today = localParts(after, timeZone);
  for (let offset = 0; offset <= 40; offset += 1) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
    const local = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), weekday: ((date.getUTCDay() + 6) % 7) + 1 };
    if (!matches(times, local)) continue;
    const slot = zonedInstant(local.year, local.month, local.day, times.hour, timeZone);
    if (slot.getTime() > after.getTime()) return slot;
  }
  throw new Error(`no slot within 40 days for ${JSON.stringify(times)}`);
}

/** The next `hour:00` local time at or after `from` (the morning digest, the end of quiet hours). */
export function nextLocalHour(from: Date, hour: number, timeZone: string): Date {
  const today = localParts(from, timeZone);
  const todays = zonedInstant(today.year, today.month, today.day, hour, timeZone);
  if (todays.getTime() >= from.getTime()) return todays;
  return zonedInstant(today.year, today.month, today.day + 1, hour, timeZone);
}

/** Whether the local hour of `instant` lies in quiet hours [from, to) (across midnight when from > to). */
export function inQuietHours(instant: Date, timeZone: string, quiet: { from: number | null; to: number | null }): boolean {
  if (quiet.from === null || quiet.to === null || quiet.from === quiet.to) return false;
  const { hour } = localParts(instant, timeZone);
  return quiet.from < quiet.to ? hour >= quiet.from && hour < quiet.to : hour >= quiet.from || hour < quiet.to;
}

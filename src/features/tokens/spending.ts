import type { LedgerEntry } from '@contract/tokens.js';

export interface DailySpending {
  /** Local calendar day, `YYYY-MM-DD`. */
  day: string;
  /** Tokens debited that day (a positive number). */
  spent: number;
}

function localDayKey(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/**
 * Debits per local day over the last `days` days ending today, oldest first, days without debits
 * included as 0 so the chart's bars line up with the calendar. Credits and refunds are not spending.
 */
export function dailySpending(entries: readonly LedgerEntry[], days: number, now: Date = new Date()): DailySpending[] {
  const totals = new Map<string, number>();
  for (const entry of entries) {
    if (entry.amount >= 0) continue;
    const key = localDayKey(new Date(entry.created_at));
    totals.set(key, (totals.get(key) ?? 0) + Math.abs(entry.amount));
  }
  const result: DailySpending[] = [];
  for (let offset = days - 1; offset >= 0; offset -= 1) {
    const date = new Date(now);
    date.setHours(12, 0, 0, 0);
    date.setDate(date.getDate() - offset);
    const key = localDayKey(date);
    result.push({ day: key, spent: totals.get(key) ?? 0 });
  }
  return result;
}

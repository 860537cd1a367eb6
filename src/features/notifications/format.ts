const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Badge text: the unread count, capped as '9+' above 9 (spec section 9). */
export function unreadBadgeText(count: number): string {
  return count > 9 ? '9+' : String(count);
}

/**
 * Notification time (spec section 2): 'только что' under a minute, 'N мин назад' under an hour,
 * 'N ч назад' under a day, otherwise the date in Russian format.
 */
export function formatNotificationTime(createdAt: string | Date, now: Date = new Date()): string {
  const created = typeof createdAt === 'string' ? new Date(createdAt) : createdAt;
  const elapsed = now.getTime() - created.getTime();
  if (elapsed < MINUTE_MS) return 'только что';
  if (elapsed < HOUR_MS) return `${Math.floor(elapsed / MINUTE_MS)} мин назад`;
  if (elapsed < DAY_MS) return `${Math.floor(elapsed / HOUR_MS)} ч назад`;
  return created.toLocaleDateString('ru-RU');
}

/** Badge text: the unread count, capped as '9+' above 9 (spec section 9). Times use `formatRelativeTime` (contract/format). */
export function unreadBadgeText(count: number): string {
  return count > 9 ? '9+' : String(count);
}

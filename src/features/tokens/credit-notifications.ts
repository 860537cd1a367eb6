/**
 * Tokens that arrive from elsewhere (a card payment confirmed by YooKassa, an invoice an admin marked
 * paid, a credit by an admin, the owner's transfer to or from this member) reach the notification
 * center: whenever the header's balance changes, the ledger entries since the last one told about are
 * read and each becomes a notification. The mark of the last one told about is kept per user on the
 * device, so a reload tells each entry once; without a mark (a new device) the last day counts.
 */
import { tokenRoutes } from '@contract/routes/tokens.js';
import type { LedgerEntry } from '@contract/tokens.js';
import { callApi } from '@/lib/call-api';
import { localValue } from '@/lib/storage';
import { addNotification } from '@/app/notifications';
import { formatTokens } from '@contract/format';

const markKey = (userId: string) => `tokens_notified_until:${userId}`;
const FIRST_LOOK_BACK_MS = 24 * 3600 * 1000;


/** What the user is told about an entry, or null for entries they caused themselves on this screen. */
export function creditNotification(entry: LedgerEntry, isOwner: boolean): { title: string; message: string } | null {
  const reason = entry.reason ? ` ${entry.reason}.` : '';
  switch (entry.type) {
    case 'purchase':
      return { title: 'Токены зачислены', message: `+${formatTokens(Math.abs(entry.amount))}.${reason}` };
    case 'admin_credit':
      return { title: 'Начисление администратором', message: `+${formatTokens(Math.abs(entry.amount))}.${reason}` };
    case 'transfer_in':
      return { title: 'Перевод токенов', message: `+${formatTokens(Math.abs(entry.amount))}.${reason}` };
    case 'transfer_out':
      // The owner made it; a member learns that tokens were taken back.
      return isOwner ? null : { title: 'Токены возвращены владельцу', message: `−${formatTokens(Math.abs(entry.amount))}.${reason}` };
    case 'purchase_refund':
      return { title: 'Возврат платежа', message: `−${formatTokens(Math.abs(entry.amount))}.${reason}` };
    default:
      return null;
  }
}

let running: Promise<void> | null = null;

/** Reads the ledger since the mark and notifies; one run at a time (balance ticks may overlap). */
export function notifyNewTokenEntries(userId: string, isOwner: boolean, now = Date.now()): Promise<void> {
  running ??= run(userId, isOwner, now).finally(() => {
    running = null;
  });
  return running;
}

async function run(userId: string, isOwner: boolean, now: number): Promise<void> {
  const mark = localValue.get(markKey(userId));
  const since = mark ?? new Date(now - FIRST_LOOK_BACK_MS).toISOString();
  const page = await callApi(tokenRoutes.history, { query: { page: 1, page_size: 20, from: since } });
  const fresh = page.items.filter((entry) => entry.created_at > since);
  for (const entry of [...fresh].reverse()) {
    const notification = creditNotification(entry, isOwner);
    if (notification) addNotification(notification);
  }
  if (fresh.length > 0) localValue.set(markKey(userId), fresh[0]!.created_at);
  else if (!mark) localValue.set(markKey(userId), new Date(now).toISOString());
}

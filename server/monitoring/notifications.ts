/** The bell: a member's notifications in the organization, unread until read. */
import { sql } from 'kysely';
import { monitoringMessages as m, type NotificationList } from '../../contract/monitoring.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import { iso } from '../lib/api-values.js';
import { notFound } from '../lib/errors.js';
import { formatEventMessage } from './messages.js';

const LIST_SIZE = 50;

export async function listNotifications(db: DB, caller: Caller): Promise<NotificationList> {
  const mine = db.selectFrom('notifications as n').where('n.user_id', '=', caller.userId).where('n.organization_id', '=', caller.organizationId);
  const [rows, unread] = await Promise.all([
    mine
      .innerJoin('monitoring_events as e', 'e.id', 'n.event_id')
      .select(['n.id', 'n.created_at', 'n.read_at', 'e.kind', 'e.project_id', 'e.title', 'e.cause', 'e.money_per_month', 'e.link'])
      .orderBy('n.created_at', 'desc')
      .orderBy('n.id')
      .limit(LIST_SIZE)
      .execute(),
    mine.select(sql<number>`count(*)::int`.as('n')).where('n.read_at', 'is', null).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      project_id: row.project_id,
      title: row.title,
      message: formatEventMessage(row),
      money_per_month: row.money_per_month,
      link: row.link,
      created_at: iso(row.created_at)!,
      read: row.read_at !== null,
    })),
    unread: unread.n,
  };
}

export async function markNotificationRead(db: DB, caller: Caller, id: string): Promise<void> {
  const row = await db
    .updateTable('notifications')
    .set({ read_at: sql`coalesce(read_at, now())` })
    .where('id', '=', id)
    .where('user_id', '=', caller.userId)
    .where('organization_id', '=', caller.organizationId)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound(m.notificationNotFound, 'NOTIFICATION_NOT_FOUND');
}

export async function markAllNotificationsRead(db: DB, caller: Caller): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ read_at: sql`now()` })
    .where('user_id', '=', caller.userId)
    .where('organization_id', '=', caller.organizationId)
    .where('read_at', 'is', null)
    .execute();
}

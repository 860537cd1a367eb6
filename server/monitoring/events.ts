/**
 * What happened to a project, raised once (its `dedupe_key`), and fanned out: a notification in the bell
 * of every member of the organization at once; an e-mail and a Telegram message per member when the
 * project's rules say so, due now or, in quiet hours and with the digest only, at the morning hour.
 */
import type { AlertRules } from '../../contract/monitoring.js';
import type { DB } from '../db/database.js';
import type { MonitoringEventKind } from '../db/tables/monitoring.js';
import { alertRulesOf } from './alert-rules.js';
import { inQuietHours, nextLocalHour } from './schedule-slots.js';

/** The hour of the morning digest in the project's zone. */
export const DIGEST_HOUR = 9;

export interface NewEvent {
  projectId: string;
  kind: MonitoringEventKind;
  /** Same key, same event: a rejected ad seen by every daily audit is told once. */
  dedupeKey: string;
  title: string;
  /** Why, in a sentence a marketer reads: the cause and what to do. */
  cause: string;
  moneyPerMonth: number | null;
  /** A path of the PWA: the finding, the run or the project. */
  link: string;
}

/** When a message raised now goes out: at once, or at the end of quiet hours / the morning digest. */
export function deliveryDue(now: Date, timeZone: string, rules: AlertRules): Date {
  if (rules.digest_only) return nextLocalHour(now, DIGEST_HOUR, timeZone);
  if (inQuietHours(now, timeZone, { from: rules.quiet_from, to: rules.quiet_to })) return nextLocalHour(now, rules.quiet_to ?? DIGEST_HOUR, timeZone);
  return now;
}

/** Raises the event unless it was raised before; returns its id, or null for a repeat. */
export async function raiseEvent(db: DB, event: NewEvent, now: Date, options: { telegram: boolean }): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const project = await trx.selectFrom('projects').select(['organization_id', 'time_zone']).where('id', '=', event.projectId).executeTakeFirst();
    if (!project) return null;
    const inserted = await trx
      .insertInto('monitoring_events')
      .values({
        organization_id: project.organization_id,
        project_id: event.projectId,
        kind: event.kind,
        dedupe_key: event.dedupeKey,
        title: event.title,
        cause: event.cause,
        money_per_month: event.moneyPerMonth === null ? null : Math.round(event.moneyPerMonth),
        link: event.link,
        created_at: now,
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return null;
    const members = await trx
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .leftJoin('telegram_chats as t', 't.user_id', 'm.user_id')
      .select(['m.user_id', 'u.is_verified', 't.chat_id', 't.blocked_at'])
      .where('m.organization_id', '=', project.organization_id)
      .execute();
    if (members.length === 0) return inserted.id;
    await trx
      .insertInto('notifications')
      .values(members.map((member) => ({ user_id: member.user_id, organization_id: project.organization_id, event_id: inserted.id, created_at: now })))
      .execute();
    const rules = await alertRulesOf(trx, event.projectId);
    const due = deliveryDue(now, project.time_zone, rules);
    const deliveries = members.flatMap((member) => [
      // A mailbox nobody confirmed gets no alerts (it may not be the member's).
      ...(rules.email && member.is_verified ? [{ event_id: inserted.id, user_id: member.user_id, channel: 'email' as const, due_at: due }] : []),
      ...(rules.telegram && options.telegram && member.chat_id && !member.blocked_at ? [{ event_id: inserted.id, user_id: member.user_id, channel: 'telegram' as const, due_at: due }] : []),
    ]);
    if (deliveries.length > 0) await trx.insertInto('alert_deliveries').values(deliveries).execute();
    return inserted.id;
  });
}

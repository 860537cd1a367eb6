/**
 * What a completed scheduled audit raises, by the project's rules:
 *
 * - a new leak: a finding «new» against the audit before (or «worse») by at least the rule's ₽/month
 *   (readAuditChanges, the comparison of the two audits);
 * - a rejected ad: an ad of the freshly read account whose moderation status is `rejected`, with
 *   Yandex's reason (told once per ad and reason, not with every daily audit);
 * - a budget that runs out: a live campaign whose end date (`EndDate`) falls within the rule's days.
 *   The account balance is not read: Direct API v5 has no call for it (it is the v4 Live
 *   `AccountManagement`), so «balance runs out» is not among the rules; see docs/monitoring.md.
 */
import { sql } from 'kysely';
import { formatDate } from '../../contract/format.js';
import type { AlertRules } from '../../contract/monitoring.js';
import type { DB } from '../db/database.js';
import { readAuditChanges } from './audit-changes.js';
import type { NewEvent } from './events.js';
import { localParts } from './schedule-slots.js';

interface AuditContext {
  projectId: string;
  projectName: string;
  analysisId: string;
  timeZone: string;
  rules: AlertRules;
  now: Date;
}

/** The completed audit of the project just before this one, if any. */
async function previousAudit(db: DB, projectId: string, analysisId: string): Promise<string | null> {
  const row = await sql<{ id: string }>`
    SELECT p.id FROM analyses p, analyses a
     WHERE a.id = ${analysisId} AND p.project_id = ${projectId} AND p.status = 'completed' AND p.id <> a.id AND p.created_at < a.created_at
     ORDER BY p.created_at DESC LIMIT 1`.execute(db);
  return row.rows[0]?.id ?? null;
}

async function newLeaks(db: DB, context: AuditContext): Promise<NewEvent[]> {
  if (!context.rules.new_leak) return [];
  const previous = await previousAudit(db, context.projectId, context.analysisId);
  if (!previous) return [];
  const { changes } = await readAuditChanges(db, { projectId: context.projectId, fromAnalysisId: previous, toAnalysisId: context.analysisId });
  const min = context.rules.new_leak_min_rub;
  return changes
    .filter((change) => (change.status === 'new' && change.moneyAfter >= min) || (change.status === 'worse' && change.moneyChange >= min))
    .map((change) => ({
      projectId: context.projectId,
      kind: 'new_leak' as const,
      dedupeKey: `new_leak:${context.analysisId}:${change.checkId}:${change.entityLabel}`,
      title: `${change.status === 'new' ? 'Новая утечка' : 'Утечка выросла'} в «${context.projectName}»: ${change.title}`,
      cause:
        change.status === 'new'
          ? `${change.entityLabel}: в прошлом аудите этого не было.`
          : `${change.entityLabel}: было ≈ ${Math.round(change.moneyBefore)} ₽ в месяц, стало больше на ${Math.round(change.moneyChange)} ₽.`,
      moneyPerMonth: change.status === 'new' ? change.moneyAfter : change.moneyChange,
      link: `/projects/${context.projectId}/analysis/${context.analysisId}/results?check=${encodeURIComponent(change.checkId)}`,
    }));
}

/** ₽ per month from a cost over the latest import's statistics period (null when the period is unknown). */
async function monthlyScale(db: DB, projectId: string): Promise<number | null> {
  const row = await sql<{ days: number | null }>`
    SELECT (((period ->> 'to')::date - (period ->> 'from')::date) + 1)::int AS days
      FROM project_imports WHERE project_id = ${projectId} AND status = 'completed' AND period IS NOT NULL AND period::text <> 'null'
     ORDER BY created_at DESC LIMIT 1`.execute(db);
  const days = row.rows[0]?.days;
  return days && days > 0 ? 30 / days : null;
}

async function rejectedAds(db: DB, context: AuditContext, scale: number | null): Promise<NewEvent[]> {
  if (!context.rules.rejected) return [];
  const rows = await sql<{ campaign: string; group_name: string; ad_id: string | null; headline: string | null; reason: string | null; cost: number | null }>`
    SELECT c.name AS campaign, g ->> 'name' AS group_name, a ->> 'externalId' AS ad_id, a -> 'headlines' ->> 0 AS headline,
           a -> 'moderation' ->> 'clarification' AS reason, (a -> 'stats' ->> 'cost')::float8 AS cost
      FROM campaigns c
     CROSS JOIN LATERAL jsonb_array_elements(c.data::jsonb -> 'groups') g
     CROSS JOIN LATERAL jsonb_array_elements(g -> 'ads') a
     WHERE c.project_id = ${context.projectId} AND a -> 'moderation' ->> 'status' = 'rejected'`.execute(db);
  return rows.rows.map((ad) => ({
    projectId: context.projectId,
    kind: 'rejected' as const,
    dedupeKey: `rejected:${context.projectId}:${ad.ad_id ?? `${ad.campaign}/${ad.group_name}/${ad.headline}`}:${ad.reason ?? ''}`,
    title: `Объявление отклонено модерацией в «${context.projectName}»`,
    cause: `${ad.campaign} › ${ad.group_name}: «${ad.headline ?? 'без заголовка'}» — ${ad.reason ?? 'Яндекс не назвал причину'}. Пока его не исправят, оно не показывается.`,
    moneyPerMonth: ad.cost !== null && scale !== null ? ad.cost * scale : null,
    link: `/projects/${context.projectId}`,
  }));
}

/** Whole days from the local date of `now` to an ISO date. */
function daysUntil(now: Date, timeZone: string, isoDate: string): number {
  const today = localParts(now, timeZone);
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return Math.round((Date.UTC(year, month - 1, day) - Date.UTC(today.year, today.month - 1, today.day)) / 86_400_000);
}

async function endingCampaigns(db: DB, context: AuditContext, scale: number | null): Promise<NewEvent[]> {
  if (!context.rules.runout) return [];
  const rows = await sql<{ name: string; external_id: string | null; end_date: string; cost: number | null }>`
    SELECT name, external_id, data::jsonb ->> 'endDate' AS end_date, (stats ->> 'cost')::float8 AS cost
      FROM campaigns
     WHERE project_id = ${context.projectId} AND data::jsonb ->> 'endDate' IS NOT NULL
       AND coalesce(data::jsonb ->> 'state', 'on') = 'on'`.execute(db);
  return rows.rows.flatMap((campaign) => {
    const days = daysUntil(context.now, context.timeZone, campaign.end_date);
    if (days < 0 || days > context.rules.runout_days) return [];
    return [
      {
        projectId: context.projectId,
        kind: 'runout' as const,
        dedupeKey: `runout:${context.projectId}:${campaign.external_id ?? campaign.name}:${campaign.end_date}`,
        title: `Кампания «${campaign.name}» остановится ${days === 0 ? 'сегодня' : `через ${days} дн.`}`,
        cause: `Дата окончания кампании — ${formatDate(campaign.end_date)}. Продлите её в Директе, если реклама должна идти дальше.`,
        moneyPerMonth: campaign.cost !== null && scale !== null ? campaign.cost * scale : null,
        link: `/projects/${context.projectId}`,
      },
    ];
  });
}

/** The events a completed audit raises (the caller raises them; repeats are dropped by their keys). */
export async function auditAlerts(db: DB, context: AuditContext): Promise<NewEvent[]> {
  const scale = await monthlyScale(db, context.projectId);
  return [...(await newLeaks(db, context)), ...(await rejectedAds(db, context, scale)), ...(await endingCampaigns(db, context, scale))];
}

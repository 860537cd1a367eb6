/**
 * What a completed scheduled audit raises, by the project's rules:
 *
 * - a new leak: a finding «new» against the audit before (or «worse») by at least the rule's ₽/month
 *   (readAuditChanges, the comparison of the two audits);
 * - a rejected ad: an ad of the freshly read account whose moderation status is `rejected`, with
 *   Yandex's reason (told once per ad and reason, not with every daily audit);
 * - rejected sitelinks: an ad whose sitelink set moderation rejected (`TextAd.SitelinksModeration`), with
 *   Yandex's reason; the same rule as a rejected ad (the ad shows, its sitelinks do not);
 * - a budget that runs out: a live campaign whose end date (`EndDate`) falls within the rule's days, and
 *   money that runs out within them: the balance read with the account (a campaign's own, or the shared
 *   account's) at the average daily spend of the statistics period (engines/monitoring/balance-runout.ts).
 */
import { sql } from 'kysely';
import { formatDate, formatPeriod, formatRub, pluralRu } from '../../contract/format.js';
import type { AlertRules } from '../../contract/monitoring.js';
import type { DB } from '../db/database.js';
import { balanceRunouts, type RunoutCampaign } from '../engines/monitoring/balance-runout.js';
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

interface StatsPeriodDays {
  period: { from: string; to: string };
  days: number;
}

/** The latest import's statistics period and its length in days (null when unknown). */
async function statsPeriod(db: DB, projectId: string): Promise<StatsPeriodDays | null> {
  const row = await sql<{ period: { from: string; to: string }; days: number | null }>`
    SELECT period, (((period ->> 'to')::date - (period ->> 'from')::date) + 1)::int AS days
      FROM project_imports WHERE project_id = ${projectId} AND status = 'completed' AND period IS NOT NULL AND period::text <> 'null'
     ORDER BY created_at DESC LIMIT 1`.execute(db);
  const found = row.rows[0];
  return found?.days && found.days > 0 ? { period: found.period, days: found.days } : null;
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

/**
 * Ads whose sitelinks moderation rejected (`TextAd.SitelinksModeration`): the ad still shows, without its
 * sitelinks, so it loses their clicks. Told once per ad and reason, like a rejected ad; an ad rejected as a
 * whole is told by rejectedAds, not twice.
 */
async function rejectedSitelinks(db: DB, context: AuditContext, scale: number | null): Promise<NewEvent[]> {
  if (!context.rules.rejected) return [];
  const rows = await sql<{ campaign: string; group_name: string; ad_id: string | null; headline: string | null; reason: string | null; cost: number | null }>`
    SELECT c.name AS campaign, g ->> 'name' AS group_name, a ->> 'externalId' AS ad_id, a -> 'headlines' ->> 0 AS headline,
           a -> 'sitelinksModeration' ->> 'clarification' AS reason, (a -> 'stats' ->> 'cost')::float8 AS cost
      FROM campaigns c
     CROSS JOIN LATERAL jsonb_array_elements(c.data::jsonb -> 'groups') g
     CROSS JOIN LATERAL jsonb_array_elements(g -> 'ads') a
     WHERE c.project_id = ${context.projectId} AND a -> 'sitelinksModeration' ->> 'status' = 'rejected'
       AND coalesce(a -> 'moderation' ->> 'status', '') <> 'rejected'`.execute(db);
  return rows.rows.map((ad) => ({
    projectId: context.projectId,
    kind: 'rejected' as const,
    dedupeKey: `rejected_sitelinks:${context.projectId}:${ad.ad_id ?? `${ad.campaign}/${ad.group_name}/${ad.headline}`}:${ad.reason ?? ''}`,
    title: `Быстрые ссылки отклонены модерацией в «${context.projectName}»`,
    cause: `${ad.campaign} › ${ad.group_name}: «${ad.headline ?? 'без заголовка'}» — ${ad.reason ?? 'Яндекс не назвал причину'}. Объявление показывается без быстрых ссылок, пока их не исправят.`,
    moneyPerMonth: ad.cost !== null && scale !== null ? ad.cost * scale : null,
    link: `/projects/${context.projectId}`,
  }));
}

const days = (count: number) => `${count} ${pluralRu(count, ['день', 'дня', 'дней'])}`;

/**
 * Money that runs out within the rule's days: the balance read with the account (a campaign's own or the
 * shared account's) against the average daily spend of the statistics period. Told once a day per balance
 * (a daily audit repeats it while the money is low: «2 дня», then «1 день», which is worth hearing).
 */
async function runningOutOfMoney(db: DB, context: AuditContext, period: StatsPeriodDays | null): Promise<NewEvent[]> {
  if (!context.rules.runout || !period) return [];
  const rows = await sql<{ name: string; external_id: string | null; state: string | null; funds: RunoutCampaign['funds'] | null; cost: number | null }>`
    SELECT name, external_id, data::jsonb ->> 'state' AS state, data::jsonb -> 'funds' AS funds, (stats ->> 'cost')::float8 AS cost
      FROM campaigns WHERE project_id = ${context.projectId} AND data::jsonb -> 'funds' IS NOT NULL ORDER BY position`.execute(db);
  const campaigns: RunoutCampaign[] = rows.rows.map((row) => ({
    name: row.name,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    ...(row.state ? { state: row.state } : {}),
    ...(row.funds ? { funds: row.funds } : {}),
    cost: row.cost,
  }));
  const today = localParts(context.now, context.timeZone);
  const date = `${today.year}-${String(today.month).padStart(2, '0')}-${String(today.day).padStart(2, '0')}`;
  const periodText = formatPeriod(period.period) ?? `${period.days} дн.`;
  return balanceRunouts(campaigns, period.days, context.rules.runout_days).map((runout) => {
    const shared = runout.source === 'shared_account';
    const whose = shared ? 'общем счёте' : `балансе кампании «${runout.campaignName}»`;
    const when = runout.balance <= 0 ? 'закончились' : runout.daysLeft === 0 ? 'закончатся сегодня' : `закончатся через ${days(runout.daysLeft)}`;
    const spenders = shared ? `${runout.campaigns} ${pluralRu(runout.campaigns, ['активная кампания', 'активные кампании', 'активных кампаний'])} общего счёта` : 'кампания';
    const spent = runout.campaigns === 1 ? 'тратила' : 'тратили';
    return {
      projectId: context.projectId,
      kind: 'runout' as const,
      dedupeKey: `balance:${context.projectId}:${runout.source}:${runout.key}:${date}`,
      title: `Деньги на ${whose} в «${context.projectName}» ${when}`,
      cause:
        runout.balance <= 0
          ? `На ${whose} ${formatRub(runout.balance)}: показы остановлены, пока счёт не пополнят. За ${periodText} ${spenders} ${spent} в среднем ${formatRub(runout.dailySpend)} в день.`
          : `На ${whose} осталось ${formatRub(runout.balance)}, а ${spenders} за ${periodText} ${spent} в среднем ${formatRub(runout.dailySpend)} в день: денег хватит примерно на ${days(runout.daysLeft)}. Пополните счёт, иначе показы остановятся.`,
      moneyPerMonth: runout.dailySpend * 30,
      link: `/projects/${context.projectId}`,
    };
  });
}

/** The events a completed audit raises (the caller raises them; repeats are dropped by their keys). */
export async function auditAlerts(db: DB, context: AuditContext): Promise<NewEvent[]> {
  const period = await statsPeriod(db, context.projectId);
  const scale = period ? 30 / period.days : null;
  return [
    ...(await newLeaks(db, context)),
    ...(await rejectedAds(db, context, scale)),
    ...(await rejectedSitelinks(db, context, scale)),
    ...(await endingCampaigns(db, context, scale)),
    ...(await runningOutOfMoney(db, context, period)),
  ];
}

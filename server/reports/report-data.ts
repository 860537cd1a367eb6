/**
 * The client report of one audit (`ClientReport`), read from what is already stored: the analysis's small
 * summary document (`analyses.report`, under 100 KB at any account size), the organization's branding, the
 * newest AI plan of the audit and the project's earlier audits. Never the result rows, so building it takes
 * the same time for 100 keywords and for 100 000.
 */
import { sql } from 'kysely';
import type { ResultsSummary } from '../../contract/analysis-pages.js';
import { readMoneyStory, type EntityRef, type Severity } from '../../contract/analysis-results.js';
import type { AiPlanResult } from '../../contract/ai-plan.js';
import { formatCountOf } from '../../contract/format.js';
import type { ClientReport, ClientReportChanges, ClientReportFinding, ClientReportPlanStep, ClientReportTrendPoint } from '../../contract/reports.js';
import { findCompletedAnalysis } from '../analysis/results-pages.js';
import { moneyLostPerMonth } from '../analysis/money-sql.js';
import type { DB } from '../db/database.js';
import { iso } from '../lib/api-values.js';
import { readAuditChanges } from '../monitoring/audit-changes.js';
import { reportBrandOf } from './branding.js';

/** Findings and plan steps a client reads in one sitting; the rest stay on the results screen. */
const REPORT_FINDINGS = 8;
const REPORT_PLAN_STEPS = 8;
/** Checks listed as fixed or new since the previous audit. */
const REPORT_CHANGE_ROWS = 8;
/** Audits on the trend: about a year of monthly audits. */
const TREND_POINTS = 12;

const severityRank: Record<Severity, number> = { high: 0, medium: 1, low: 2 };

/**
 * The report of a completed audit of `organizationId` (404 for another organization's or a deleted
 * project's, 409 while it runs). A share link passes the organization it was made in.
 */
export async function readClientReport(db: DB, organizationId: string, analysisId: string): Promise<ClientReport> {
  const analysis = await findCompletedAnalysis(db, organizationId, analysisId);
  const [stored, project, brand, aiPlan, trend] = await Promise.all([
    db.selectFrom('analyses').select('report').where('id', '=', analysisId).executeTakeFirstOrThrow(),
    db.selectFrom('projects').select(['name', 'platform']).where('id', '=', analysis.project_id).executeTakeFirstOrThrow(),
    reportBrandOf(db, organizationId),
    newestAiPlan(db, organizationId, analysisId),
    trendOf(db, analysis.project_id, analysisId),
  ]);
  const summary = stored.report as ResultsSummary;
  return {
    brand,
    projectName: project.name,
    platform: summary.platform ?? project.platform,
    auditedAt: iso(analysis.finished_at ?? analysis.created_at)!,
    period: summary.period,
    counts: { campaigns: summary.counts.campaigns, keywords: summary.counts.keywords },
    score: Math.round(summary.scores.account.score),
    findingsTotal: summary.findingsTotal,
    money: summary.money ? readMoneyStory(summary.money, summary.settings.targetCpa) : null,
    wastedPerMonth: summary.wastedSpend.perMonth,
    findings: summary.top.findings.slice(0, REPORT_FINDINGS).map(reportFinding),
    plan: aiPlan ? { source: 'ai', summary: aiPlan.summary, steps: aiPlan.steps.slice(0, REPORT_PLAN_STEPS).map((step) => ({ title: step.title, detail: step.why, moneyPerMonth: step.money_per_month })) } : { source: 'audit', summary: null, steps: auditPlan(summary) },
    trend,
    changes: await changesSincePrevious(db, summary, { projectId: analysis.project_id, analysisId }),
  };
}

/** «Кампания → Группа», or the entity's own name (as the results screen's `placeOf`). */
const placeOf = (target: EntityRef) => [target.campaignName, target.groupName].filter(Boolean).join(' → ') || target.label || '—';

function reportFinding(finding: ResultsSummary['top']['findings'][number]): ClientReportFinding {
  return {
    title: finding.title,
    severity: finding.severity,
    place: finding.count ? placeOf(finding.target) : [placeOf(finding.target), finding.target.label].filter((part, index, parts) => part && parts.indexOf(part) === index).join(' · '),
    count: finding.count ?? null,
    moneyPerMonth: finding.moneyPerMonth ?? null,
    fix: finding.fix,
  };
}

/**
 * The audit's own plan when no AI plan was written: the checks that cost money, the biggest first, with
 * the automatic negatives (priced by the non-target queries they block) among them, then the unpriced
 * ones by severity; each with the fix of its biggest finding.
 */
function auditPlan(summary: ResultsSummary): ClientReportPlanStep[] {
  const checks = summary.byCheck.filter((check) => check.findings > 0);
  const step = (check: ResultsSummary['byCheck'][number]): ClientReportPlanStep => {
    const fix = summary.top.findings.find((finding) => finding.checkId === check.checkId)?.fix ?? summary.checks.find((item) => item.id === check.checkId)?.description ?? '';
    return { title: `${check.title}: ${formatCountOf(check.entities, ['место', 'места', 'мест'])}`, detail: fix, moneyPerMonth: check.moneyPerMonth > 0 ? check.moneyPerMonth : null };
  };
  const priced = checks.filter((check) => check.moneyPerMonth > 0).map(step);
  const queries = summary.nonTargetQueries;
  if (queries && queries.costPerMonth > 0) {
    priced.push({
      title: `Добавить минус-слова: ${formatCountOf(queries.queries, ['нецелевой запрос', 'нецелевых запроса', 'нецелевых запросов'])}`,
      detail: 'Запросы, по которым показывалась реклама, но которые не относятся к товару или услуге. Минус-слова к ним подобраны в аудите.',
      moneyPerMonth: queries.costPerMonth,
    });
  }
  priced.sort((a, b) => (b.moneyPerMonth ?? 0) - (a.moneyPerMonth ?? 0));
  const unpriced = checks
    .filter((check) => check.moneyPerMonth <= 0)
    .sort((a, b) => severityRank[a.severity] - severityRank[b.severity] || b.entities - a.entities)
    .map(step);
  return [...priced, ...unpriced].slice(0, REPORT_PLAN_STEPS);
}

/** The newest finished AI plan of the audit with a plan in it; null when none was written. */
async function newestAiPlan(db: DB, organizationId: string, analysisId: string): Promise<AiPlanResult | null> {
  const row = await db
    .selectFrom('ai_plans')
    .select('plan')
    .where('analysis_id', '=', analysisId)
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'completed')
    .where('plan', 'is not', null)
    .orderBy('finished_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.plan && row.plan.steps.length > 0 ? row.plan : null;
}

/**
 * When the audit finished, compared in the database: a JS Date keeps milliseconds, PostgreSQL microseconds, so
 * the audit's own time read back into JavaScript would come before itself.
 */
const finishedAtOf = (analysisId: string) => sql<Date>`(SELECT finished_at FROM analyses WHERE id = ${analysisId})`;

/** The project's completed audits up to this one, oldest first (at most `TREND_POINTS`). */
async function trendOf(db: DB, projectId: string, analysisId: string): Promise<ClientReportTrendPoint[]> {
  const rows = await db
    .selectFrom('analyses')
    .select(['finished_at', 'created_at', 'score', moneyLostPerMonth('summary').as('money_per_month')])
    .where('project_id', '=', projectId)
    .where('status', '=', 'completed')
    .where('finished_at', '<=', finishedAtOf(analysisId))
    .orderBy('finished_at', 'desc')
    .limit(TREND_POINTS)
    .execute();
  return rows.reverse().map((row) => ({
    date: iso(row.finished_at ?? row.created_at)!,
    score: row.score === null ? null : Math.round(row.score),
    moneyPerMonth: row.money_per_month,
  }));
}

/**
 * What was fixed since the previous audit, and what appeared: the comparison of the two audits
 * (`readAuditChanges`, server/monitoring/audit-changes.ts: findings matched by check and entity), grouped
 * by check for a client to read, the most money first. Null for a project's first audit.
 */
async function changesSincePrevious(db: DB, summary: ResultsSummary, audit: { projectId: string; analysisId: string }): Promise<ClientReportChanges | null> {
  const previous = await db
    .selectFrom('analyses')
    .select(['id', 'finished_at'])
    .where('project_id', '=', audit.projectId)
    .where('status', '=', 'completed')
    .where('id', '!=', audit.analysisId)
    .where('finished_at', '<=', finishedAtOf(audit.analysisId))
    .orderBy('finished_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!previous?.finished_at) return null;
  const { changes } = await readAuditChanges(db, { projectId: audit.projectId, fromAnalysisId: previous.id, toAnalysisId: audit.analysisId });
  const checkTitle = (checkId: string, fallback: string) =>
    summary.byCheck.find((check) => check.checkId === checkId)?.title ?? summary.checks.find((check) => check.id === checkId)?.title ?? fallback;
  const byCheck = (status: 'fixed' | 'new', money: 'moneyBefore' | 'moneyAfter') => {
    const rows = new Map<string, { title: string; count: number; moneyPerMonth: number }>();
    for (const change of changes) {
      if (change.status !== status) continue;
      const row = rows.get(change.checkId) ?? { title: checkTitle(change.checkId, change.title), count: 0, moneyPerMonth: 0 };
      row.count++;
      row.moneyPerMonth += change[money];
      rows.set(change.checkId, row);
    }
    return [...rows.values()]
      .sort((a, b) => b.moneyPerMonth - a.moneyPerMonth || b.count - a.count)
      .slice(0, REPORT_CHANGE_ROWS)
      .map((row) => ({ ...row, moneyPerMonth: row.moneyPerMonth > 0 ? row.moneyPerMonth : null }));
  };
  return { previousDate: iso(previous.finished_at), fixed: byCheck('fixed', 'moneyBefore'), appeared: byCheck('new', 'moneyAfter') };
}

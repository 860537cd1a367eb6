import * as v from 'valibot';
import { adPlatformLabels, type AdPlatform } from './campaigns.js';
import { documentOf } from './common.js';
import { formatCountOf, formatPeriod, formatRub, formatRubPerMonth, moneyHeadline } from './format.js';
import { reportMessages as m } from './messages.js';
import { moneyCauseKinds, moneyCauseLabel, type MoneyKind, type MoneyStory, type Severity } from './analysis-results.js';
import { text } from './text.js';

// Client reports (issue 24, items 3 and 4): the organization's branding, the report of one audit (the same
// document for the PDF and the share page) and the share links.

// ------------------------------------------------------------------------------------ branding

/** A logo is kept as its bytes; PNG and JPEG only (an SVG can carry scripts and pdfkit cannot draw it). */
export const REPORT_LOGO_MAX_BYTES = 256 * 1024;
export const reportLogoMediaTypes = ['image/png', 'image/jpeg'] as const;
export type ReportLogoMediaType = (typeof reportLogoMediaTypes)[number];
/** Sides of a logo in pixels: smaller is unreadable, larger is a photo, not a logo. */
export const REPORT_LOGO_MIN_SIDE = 16;
export const REPORT_LOGO_MAX_SIDE = 4000;
/** The accent colour of a report without one of its own (the product's blue). */
export const DEFAULT_REPORT_ACCENT = '#1f5fbf';

const LOGO_DATA_URL = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/;
/** Base64 of the largest logo plus its `data:` prefix. */
const LOGO_DATA_URL_MAX_CHARS = Math.ceil(REPORT_LOGO_MAX_BYTES / 3) * 4 + 30;

export const ReportBrandingSchema = v.object({
  /** The name the report carries; null: the organization's own name. */
  report_name: v.nullable(v.string()),
  /** The organization's name (what a report without `report_name` shows). */
  organization_name: v.string(),
  /** `#rrggbb`; null: the default accent. */
  accent_color: v.nullable(v.string()),
  /** The logo as a `data:` URL; null: none. */
  logo: v.nullable(v.string()),
  /** Owners and admins change the branding. */
  can_edit: v.boolean(),
});
export type ReportBranding = v.InferOutput<typeof ReportBrandingSchema>;

/** PUT /organizations/current/branding: a field left out stays as it is; null clears it. */
export const UpdateReportBrandingSchema = v.object(
  {
    report_name: v.optional(v.nullable(v.pipe(text(m.reportNameInvalid), v.trim(), v.minLength(2, m.reportNameInvalid), v.maxLength(120, m.reportNameInvalid)))),
    accent_color: v.optional(v.nullable(v.pipe(text(m.accentColorInvalid), v.trim(), v.regex(/^#[0-9a-fA-F]{6}$/, m.accentColorInvalid), v.toLowerCase()))),
    logo: v.optional(v.nullable(v.pipe(text(m.logoInvalid), v.maxLength(LOGO_DATA_URL_MAX_CHARS, m.logoTooLarge), v.regex(LOGO_DATA_URL, m.logoInvalid)))),
  },
  m.bodyInvalid,
);
export type UpdateReportBranding = v.InferOutput<typeof UpdateReportBrandingSchema>;

// ------------------------------------------------------------------------------------ the report

/** One finding as the client reads it: what, where, how much, and the fix. */
export interface ClientReportFinding {
  title: string;
  severity: Severity;
  /** Where it is: «Кампания → Группа» or the entity's name. */
  place: string;
  /** «N фраз» of an aggregated finding; null for one entity. */
  count: number | null;
  moneyPerMonth: number | null;
  fix: string;
}

export interface ClientReportPlanStep {
  title: string;
  detail: string;
  moneyPerMonth: number | null;
}

/** A point of the project's history: one earlier (or this) completed audit. */
export interface ClientReportTrendPoint {
  date: string;
  score: number | null;
  /** The money lost per month that audit found; null when it had no statistics. */
  moneyPerMonth: number | null;
}

/** What was fixed since the previous audit (issue 24 with the audit comparison). */
export interface ClientReportChanges {
  previousDate: string;
  fixed: { title: string; count: number; moneyPerMonth: number | null }[];
  appeared: { title: string; count: number; moneyPerMonth: number | null }[];
}

/**
 * The report of one audit, white-label: built on the server from the stored summary (never from the
 * account's rows, so its size does not grow with the account) and drawn twice, as the PDF and as the share
 * page, from this one document.
 */
export interface ClientReport {
  brand: { name: string; accentColor: string; logo: string | null };
  /** The client's account as the project is named. */
  projectName: string;
  platform: AdPlatform;
  /** ISO time the audit finished. */
  auditedAt: string;
  period: { from: string; to: string } | null;
  counts: { campaigns: number; keywords: number };
  score: number;
  findingsTotal: number;
  /** Read with `readMoneyStory`, as the results screen does; null on audits stored before it (then `wastedPerMonth`). */
  money: MoneyStory | null;
  wastedPerMonth: number;
  findings: ClientReportFinding[];
  plan: { source: 'ai' | 'audit'; summary: string | null; steps: ClientReportPlanStep[] };
  /** Earlier completed audits of the project, oldest first, this one last; fewer than two: no trend. */
  trend: ClientReportTrendPoint[];
  /** Null until the audit comparison is there or when there is no previous audit. */
  changes: ClientReportChanges | null;
}

export const ClientReportSchema = documentOf<ClientReport>('The client report of one audit (ClientReport): the same document the PDF is drawn from');
export const PublicReportResponseSchema = v.object({ report: ClientReportSchema, expires_at: v.string() });

// ------------------------------------------------------------------------------------ share links

export const SHARE_LINK_DEFAULT_DAYS = 30;
export const SHARE_LINK_MAX_DAYS = 90;

export const CreateShareLinkSchema = v.object(
  {
    expires_in_days: v.optional(
      v.pipe(v.number(m.expiryInvalid), v.integer(m.expiryInvalid), v.minValue(1, m.expiryInvalid), v.maxValue(SHARE_LINK_MAX_DAYS, m.expiryInvalid)),
      SHARE_LINK_DEFAULT_DAYS,
    ),
  },
  m.bodyInvalid,
);

export const ShareLinkSchema = v.object({
  id: v.string(),
  analysis_id: v.string(),
  created_at: v.string(),
  expires_at: v.string(),
  revoked_at: v.nullable(v.string()),
  author: v.nullable(v.string()),
  /** `active`, or why the link no longer opens. */
  state: v.picklist(['active', 'expired', 'revoked']),
});
export type ShareLink = v.InferOutput<typeof ShareLinkSchema>;
export const ShareLinkListSchema = v.object({ links: v.array(ShareLinkSchema) });
/** The token is in the answer that makes the link, and nowhere else ever again. */
export const CreatedShareLinkSchema = v.object({ link: ShareLinkSchema, token: v.string() });
export const ShareTokenParamsSchema = v.object({ token: v.pipe(text(), v.regex(/^[A-Za-z0-9_-]{43}$/, m.shareLinkNotFound)) });

/** The address of a share page (the PWA's public route). */
export const shareReportPath = (token: string) => `/r/${token}`;

// ------------------------------------------------------------------------------------ wording

/** Headings of the report, the same in the PDF and on the share page. */
export const reportWording = {
  title: 'Аудит рекламного аккаунта',
  money: 'Потери денег',
  noLoss: 'Потерь денег не найдено',
  causes: 'Из чего складываются потери',
  savingCauses: 'Где можно сэкономить',
  score: 'Оценка аккаунта',
  findings: 'Главные замечания и как их исправить',
  noFindings: 'Аудит не нашёл замечаний.',
  changes: 'Что исправлено с прошлого аудита',
  nothingFixed: 'С прошлого аудита замечания не исправлены.',
  trend: 'Динамика',
  plan: 'План действий',
  aiPlan: 'План действий (составлен ИИ по результатам аудита)',
  fix: 'Как исправить',
  footer: 'Отчёт только для чтения. Суммы — оценка по статистике рекламного кабинета за указанный период.',
} as const;

/** The causes of one kind worth a line, the biggest first (a cause that rounds to «0 ₽» says nothing). */
export const reportCausesOf = (money: MoneyStory, kind: MoneyKind) =>
  money.causes
    .filter((cause) => moneyCauseKinds[cause.cause] === kind && Math.round(cause.perMonth) > 0)
    .sort((a, b) => b.perMonth - a.perMonth)
    .map((cause) => ({ label: moneyCauseLabel(cause.cause, money), perMonth: cause.perMonth, count: cause.count }));

/** The headline and the line under it, as the results screen writes them. */
export function reportMoneyLines(report: Pick<ClientReport, 'money' | 'period' | 'wastedPerMonth'>): { headline: string; note: string | null; saving: string | null } {
  const period = formatPeriod(report.period);
  const money = report.money;
  if (!money) return { headline: formatRubPerMonth(report.wastedPerMonth), note: `Расход по фразам с кликами и без конверсий${period ? ` за ${period}, пересчитано на месяц` : ''}.`, saving: null };
  if (Math.round(money.perMonth) <= 0) return { headline: reportWording.noLoss, note: period ? `Статистика за ${period}.` : null, saving: savingLine(money) };
  const share = money.spendPerMonth && money.spendPerMonth > 0 ? Math.round((money.perMonth / money.spendPerMonth) * 100) : null;
  return {
    headline: moneyHeadline(money.perMonth),
    note: `${formatRub(money.period)}${period ? ` за ${period}` : ' за период статистики'}, пересчитано на месяц${share !== null ? ` — ${share} % расхода` : ''}: расход, который не принёс ни одной конверсии.`,
    saving: savingLine(money),
  };
}

function savingLine(money: MoneyStory): string | null {
  if (Math.round(money.saving.perMonth) <= 0) return null;
  const reference = money.saving.reference === 'target' ? 'целевой цены конверсии' : 'средней цены конверсии в аккаунте';
  return `Можно сэкономить ≈ ${formatRubPerMonth(money.saving.perMonth)}: эти клики принесли конверсии, но дороже ${reference}. Это не потери и не входит в сумму выше.`;
}

/** «Фразы без конверсий: 12 мест · 3 400 ₽ в месяц»: a line of what was fixed or appeared since the previous audit. */
export const reportChangeLine = (item: { title: string; count: number; moneyPerMonth: number | null }) =>
  `${item.title}: ${formatCountOf(item.count, ['место', 'места', 'мест'])}${item.moneyPerMonth ? ` · ${formatRubPerMonth(item.moneyPerMonth)}` : ''}`;

/** «Яндекс Директ · 12 кампаний · 100 000 фраз · статистика за …». */
export function reportSubtitle(report: Pick<ClientReport, 'platform' | 'counts' | 'period'>): string {
  const period = formatPeriod(report.period);
  return [
    adPlatformLabels[report.platform],
    formatCountOf(report.counts.campaigns, ['кампания', 'кампании', 'кампаний']),
    formatCountOf(report.counts.keywords, ['фраза', 'фразы', 'фраз']),
    ...(period ? [`статистика за ${period}`] : []),
  ].join(' · ');
}

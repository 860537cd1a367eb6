/**
 * What changed between two audits of a project, the project's trend over its audits, and the agency
 * board of every project of the organization (issue 23). Shapes of the API and their Russian wording.
 */
import * as v from 'valibot';
import { analysisStatuses } from './analysis.js';
import { UuidSchema } from './common.js';
import { AdPlatformSchema } from './projects.js';

export const auditChangesMessages = {
  notEnoughAudits: 'Для сравнения нужны два завершённых анализа проекта',
  analysisNotInProject: 'Анализ не найден среди завершённых анализов проекта',
  sameAnalysis: 'Выберите два разных анализа',
  perStatusInvalid: 'per_status: целое число от 1 до 500',
} as const;

const m = auditChangesMessages;
/** At most this many changes of each status in one answer. */
const CHANGES_PER_STATUS_MAX = 500;

export const changeStatuses = ['new', 'worse', 'fixed', 'better', 'open'] as const;
export type ChangeStatus = (typeof changeStatuses)[number];

/** Russian names of the statuses, as the screen groups them. */
export const changeStatusLabels: Record<ChangeStatus, string> = {
  new: 'Новые',
  worse: 'Стало хуже',
  fixed: 'Исправлено',
  better: 'Стало лучше',
  open: 'Без изменений',
};

export const AuditChangeSchema = v.object({
  status: v.picklist(changeStatuses),
  checkId: v.string(),
  title: v.string(),
  entityLabel: v.string(),
  /** What the finding is about: campaign, group, ad, keyword… */
  level: v.string(),
  moneyBefore: v.number(),
  moneyAfter: v.number(),
  /** After − before, ₽/month: positive = more money lost. */
  moneyChange: v.number(),
  /** The finding in the later audit (a link to it); absent for a fixed one. */
  currentFindingId: v.optional(v.string()),
  /** The finding in the earlier audit; absent for a new one. */
  previousFindingId: v.optional(v.string()),
});
export type AuditChange = v.InferOutput<typeof AuditChangeSchema>;

const AuditPointSchema = v.object({ id: v.string(), created_at: v.string() });

export const AuditChangesSchema = v.object({
  from: AuditPointSchema,
  to: AuditPointSchema,
  changes: v.array(AuditChangeSchema),
  /** Changes per status (all of them, also when `changes` is cut). */
  counts: v.record(v.picklist(changeStatuses), v.number()),
  /** The audits' money figure «Теряете ≈ X ₽ в месяц» (null on audits stored before it existed). */
  moneyBefore: v.nullable(v.number()),
  moneyAfter: v.nullable(v.number()),
  scoreBefore: v.nullable(v.number()),
  scoreAfter: v.nullable(v.number()),
});
export type AuditChanges = v.InferOutput<typeof AuditChangesSchema>;

export const AuditChangesQuerySchema = v.object({
  from: v.optional(UuidSchema),
  to: v.optional(UuidSchema),
  per_status: v.optional(
    v.pipe(v.unknown(), v.transform(Number), v.number(m.perStatusInvalid), v.integer(m.perStatusInvalid), v.minValue(1, m.perStatusInvalid), v.maxValue(CHANGES_PER_STATUS_MAX, m.perStatusInvalid)),
  ),
});

export const AuditTrendPointSchema = v.object({
  id: v.string(),
  created_at: v.string(),
  score: v.nullable(v.number()),
  money_per_month: v.nullable(v.number()),
});
export type AuditTrendPoint = v.InferOutput<typeof AuditTrendPointSchema>;
export const AuditTrendSchema = v.object({ audits: v.array(AuditTrendPointSchema) });
export type AuditTrend = v.InferOutput<typeof AuditTrendSchema>;

/** Changes of each status in one answer unless `per_status` says otherwise (the counts say how many there are). */
export const CHANGES_PER_STATUS_DEFAULT = 100;

// ------------------------------------------------------------------------------------- the agency board

export const BOARD_TREND_AUDITS = 8;

const BoardRunSchema = v.object({
  id: v.string(),
  status: v.picklist(analysisStatuses),
  created_at: v.string(),
  finished_at: v.nullable(v.string()),
  error: v.nullable(v.string()),
});

export const BoardProjectSchema = v.object({
  id: v.string(),
  name: v.string(),
  platform: AdPlatformSchema,
  /** The latest run of any status (a failed one puts the project first). */
  last_run: v.nullable(BoardRunSchema),
  /** The last completed audits, oldest first (at most BOARD_TREND_AUDITS): the money trend. */
  audits: v.array(AuditTrendPointSchema),
  /** Findings new in the last audit against the one before (null: one audit only, or not counted yet). */
  new_findings: v.nullable(v.number()),
  /** Their money, ₽/month. */
  new_findings_money: v.nullable(v.number()),
  /** The next slot of the project's schedule of re-audits (null: none or switched off). */
  next_run_at: v.optional(v.nullable(v.string())),
});
export type BoardProject = v.InferOutput<typeof BoardProjectSchema>;

export const AgencyBoardSchema = v.object({ projects: v.array(BoardProjectSchema) });
export type AgencyBoard = v.InferOutput<typeof AgencyBoardSchema>;

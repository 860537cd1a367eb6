/**
 * What changed between two audits of a project, the project's trend over its audits, and the agency
 * board of every project of the organization (issue 23). Shapes of the API and their Russian wording.
 */
import * as v from 'valibot';
import { UuidSchema } from './common.js';

export const auditChangesMessages = {
  notEnoughAudits: 'Для сравнения нужны два завершённых анализа проекта',
  analysisNotInProject: 'Анализ не найден среди завершённых анализов проекта',
  sameAnalysis: 'Выберите два разных анализа',
} as const;

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

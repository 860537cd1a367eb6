import * as v from 'valibot';
import { text } from './text.js';
import { AnalysisSchema, analysisStatuses, type Analysis } from './analysis.js';
import { adminMessages, organizationMessages, tokenMessages as m } from './messages.js';
import { UuidSchema } from './common.js';
import { PlanTypeSchema } from './organizations.js';
import { AdPlatformSchema, LastAnalysisSchema, ProjectDetailSchema, type ProjectDetail } from './projects.js';

// /api/v1/admin/*: the platform administrator's view across every organization (role 'admin' only).

const NamedSchema = v.object({ id: v.string(), name: v.string() });
const PersonSchema = v.object({ id: v.string(), full_name: v.string() });

const queryInteger = (min: number, max: number, message: string) =>
  v.pipe(v.unknown(), v.transform(Number), v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));

/** GET /admin/overview: page of the projects list, optional search by project or organization name. */
export const AdminOverviewQuerySchema = v.object({
  page: v.optional(queryInteger(1, 1_000_000, m.pageInvalid), 1),
  page_size: v.optional(queryInteger(1, 100, m.pageSizeInvalid), 20),
  search: v.optional(v.pipe(text(), v.trim(), v.maxLength(200))),
});
export type AdminOverviewQuery = v.InferInput<typeof AdminOverviewQuerySchema>;

export const AdminAnalysisItemSchema = v.object({
  id: v.string(),
  status: v.picklist(analysisStatuses),
  /** Why a failed run failed (`AnalysisErrorCode`), null otherwise. */
  error_code: v.optional(v.nullable(v.string())),
  score: v.nullable(v.number()),
  cost: v.number(),
  created_at: v.string(),
  finished_at: v.nullable(v.string()),
  author: v.nullable(PersonSchema),
  project: NamedSchema,
  organization: NamedSchema,
});
export type AdminAnalysisItem = v.InferOutput<typeof AdminAnalysisItemSchema>;

export const AdminProjectItemSchema = v.object({
  id: v.string(),
  name: v.string(),
  site_url: v.string(),
  platform: AdPlatformSchema,
  organization: NamedSchema,
  author: v.nullable(PersonSchema),
  created_at: v.string(),
  updated_at: v.string(),
  analyses_count: v.number(),
  last_analysis: v.nullable(LastAnalysisSchema),
});
export type AdminProjectItem = v.InferOutput<typeof AdminProjectItemSchema>;

export const AdminOverviewSchema = v.object({
  counts: v.object({
    organizations: v.number(),
    users: v.number(),
    /** Live (not deleted) projects. */
    projects: v.number(),
    analyses: v.number(),
    analyses_by_status: v.record(v.picklist(analysisStatuses), v.number()),
    /** Tokens charged for analyses minus refunds, all time. */
    tokens_spent: v.number(),
  }),
  /** The 10 newest analyses of the platform. */
  recent_analyses: v.array(AdminAnalysisItemSchema),
  projects: v.object({ items: v.array(AdminProjectItemSchema), total: v.number(), page: v.number(), page_size: v.number() }),
});
export type AdminOverview = v.InferOutput<typeof AdminOverviewSchema>;

/** GET /admin/projects/:id: the project's detail as its members see it, plus its organization. */
export const AdminProjectDetailSchema = v.object({ ...ProjectDetailSchema.entries, organization: NamedSchema });
export type AdminProjectDetail = ProjectDetail & { organization: { id: string; name: string } };

/** GET /admin/analyses/:id. */
export const AdminAnalysisResponseSchema = v.object({ analysis: AnalysisSchema, project: NamedSchema, organization: NamedSchema });
export type AdminAnalysisResponse = { analysis: Analysis; project: { id: string; name: string }; organization: { id: string; name: string } };

// ------------------------------------------------------------------------------- the operator's screens
// Issue 12: users (block/unblock), organizations (plan), crediting (`POST /admin/tokens/credit`, in
// tokens.ts), failed and stuck runs (retry/cancel), job queues, the audit log and the overview charts.

const PagedQuery = {
  page: v.optional(queryInteger(1, 1_000_000, m.pageInvalid), 1),
  page_size: v.optional(queryInteger(1, 100, m.pageSizeInvalid), 20),
};
const SearchQuery = { search: v.optional(v.pipe(text(), v.trim(), v.maxLength(200))) };
const paged = <T extends v.GenericSchema>(item: T) => v.object({ items: v.array(item), total: v.number(), page: v.number(), page_size: v.number() });

const MembershipRoleSchema = v.picklist(['owner', 'admin', 'member']);

/** GET /admin/users: search by email or name; `blocked=true` lists the blocked ones only. */
export const AdminUsersQuerySchema = v.object({ ...PagedQuery, ...SearchQuery, blocked: v.optional(v.picklist(['true', 'false'])) });
export type AdminUsersQuery = v.InferInput<typeof AdminUsersQuerySchema>;

export const AdminUserSchema = v.object({
  id: v.string(),
  email: v.string(),
  full_name: v.string(),
  /** Platform role: 'admin' is a platform administrator. */
  role: v.picklist(['user', 'admin']),
  is_verified: v.boolean(),
  /** ISO timestamp of the block, null when the user may log in. */
  blocked_at: v.nullable(v.string()),
  last_login_at: v.nullable(v.string()),
  created_at: v.string(),
  balance: v.number(),
  organizations: v.array(v.object({ id: v.string(), name: v.string(), role: MembershipRoleSchema })),
});
export type AdminUser = v.InferOutput<typeof AdminUserSchema>;
export const AdminUserPageSchema = paged(AdminUserSchema);
export type AdminUserPage = v.InferOutput<typeof AdminUserPageSchema>;

/** POST /admin/users/:id/block: the reason goes to the audit log. */
export const BlockUserSchema = v.object({ reason: v.optional(v.pipe(text(), v.trim(), v.maxLength(500, adminMessages.blockReasonMax))) });
export type BlockUserRequest = v.InferInput<typeof BlockUserSchema>;

export const AdminOrganizationsQuerySchema = v.object({ ...PagedQuery, ...SearchQuery });
export type AdminOrganizationsQuery = v.InferInput<typeof AdminOrganizationsQuerySchema>;

export const AdminOrganizationSchema = v.object({
  id: v.string(),
  name: v.string(),
  plan_type: v.string(),
  members_count: v.number(),
  /** The members' token balances added up (balances are per user). */
  balance_total: v.number(),
  owner: v.nullable(v.object({ id: v.string(), full_name: v.string(), email: v.string() })),
  created_at: v.string(),
});
export type AdminOrganization = v.InferOutput<typeof AdminOrganizationSchema>;
export const AdminOrganizationPageSchema = paged(AdminOrganizationSchema);
export type AdminOrganizationPage = v.InferOutput<typeof AdminOrganizationPageSchema>;

export const AdminOrganizationDetailSchema = v.object({
  ...AdminOrganizationSchema.entries,
  members: v.array(
    v.object({
      id: v.string(),
      email: v.string(),
      full_name: v.string(),
      role: MembershipRoleSchema,
      balance: v.number(),
      blocked: v.boolean(),
      joined_at: v.string(),
    }),
  ),
});
export type AdminOrganizationDetail = v.InferOutput<typeof AdminOrganizationDetailSchema>;

/** PUT /admin/organizations/:id/plan. */
export const ChangePlanSchema = v.object({ plan_type: PlanTypeSchema }, organizationMessages.planTypeInvalid);
export type ChangePlanRequest = v.InferInput<typeof ChangePlanSchema>;
/** Plans offered on the screen; any short machine word is accepted (`PlanTypeSchema`). */
export const knownPlanTypes = ['free', 'pro', 'business', 'enterprise'] as const;

// Runs: audits, page checks and AI plans, the three paid kinds of work.
export const runKinds = ['audit', 'page-check', 'ai-plan'] as const;
export type RunKind = (typeof runKinds)[number];
export const runKindLabels: Record<RunKind, string> = { audit: 'Аудит', 'page-check': 'Проверка страниц', 'ai-plan': 'ИИ-план' };
export const runStatuses = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof runStatuses)[number];

/** A run still queued or running after this long counts as stuck (longer than any run's own time limit). */
export const STUCK_AFTER_MINUTES = 20;

/** GET /admin/runs: `failed` (failed runs) or `stuck` (queued or running for over STUCK_AFTER_MINUTES). */
export const AdminRunsQuerySchema = v.object({ ...PagedQuery, state: v.optional(v.picklist(['failed', 'stuck'], adminMessages.runFilterInvalid), 'failed') });
export type AdminRunsQuery = v.InferInput<typeof AdminRunsQuerySchema>;

export const AdminRunSchema = v.object({
  kind: v.picklist(runKinds),
  id: v.string(),
  status: v.picklist(runStatuses),
  /** Queued or running for over STUCK_AFTER_MINUTES. */
  stuck: v.boolean(),
  /** Why it failed, as stored (Russian), null otherwise. */
  error: v.nullable(v.string()),
  /** Audits only: the machine code of the failure (`AnalysisErrorCode`). */
  error_code: v.nullable(v.string()),
  cost: v.number(),
  created_at: v.string(),
  finished_at: v.nullable(v.string()),
  /** The audit a page check or an AI plan belongs to is not always there: the project always is. */
  project: v.nullable(NamedSchema),
  organization: NamedSchema,
  author: v.nullable(v.object({ id: v.string(), full_name: v.string(), email: v.string() })),
  /** The audit an AI plan was written for (null for the other kinds). */
  analysis_id: v.nullable(v.string()),
});
export type AdminRun = v.InferOutput<typeof AdminRunSchema>;
export const AdminRunPageSchema = paged(AdminRunSchema);
export type AdminRunPage = v.InferOutput<typeof AdminRunPageSchema>;

export const RunParamsSchema = v.object({ kind: v.picklist(runKinds, adminMessages.runKindInvalid), id: UuidSchema });

/** POST /admin/runs/:kind/:id/retry: the new run, started for the same author, charged like their own start. */
export const AdminRetryResponseSchema = v.object({ retried_from: v.string(), run: AdminRunSchema });
export type AdminRetryResponse = v.InferOutput<typeof AdminRetryResponseSchema>;

/** GET /admin/queues: pg-boss jobs per queue and state. */
export const AdminQueuesSchema = v.object({
  queues: v.array(
    v.object({
      name: v.string(),
      /** created + retry: waiting for a worker. */
      waiting: v.number(),
      active: v.number(),
      failed: v.number(),
      completed: v.number(),
      cancelled: v.number(),
      /** When the oldest waiting job was created (null when none waits). */
      oldest_waiting_at: v.nullable(v.string()),
    }),
  ),
  /** False when the queue's tables do not exist (the server runs without jobs). */
  available: v.boolean(),
});
export type AdminQueues = v.InferOutput<typeof AdminQueuesSchema>;

/** GET /admin/audit-log. */
export const AdminAuditQuerySchema = v.object({ ...PagedQuery, action: v.optional(v.pipe(text(), v.trim(), v.maxLength(100))) });
export type AdminAuditQuery = v.InferInput<typeof AdminAuditQuerySchema>;

const AuditPersonSchema = v.nullable(v.object({ id: v.string(), full_name: v.string(), email: v.string() }));
export const AuditEntrySchema = v.object({
  id: v.string(),
  action: v.string(),
  actor: AuditPersonSchema,
  target_user: AuditPersonSchema,
  organization: v.nullable(NamedSchema),
  /** What the action recorded: amount and reason of a credit, old and new plan, the run… */
  details: v.record(v.string(), v.unknown()),
  created_at: v.string(),
});
export type AuditEntry = v.InferOutput<typeof AuditEntrySchema>;
export const AuditPageSchema = paged(AuditEntrySchema);
export type AuditPage = v.InferOutput<typeof AuditPageSchema>;

/** How the audit-log screen names the actions. */
export const auditActionLabels: Record<string, string> = {
  'tokens.admin_credit': 'Начисление токенов',
  'user.blocked': 'Пользователь заблокирован',
  'user.unblocked': 'Пользователь разблокирован',
  'organization.plan_changed': 'Смена тарифа',
  'organization.member_removed': 'Участник удалён из организации',
  'run.cancelled': 'Запуск отменён',
  'run.retried': 'Запуск повторён',
  'invoice.mark_paid': 'Счёт отмечен оплаченным',
  'invoice.cancel': 'Счёт отменён',
};

/** How the admin screens name the job queues (pg-boss's own housekeeping queues are not listed). */
export const queueLabels: Record<string, string> = {
  'analysis.run': 'Аудиты',
  'page-check.run': 'Проверки страниц',
  'ai-plan.run': 'ИИ-планы',
  'projects.direct-import': 'Импорт из API Директа',
  'payments.yookassa-check': 'Проверка оплат картой',
  'changes.apply': 'Изменения в Директе',
};

/** GET /admin/stats?days=30: the overview's charts, one point per day (UTC), oldest first. */
export const AdminStatsQuerySchema = v.object({ days: v.optional(queryInteger(7, 365, adminMessages.daysInvalid), 30) });
export type AdminStatsQuery = v.InferInput<typeof AdminStatsQuerySchema>;

export const AdminStatsSchema = v.object({
  days: v.number(),
  signups: v.array(v.object({ date: v.string(), count: v.number() })),
  /** credited: every positive ledger entry but refunds; spent: debits minus refunds. */
  tokens: v.array(v.object({ date: v.string(), credited: v.number(), spent: v.number() })),
  /** Runs started in the period, by kind and status. */
  runs: v.array(v.object({ kind: v.picklist(runKinds), status: v.picklist(runStatuses), count: v.number() })),
});
export type AdminStats = v.InferOutput<typeof AdminStatsSchema>;

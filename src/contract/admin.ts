import * as v from 'valibot';
import { AnalysisSchema, analysisStatuses, type Analysis } from './analysis.js';
import { tokenMessages as m } from './messages.js';
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
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
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

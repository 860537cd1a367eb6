/**
 * Projects on the database: every query is scoped to the caller's organization, and a project of
 * another organization (or a deleted one) is "not found", never "forbidden".
 *
 * Campaign documents are big (a 100 000-keyword account is tens of megabytes of JSON), so they never
 * travel through the event loop as one value: a preview is stored as draft rows while the import thread
 * produces them, and saving a preview copies those rows inside PostgreSQL (drafts.ts).
 */
import { sql, type Transaction } from 'kysely';
import type { Campaign } from '../../contract/campaigns.js';
import { projectMessages } from '../../contract/messages.js';
import type {
  CampaignSummary,
  ImportRecord,
  ProjectDetail,
  ProjectList,
  ProjectSettings,
  ProjectSummary,
  StatsSummary,
} from '../../contract/projects.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { forbidden, HttpError, notFound } from '../lib/errors.js';
import { openSecret } from '../lib/secret-box.js';
import { rowPlacement } from './campaign-row.js';
import { applyDraft, lockDraft } from './drafts.js';
import { lastAnalysisFor } from './last-analysis.js';
import { fullName, iso } from '../lib/api-values.js';
import type { YandexOAuthConfig } from '../config.js';
import { connectionAccessToken } from '../direct/connections.js';

type Executor = DB | Transaction<Database>;

/** secret-box context of stored Direct API tokens: open them with `openSecret(sealed, key, DIRECT_TOKEN_CONTEXT)`. */
export const DIRECT_TOKEN_CONTEXT = 'yandex-direct-token';

/** Case-folded form of a name for search and sort, the same for Кириллица in any database locale. */
export const nameKey = (text: string) => text.toLocaleLowerCase('ru-RU').replace(/ё/g, 'е').trim();
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

export const projectNotFound = () => notFound(projectMessages.projectNotFound, 'PROJECT_NOT_FOUND');

/** The live project of the caller's organization, or 404. */
export async function findProject(db: Executor, organizationId: string, projectId: string) {
  const project = await db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!project) throw projectNotFound();
  return project;
}

// ---------------------------------------------------------------------------------------------- list

export interface ListOptions {
  search?: string;
  sort: 'name' | 'created' | 'updated';
  order?: 'asc' | 'desc';
  page: number;
  page_size: number;
}

function liveProjectsOf(db: DB, organizationId: string, search?: string) {
  let query = db.selectFrom('projects as p').where('p.organization_id', '=', organizationId).where('p.deleted_at', 'is', null);
  if (search) query = query.where('p.name_key', 'like', `%${escapeLike(nameKey(search))}%`);
  return query;
}

export async function listProjects(db: DB, organizationId: string, options: ListOptions): Promise<ProjectList> {
  const order = options.order ?? (options.sort === 'name' ? 'asc' : 'desc');
  const sortColumn = options.sort === 'name' ? sql`p.name_key` : options.sort === 'created' ? sql`p.created_at` : sql`p.updated_at`;
  const direction = order === 'asc' ? sql`ASC` : sql`DESC`;

  const [rows, total] = await Promise.all([
    liveProjectsOf(db, organizationId, options.search)
      .leftJoin('users as u', 'u.id', 'p.author_id')
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('campaigns as c')
            .whereRef('c.project_id', '=', 'p.id')
            .select([
              sql<number>`count(*)::int`.as('campaigns'),
              sql<number>`coalesce(sum(c.groups_count), 0)::int`.as('groups'),
              sql<number>`coalesce(sum(c.ads_count), 0)::int`.as('ads'),
              sql<number>`coalesce(sum(c.keywords_count), 0)::int`.as('keywords'),
            ])
            .as('counts'),
        (join) => join.onTrue(),
      )
      .select([
        'p.id',
        'p.name',
        'p.site_url',
        'p.platform',
        'p.region',
        'p.target_cpa',
        'p.author_id',
        'p.created_at',
        'p.updated_at',
        'u.first_name',
        'u.last_name',
        'counts.campaigns',
        'counts.groups',
        'counts.ads',
        'counts.keywords',
      ])
      .orderBy(sql`${sortColumn} ${direction}`)
      .orderBy('p.id')
      .limit(options.page_size)
      .offset((options.page - 1) * options.page_size)
      .execute(),
    liveProjectsOf(db, organizationId, options.search)
      .select(sql<number>`count(*)::int`.as('total'))
      .executeTakeFirstOrThrow()
      .then((row) => row.total),
  ]);

  const lastAnalyses = await lastAnalysisFor(db, rows.map((row) => row.id));
  const items: ProjectSummary[] = rows.map((row) => ({
    id: row.id,
    name: row.name,
    site_url: row.site_url,
    platform: row.platform,
    region: row.region,
    target_cpa: row.target_cpa,
    author: row.author_id ? { id: row.author_id, full_name: fullName(row.first_name, row.last_name) } : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    counts: { campaigns: row.campaigns ?? 0, groups: row.groups ?? 0, ads: row.ads ?? 0, keywords: row.keywords ?? 0 },
    last_analysis: lastAnalyses.get(row.id) ?? null,
  }));
  return { items, total, page: options.page, page_size: options.page_size };
}

// -------------------------------------------------------------------------------------------- detail

function addStats(total: StatsSummary | null, stats: Record<string, number> | null): StatsSummary | null {
  if (!stats) return total;
  const sum = total ?? { impressions: 0, clicks: 0, cost: 0, conversions: 0 };
  const next: StatsSummary = {
    impressions: sum.impressions + (stats.impressions ?? 0),
    clicks: sum.clicks + (stats.clicks ?? 0),
    cost: sum.cost + (stats.cost ?? 0),
    conversions: sum.conversions + (stats.conversions ?? 0),
  };
  if (sum.revenue !== undefined || stats.revenue !== undefined) next.revenue = (sum.revenue ?? 0) + (stats.revenue ?? 0);
  return next;
}

function toStats(stats: Record<string, number> | null): StatsSummary | null {
  return stats ? addStats(null, stats) : null;
}

/** Campaigns of a project with their groups' names and counts, without the campaign documents. */
export async function campaignTree(db: Executor, projectId: string): Promise<CampaignSummary[]> {
  const rows = await db
    .selectFrom('campaigns')
    .select(['id', 'external_id', 'name', 'type', 'groups_count', 'ads_count', 'keywords_count', 'negative_keywords_count', 'stats', 'groups_summary'])
    .where('project_id', '=', projectId)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    external_id: row.external_id,
    name: row.name,
    type: row.type,
    placement: rowPlacement(row),
    groups_count: row.groups_count,
    ads_count: row.ads_count,
    keywords_count: row.keywords_count,
    negative_keywords: row.negative_keywords_count,
    stats: toStats(row.stats),
    groups: row.groups_summary as CampaignSummary['groups'],
  }));
}

const NO_IMPORT_COUNTS: ImportRecord['counts'] = { campaigns: 0, groups: 0, ads: 0, keywords: 0, searchQueries: 0 };

async function importHistory(db: Executor, projectId: string): Promise<ImportRecord[]> {
  const rows = await db
    .selectFrom('project_imports as i')
    .leftJoin('users as u', 'u.id', 'i.created_by')
    .select(['i.id', 'i.source', 'i.mode', 'i.status', 'i.file_names', 'i.counts', 'i.problems', 'i.created_by', 'i.created_at', 'i.units_spent', 'u.first_name', 'u.last_name'])
    .where('i.project_id', '=', projectId)
    .orderBy('i.created_at', 'desc')
    .limit(50)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    source: row.source,
    mode: row.mode,
    status: row.status,
    file_names: row.file_names,
    // Rows written before a count existed (search queries came later) lack it: none of those were imported.
    counts: { ...NO_IMPORT_COUNTS, ...row.counts },
    problems: row.problems as ImportRecord['problems'],
    created_by: row.created_by ? { id: row.created_by, full_name: fullName(row.first_name, row.last_name) } : null,
    created_at: iso(row.created_at),
    units_spent: row.units_spent,
  }));
}

export async function projectDetail(db: Executor, organizationId: string, projectId: string): Promise<ProjectDetail> {
  const project = await findProject(db, organizationId, projectId);
  const [author, campaigns, imports, connection, queries, lastPeriod, lastAnalyses] = await Promise.all([
    project.author_id ? db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', '=', project.author_id).executeTakeFirst() : undefined,
    campaignTree(db, projectId),
    importHistory(db, projectId),
    db.selectFrom('project_connections').select(['platform', 'client_login', 'sandbox', 'created_at']).where('project_id', '=', projectId).executeTakeFirst(),
    db.selectFrom('project_search_queries').select(sql<number>`coalesce(sum(rows_count), 0)::int`.as('rows')).where('project_id', '=', projectId).executeTakeFirstOrThrow(),
    db.selectFrom('project_imports').select('period').where('project_id', '=', projectId).where('period', 'is not', null).orderBy('created_at', 'desc').limit(1).executeTakeFirst(),
    lastAnalysisFor(db as DB, [projectId]),
  ]);
  let stats: StatsSummary | null = null;
  const counts = { campaigns: campaigns.length, groups: 0, ads: 0, keywords: 0 };
  for (const campaign of campaigns) {
    stats = campaign.stats ? addStats(stats, campaign.stats as Record<string, number>) : stats;
    counts.groups += campaign.groups_count;
    counts.ads += campaign.ads_count;
    counts.keywords += campaign.keywords_count;
  }
  return {
    id: project.id,
    name: project.name,
    site_url: project.site_url,
    platform: project.platform,
    region: project.region,
    target_cpa: project.target_cpa,
    author: author ? { id: author.id, full_name: fullName(author.first_name, author.last_name) } : null,
    created_at: iso(project.created_at),
    updated_at: iso(project.updated_at),
    counts,
    last_analysis: lastAnalyses.get(project.id) ?? null,
    settings: project.settings as ProjectSettings,
    stats,
    period: lastPeriod?.period ?? null,
    search_queries: queries.rows,
    campaigns,
    imports,
    connection: connection ? { ...connection, created_at: iso(connection.created_at) } : null,
  };
}

/** The full `Campaign` document of one campaign of a live project of the organization. */
export async function campaignDocument(db: DB, organizationId: string, projectId: string, campaignId: string): Promise<Campaign> {
  await findProject(db, organizationId, projectId);
  const row = await db.selectFrom('campaigns').select('data').where('id', '=', campaignId).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound(projectMessages.campaignNotFound, 'CAMPAIGN_NOT_FOUND');
  // The importers' `Campaign`, stored as JSON.
  return row.data as Campaign;
}

// ------------------------------------------------------------------------------------ create / edit

export interface ProjectFields {
  name: string;
  site_url: string;
  platform: 'yandex_direct' | 'google_ads' | 'vk_ads';
  region?: string | null;
  target_cpa?: number | null;
  settings?: ProjectSettings;
}

export async function createProject(db: DB, caller: Caller, fields: ProjectFields, draftId?: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    // Check the draft first: a stale preview must not leave an empty project behind.
    if (draftId) await lockDraft(trx, caller, draftId);
    const project = await trx
      .insertInto('projects')
      .values({
        organization_id: caller.organizationId,
        name: fields.name,
        name_key: nameKey(fields.name),
        site_url: fields.site_url,
        platform: fields.platform,
        region: fields.region || null,
        target_cpa: fields.target_cpa ?? null,
        settings: JSON.stringify(fields.settings ?? {}),
        author_id: caller.userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (draftId) await applyDraft(trx, caller, project.id, draftId, 'create');
    return project.id;
  });
}

export async function updateProject(db: DB, organizationId: string, projectId: string, fields: Partial<ProjectFields>): Promise<void> {
  await findProject(db, organizationId, projectId);
  const changes: Record<string, unknown> = { updated_at: new Date() };
  if (fields.name !== undefined) {
    changes.name = fields.name;
    changes.name_key = nameKey(fields.name);
  }
  if (fields.site_url !== undefined) changes.site_url = fields.site_url;
  if (fields.platform !== undefined) changes.platform = fields.platform;
  if (fields.region !== undefined) changes.region = fields.region || null;
  if (fields.target_cpa !== undefined) changes.target_cpa = fields.target_cpa;
  if (fields.settings !== undefined) changes.settings = JSON.stringify(fields.settings);
  await db.updateTable('projects').set(changes).where('id', '=', projectId).where('organization_id', '=', organizationId).execute();
}

/**
 * Soft delete: the project disappears from every list and route, while analyses that were paid for
 * keep their history. The stored API token goes at once: nobody can use it any more.
 */
export async function deleteProject(db: DB, caller: Caller, projectId: string): Promise<void> {
  const project = await findProject(db, caller.organizationId, projectId);
  const mayDelete = project.author_id === caller.userId || caller.organizationRole === 'owner' || caller.organizationRole === 'admin';
  if (!mayDelete) throw forbidden(projectMessages.deleteForbidden);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('projects').set({ deleted_at: new Date(), updated_at: new Date() }).where('id', '=', projectId).execute();
    await trx.deleteFrom('project_connections').where('project_id', '=', projectId).execute();
  });
}

/** What it takes to read the project's Direct account again: the stored token, opened, and its settings. */
export interface DirectAccess {
  token: string;
  clientLogin: string | null;
  sandbox: boolean;
  /** The OAuth connection the token comes from (direct_connections), kept with the project on save. */
  directConnectionId?: string | null;
}

/** The Direct API connection saved with a live project of the organization, its token opened for one use. */
export async function storedDirectAccess(db: DB, organizationId: string, projectId: string, secretsKey: Uint8Array, oauth: YandexOAuthConfig | null): Promise<DirectAccess> {
  await findProject(db, organizationId, projectId);
  const connection = await db
    .selectFrom('project_connections')
    .select(['encrypted_token', 'client_login', 'sandbox', 'direct_connection_id'])
    .where('project_id', '=', projectId)
    .where('platform', '=', 'yandex_direct')
    .executeTakeFirst();
  if (!connection) throw notFound(projectMessages.directApiNotConnected, 'CONNECTION_NOT_FOUND');
  if (connection.direct_connection_id) {
    const { token } = await connectionAccessToken(db, oauth, secretsKey, organizationId, connection.direct_connection_id);
    return { token, clientLogin: connection.client_login, sandbox: false, directConnectionId: connection.direct_connection_id };
  }
  let token: string;
  try {
    token = openSecret(connection.encrypted_token, secretsKey, DIRECT_TOKEN_CONTEXT);
  } catch {
    // Sealed under another key (SECRETS_KEY changed) or damaged: only a new token helps.
    throw new HttpError(422, 'DIRECT_TOKEN_UNREADABLE', projectMessages.directTokenUnreadable, [{ loc: ['connection'], msg: projectMessages.directTokenUnreadable }]);
  }
  return { token, clientLogin: connection.client_login, sandbox: connection.sandbox };
}

// ------------------------------------------------------------------------------------------- imports

export async function importIntoProject(db: DB, caller: Caller, projectId: string, draftId: string, mode: 'replace' | 'append'): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await findProject(trx, caller.organizationId, projectId);
    // Serialise imports of one project: two replaces at once must not interleave their rows.
    await trx.selectFrom('projects').select('id').where('id', '=', projectId).forUpdate().execute();
    return applyDraft(trx, caller, projectId, draftId, mode);
  });
}


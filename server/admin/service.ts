/**
 * The platform administrator's reads across organizations. Only the routes guarded by
 * `requirePlatformAdmin` call these: nothing here filters by organization.
 */
import { sql } from 'kysely';
import type { AdminAnalysisItem, AdminAnalysisResponse, AdminOverview, AdminProjectDetail } from '../../contract/admin.js';
import { analysisStatuses, type AnalysisStatus } from '../../contract/analysis.js';
import { getAnalysis } from '../analysis/service.js';
import type { DB } from '../db/database.js';
import { nameKey, projectDetail, projectNotFound } from '../projects/service.js';
import { lastAnalysisFor } from '../projects/last-analysis.js';
import { fullName, iso } from '../lib/api-values.js';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
const RECENT_ANALYSES = 10;

export async function adminOverview(db: DB, options: { page: number; pageSize: number; search?: string }): Promise<AdminOverview> {
  let projects = db.selectFrom('projects as p').innerJoin('organizations as o', 'o.id', 'p.organization_id').where('p.deleted_at', 'is', null);
  if (options.search) {
    const pattern = `%${escapeLike(nameKey(options.search))}%`;
    // Project names are searched on their case-folded key; organization names as written, case-insensitively.
    projects = projects.where((eb) => eb.or([eb('p.name_key', 'like', pattern), eb('o.name', 'ilike', `%${escapeLike(options.search!)}%`)]));
  }

  const [counts, byStatus, spent, recent, projectRows, projectTotal] = await Promise.all([
    db
      .selectNoFrom((eb) => [
        eb.selectFrom('organizations').select(sql<number>`count(*)::int`.as('n')).as('organizations'),
        eb.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).as('users'),
        eb.selectFrom('projects').select(sql<number>`count(*)::int`.as('n')).where('deleted_at', 'is', null).as('projects'),
        eb.selectFrom('analyses').select(sql<number>`count(*)::int`.as('n')).as('analyses'),
      ])
      .executeTakeFirstOrThrow(),
    db.selectFrom('analyses').select(['status', sql<number>`count(*)::int`.as('n')]).groupBy('status').execute(),
    db
      .selectFrom('token_ledger')
      .select(sql<number>`coalesce(-sum(amount), 0)::int`.as('n'))
      .where('type', 'in', ['analysis_debit', 'analysis_refund'])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('analyses as a')
      .innerJoin('projects as p', 'p.id', 'a.project_id')
      .innerJoin('organizations as o', 'o.id', 'a.organization_id')
      .leftJoin('users as u', 'u.id', 'a.created_by')
      .select(['a.id', 'a.status', 'a.error_code', 'a.score', 'a.cost', 'a.created_at', 'a.finished_at', 'a.created_by', 'u.first_name', 'u.last_name', 'p.id as project_id', 'p.name as project_name', 'o.id as org_id', 'o.name as org_name'])
      .orderBy('a.created_at', 'desc')
      .limit(RECENT_ANALYSES)
      .execute(),
    projects
      .leftJoin('users as u', 'u.id', 'p.author_id')
      .select([
        'p.id',
        'p.name',
        'p.site_url',
        'p.platform',
        'p.author_id',
        'p.created_at',
        'p.updated_at',
        'o.id as org_id',
        'o.name as org_name',
        'u.first_name',
        'u.last_name',
        (eb) => eb.selectFrom('analyses as a').select(sql<number>`count(*)::int`.as('n')).whereRef('a.project_id', '=', 'p.id').as('analyses_count'),
      ])
      .orderBy('p.updated_at', 'desc')
      .orderBy('p.id')
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize)
      .execute(),
    projects.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  const last = await lastAnalysisFor(db, projectRows.map((row) => row.id));

  const analysesByStatus = Object.fromEntries(analysisStatuses.map((status) => [status, 0])) as Record<AnalysisStatus, number>;
  for (const row of byStatus) analysesByStatus[row.status] = row.n;
  const recentItems: AdminAnalysisItem[] = recent.map((row) => ({
    id: row.id,
    status: row.status,
    error_code: row.error_code,
    score: row.score,
    cost: row.cost,
    created_at: iso(row.created_at),
    finished_at: row.finished_at ? iso(row.finished_at) : null,
    author: row.created_by ? { id: row.created_by, full_name: fullName(row.first_name, row.last_name) } : null,
    project: { id: row.project_id, name: row.project_name },
    organization: { id: row.org_id, name: row.org_name },
  }));
  return {
    counts: {
      organizations: counts.organizations ?? 0,
      users: counts.users ?? 0,
      projects: counts.projects ?? 0,
      analyses: counts.analyses ?? 0,
      analyses_by_status: analysesByStatus,
      tokens_spent: spent.n,
    },
    recent_analyses: recentItems,
    projects: {
      items: projectRows.map((row) => ({
        id: row.id,
        name: row.name,
        site_url: row.site_url,
        platform: row.platform,
        organization: { id: row.org_id, name: row.org_name },
        author: row.author_id ? { id: row.author_id, full_name: fullName(row.first_name, row.last_name) } : null,
        created_at: iso(row.created_at),
        updated_at: iso(row.updated_at),
        analyses_count: row.analyses_count ?? 0,
        last_analysis: last.get(row.id) ?? null,
      })),
      total: projectTotal.total,
      page: options.page,
      page_size: options.pageSize,
    },
  };
}

/** A live project of any organization, or 404. */
export async function adminFindProject(db: DB, projectId: string) {
  const row = await db
    .selectFrom('projects as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select(['p.id', 'p.organization_id', 'o.name as org_name'])
    .where('p.id', '=', projectId)
    .where('p.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw projectNotFound();
  return row;
}

export async function adminProjectDetail(db: DB, projectId: string): Promise<AdminProjectDetail> {
  const project = await adminFindProject(db, projectId);
  const detail = await projectDetail(db, project.organization_id, projectId);
  return { ...detail, organization: { id: project.organization_id, name: project.org_name } };
}

export async function adminAnalysis(db: DB, analysisId: string): Promise<AdminAnalysisResponse> {
  const analysis = await getAnalysis(db, null, analysisId);
  const names = await db
    .selectFrom('projects as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select(['p.id', 'p.name', 'o.id as org_id', 'o.name as org_name'])
    .where('p.id', '=', analysis.project_id)
    .executeTakeFirstOrThrow();
  return { analysis, project: { id: names.id, name: names.name }, organization: { id: names.org_id, name: names.org_name } };
}

/**
 * Analyses on the database. Every read and write is scoped to an organization (the caller's); the
 * admin area passes `null` to read across organizations. An analysis of another organization is
 * "not found", never "forbidden".
 *
 * Results are stored as rows and read page by page (results-pages.ts).
 */
import { sql } from 'kysely';
import {
  auditAnalysisKinds,
  type Analysis,
  type AnalysisHistoryPage,
  type AnalysisOptions,
  type AnalysisStatus,
} from '../../contract/analysis.js';
import { analysisMessages as m } from '../../contract/messages.js';
import type { ProjectSettings } from '../../contract/projects.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import { conflict, notFound, validationError } from '../lib/errors.js';
import { requestFingerprint } from '../lib/idempotency.js';
import { findProject } from '../projects/service.js';
import { priceCampaigns } from '../tokens/pricing.js';
import { cancelRun, startPaidRun } from '../runs/paid-run.js';
import type { ExportRead, ExportReadResult } from './export-file.js';
import { entityNames } from './entity-names.js';
import { auditRun } from './lifecycle.js';
import { moneyLostPerMonth } from './money-sql.js';
import { fullName, iso } from '../lib/api-values.js';


export const analysisNotFound = () => notFound(m.analysisNotFound, 'ANALYSIS_NOT_FOUND');

// ------------------------------------------------------------------------------------ reading

/** The analysis columns every answer shows (never `result`, which is big). */
function analysisQuery(db: DB) {
  return db
    .selectFrom('analyses as a')
    .leftJoin('users as u', 'u.id', 'a.created_by')
    .select([
      'a.id',
      'a.organization_id',
      'a.project_id',
      'a.created_by',
      'a.kind',
      'a.status',
      'a.stage',
      'a.progress',
      'a.progress_detail',
      'a.options',
      'a.cost',
      'a.score',
      'a.summary',
      'a.error',
      'a.error_code',
      'a.job_id',
      'a.created_at',
      'a.started_at',
      'a.finished_at',
      'u.first_name',
      'u.last_name',
    ]);
}

type AnalysisRow = Awaited<ReturnType<ReturnType<typeof analysisQuery>['executeTakeFirstOrThrow']>>;

export function toAnalysis(row: AnalysisRow): Analysis {
  return {
    id: row.id,
    project_id: row.project_id,
    kind: row.kind,
    status: row.status,
    stage: row.stage,
    progress: row.progress,
    progress_detail: row.progress_detail,
    options: row.options,
    cost: row.cost,
    score: row.score,
    summary: row.summary,
    error: row.error,
    error_code: row.error_code as Analysis['error_code'],
    author: row.created_by ? { id: row.created_by, full_name: fullName(row.first_name, row.last_name) } : null,
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

/**
 * One analysis with its author. With an organization (every user route) it must belong to it and to
 * a live project of it; `null` (the admin area) reads any.
 */
export async function findAnalysisRow(db: DB, organizationId: string | null, analysisId: string): Promise<AnalysisRow> {
  let query = analysisQuery(db).where('a.id', '=', analysisId);
  if (organizationId !== null) {
    query = query
      .where('a.organization_id', '=', organizationId)
      .where(({ exists, selectFrom }) => exists(selectFrom('projects as p').select('p.id').whereRef('p.id', '=', 'a.project_id').where('p.deleted_at', 'is', null)));
  }
  const row = await query.executeTakeFirst();
  if (!row) throw analysisNotFound();
  return row;
}

export async function getAnalysis(db: DB, organizationId: string | null, analysisId: string): Promise<Analysis> {
  return toAnalysis(await findAnalysisRow(db, organizationId, analysisId));
}

export interface HistoryOptions {
  projectId: string;
  /** null: the admin area, any organization. */
  organizationId: string | null;
  page: number;
  pageSize: number;
  status?: AnalysisStatus;
  /** Only the analyses this user started. */
  authorId?: string;
}

/** Analyses of a project, newest first. */
export async function listAnalyses(db: DB, options: HistoryOptions): Promise<AnalysisHistoryPage> {
  let base = db.selectFrom('analyses as a').where('a.project_id', '=', options.projectId);
  if (options.organizationId !== null) base = base.where('a.organization_id', '=', options.organizationId);
  if (options.status) base = base.where('a.status', '=', options.status);
  if (options.authorId) base = base.where('a.created_by', '=', options.authorId);
  const [rows, total] = await Promise.all([
    base
      .leftJoin('users as u', 'u.id', 'a.created_by')
      .select([
        'a.id',
        'a.created_at',
        'a.created_by',
        'a.status',
        'a.score',
        'a.cost',
        'a.finished_at',
        'u.first_name',
        'u.last_name',
        sql<number>`jsonb_array_length(a.options -> 'campaign_ids')`.as('campaigns_count'),
        // The one «Теряете ≈ X ₽ в месяц» figure of the summary (absent on summaries older than the money story).
        moneyLostPerMonth('a.summary').as('money_per_month'),
      ])
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id')
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      created_at: iso(row.created_at)!,
      author: row.created_by ? { id: row.created_by, full_name: fullName(row.first_name, row.last_name) } : null,
      status: row.status,
      score: row.score,
      cost: row.cost,
      campaigns_count: row.campaigns_count,
      finished_at: iso(row.finished_at),
      money_per_month: row.money_per_month,
    })),
    total: total.total,
    page: options.page,
    page_size: options.pageSize,
  };
}

// ------------------------------------------------------------------------------------ start

export interface StartInput {
  campaign_ids: string[];
  settings?: ProjectSettings;
  idempotency_key: string;
  /** The price the person confirmed (server/runs/paid-run.ts refuses another). */
  expected_cost?: number;
}

/**
 * One transaction: the analysis row, the debit, the job (server/runs/paid-run.ts). A repeated key
 * returns the first analysis, charged once; a short balance rolls all of it back.
 */
export async function startAnalysis(db: DB, jobs: JobQueue | null, caller: Caller, projectId: string, input: StartInput): Promise<{ analysis: Analysis; created: boolean }> {
  if (!jobs) throw auditRun.queueUnavailable();
  const requested = [...new Set(input.campaign_ids)];
  const started = await startPaidRun(db, jobs, auditRun, {
    caller,
    key: input.idempotency_key,
    // What this start asks for; the order and repeats of the campaign ids do not change the request.
    requestHash: requestFingerprint({ project_id: projectId, campaign_ids: [...requested].sort(), settings: input.settings ?? null }),
    target: { project_id: projectId },
    expectedCost: input.expected_cost,
    prepare: async (trx) => {
      const project = await findProject(trx, caller.organizationId, projectId);
      const campaigns = await trx
        .selectFrom('campaigns')
        .select(['id', 'name', 'keywords_count', 'ads_count', 'groups_count'])
        .where('project_id', '=', projectId)
        .where('id', 'in', requested)
        .orderBy('position')
        .execute();
      if (campaigns.length !== requested.length) throw validationError([{ loc: ['body', 'campaign_ids'], msg: m.campaignsNotInProject }]);
      const price = priceCampaigns(
        campaigns.map((c) => ({ id: c.id, name: c.name, keywords_count: c.keywords_count, ads_count: c.ads_count, groups_count: c.groups_count })),
        auditAnalysisKinds,
      );
      const options: AnalysisOptions = {
        campaign_ids: campaigns.map((c) => c.id),
        settings: { ...(project.settings as ProjectSettings), ...(input.settings ?? {}) },
        target_cpa: project.target_cpa,
        region: project.region,
      };
      return { values: { status: 'queued', stage: 'queued', options: JSON.stringify(options) }, cost: price.total, debitReason: `Анализ проекта «${project.name}»` };
    },
  });
  return { analysis: await getAnalysis(db, caller.organizationId, started.id), created: started.created };
}

// ------------------------------------------------------------------------------------ cancel

/** Cancels a queued or running analysis and refunds it (once); cancelling a cancelled one changes nothing. */
export async function cancelAnalysis(db: DB, jobs: JobQueue | null, caller: Caller, analysisId: string): Promise<Analysis> {
  await findAnalysisRow(db, caller.organizationId, analysisId);
  // Who may cancel is the paid-run rule (author, owner, admin); a finished run keeps its outcome.
  if ((await cancelRun(db, jobs, auditRun, analysisId, caller)) === 'finished') throw conflict(m.alreadyFinished, 'ANALYSIS_FINISHED');
  return getAnalysis(db, caller.organizationId, analysisId);
}

// ------------------------------------------------------------------------------------ results

export interface ExportSource {
  analysis: Analysis;
  platform: string;
  /** The analysed campaigns, in the analysed order (suggestions name them by their index here). */
  campaignIds: string[];
  /** Positions of the suggestions are 0…n-1 in the engine's order. */
  suggestionsCount: number;
}

/** Accepted suggestions are read this many positions at a time (keyset on the engine's order). */
const EXPORT_READ_BATCH = 5_000;

/**
 * Whether the analysis can be exported, and what the export thread reads from (`readExport`): the
 * accepted suggestions batch by batch, then the touched campaigns one by one, never the whole result.
 */
export async function exportSource(db: DB, organizationId: string, analysisId: string): Promise<ExportSource> {
  const row = await findAnalysisRow(db, organizationId, analysisId);
  if (row.status !== 'completed') throw conflict(m.notCompleted, 'ANALYSIS_NOT_COMPLETED');
  const accepted = await db
    .selectFrom('analysis_decisions')
    .select('suggestion_id')
    .where('analysis_id', '=', analysisId)
    .where('decision', '=', 'accepted')
    .limit(1)
    .executeTakeFirst();
  if (!accepted) throw conflict(m.nothingToExport, 'NOTHING_TO_EXPORT');
  const [project, campaigns, { n: suggestionsCount }] = await Promise.all([
    db.selectFrom('projects').select('platform').where('id', '=', row.project_id).executeTakeFirstOrThrow(),
    db.selectFrom('campaigns').select('id').where('project_id', '=', row.project_id).where('id', 'in', row.options.campaign_ids).orderBy('position').execute(),
    db
      .selectFrom('analysis_suggestions')
      .select(sql<number>`coalesce(max(position) + 1, 0)::int`.as('n'))
      .where('analysis_id', '=', analysisId)
      .executeTakeFirstOrThrow(),
  ]);
  // Suggestions point at campaigns by their index in the analysed list: only the same list will do.
  // Campaign rows never change after an import, so the same ids in the same order are the same data.
  if (campaigns.map((c) => c.id).join() !== row.options.campaign_ids.join()) throw conflict(m.campaignsChanged, 'CAMPAIGNS_CHANGED');
  return { analysis: toAnalysis(row), platform: project.platform, campaignIds: row.options.campaign_ids, suggestionsCount };
}

/** One read of the export thread (export-file.ts): a position range of accepted suggestions, or one analysed campaign's JSON. */
export async function readExport(db: DB, source: ExportSource, read: ExportRead): Promise<ExportReadResult> {
  if (read.what === 'campaign') {
    const campaign = await db
      .selectFrom('campaigns')
      .select(sql<string>`data::text`.as('data'))
      .where('id', '=', source.campaignIds[read.index]!)
      .executeTakeFirst();
    // Gone since the export began (the project was re-imported or deleted).
    if (!campaign) throw conflict(m.campaignsChanged, 'CAMPAIGNS_CHANGED');
    return campaign.data;
  }
  const { from } = read;
  // Each batch is an index range scan on the positions, whatever the size.
  const batch = await sql<{ document: string; value: string | null }>`
    SELECT s.document::text AS document, d.value
      FROM (SELECT id, position, document FROM analysis_suggestions
             WHERE analysis_id = ${source.analysis.id} AND position >= ${from} AND position < ${from + EXPORT_READ_BATCH}
            OFFSET 0) s -- a fence: the range first, then its decisions (never all decisions per batch)
      JOIN analysis_decisions d ON d.analysis_id = ${source.analysis.id} AND d.suggestion_id = s.id AND d.decision = 'accepted'
     ORDER BY s.position`.execute(db);
  const next = from + EXPORT_READ_BATCH;
  // The first batch brings the names the documents' compact refs leave out (one per campaign and group).
  const names = from === 0 ? [...(await entityNames(db, source.analysis.id))] : undefined;
  return { suggestions: batch.rows, next: next < source.suggestionsCount ? next : null, ...(names ? { names } : {}) };
}

/**
 * Page checks on the database. Every query is scoped to the caller's organization; a
 * run or project of another organization is "not found".
 */
import type { Campaign } from '../../contract/campaigns.js';
import { pageCheckMessages as m } from '../../contract/messages.js';
import { MAX_PAGE_CHECK_URLS, type LandingUrlsResponse, type PageCheck, type PageCheckList, type PageCheckResults, type StartPageCheckRequest } from '../../contract/page-check.js';
import { collectLandingPages, describeLandingPages, type LandingPage } from '../engines/page-check/targets.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import type { Executor } from '../runs/paid-run.js';
import type { JobQueue } from '../jobs/queue.js';
import { conflict, notFound, validationError } from '../lib/errors.js';
import { requestFingerprint } from '../lib/idempotency.js';
import { findProject } from '../projects/service.js';
import { getBalance } from '../tokens/ledger.js';
import { pricingTable } from '../config/pricing-table.js';
import { priceLandingPages } from '../tokens/pricing.js';
import { cancelRun, recoverRuns, startPaidRun } from '../runs/paid-run.js';
import { pageCheckRun } from './lifecycle.js';
import { fullName, iso } from '../lib/api-values.js';

export const pageCheckNotFound = () => notFound(m.analysisNotFound, 'PAGE_CHECK_NOT_FOUND');


/** The landing pages of a project's ads, read from its stored campaigns. */
export async function loadLandingPages(db: Executor, projectId: string): Promise<LandingPage[]> {
  const rows = await db.selectFrom('campaigns').select('data').where('project_id', '=', projectId).orderBy('position').execute();
  return collectLandingPages(rows.map((row) => row.data as Campaign));
}

export async function listLandingUrls(db: DB, caller: Caller, projectId: string): Promise<LandingUrlsResponse> {
  await findProject(db, caller.organizationId, projectId);
  const pages = await loadLandingPages(db, projectId);
  return { urls: describeLandingPages(pages), price_per_page: pricingTable.perLandingPage, balance: await getBalance(db, caller.userId) };
}

const analysisColumns = [
  'r.id',
  'r.project_id',
  'r.status',
  'r.stage',
  'r.progress',
  'r.progress_detail',
  'r.urls',
  'r.cost',
  'r.score',
  'r.summary',
  'r.error',
  'r.created_at',
  'r.started_at',
  'r.finished_at',
  'r.created_by',
  'u.first_name',
  'u.last_name',
] as const;

function selectAnalyses(db: DB, organizationId: string) {
  return db
    .selectFrom('page_checks as r')
    .leftJoin('users as u', 'u.id', 'r.created_by')
    .select(analysisColumns)
    .where('r.organization_id', '=', organizationId);
}

type AnalysisRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectAnalyses>['executeTakeFirst']>>>;

function toApi(row: AnalysisRow): PageCheck {
  return {
    id: row.id,
    project_id: row.project_id,
    status: row.status,
    stage: row.stage,
    progress: row.progress,
    progress_detail: row.progress_detail,
    pages_count: row.urls.length,
    cost: row.cost,
    score: row.score,
    summary: row.summary,
    error: row.error,
    author: row.created_by ? { id: row.created_by, full_name: fullName(row.first_name, row.last_name) } : null,
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

async function findAnalysisRow(db: DB, organizationId: string, id: string): Promise<AnalysisRow> {
  const row = await selectAnalyses(db, organizationId).where('r.id', '=', id).executeTakeFirst();
  if (!row) throw pageCheckNotFound();
  return row;
}

export async function getPageCheck(db: DB, caller: Caller, id: string): Promise<PageCheck> {
  const row = await findAnalysisRow(db, caller.organizationId, id);
  // A run whose worker died long ago is failed and refunded when someone looks at it.
  if ((row.status === 'running' || row.status === 'queued') && (await recoverRuns(db, pageCheckRun, { onlyId: id })).failed.length > 0) return toApi(await findAnalysisRow(db, caller.organizationId, id));
  return toApi(row);
}

export async function listPageChecks(db: DB, caller: Caller, projectId: string, page: number, pageSize: number): Promise<PageCheckList> {
  await findProject(db, caller.organizationId, projectId);
  const base = db.selectFrom('page_checks').where('organization_id', '=', caller.organizationId).where('project_id', '=', projectId);
  const { total } = await base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
  const rows = await selectAnalyses(db, caller.organizationId)
    .where('r.project_id', '=', projectId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { items: rows.map(toApi), total: Number(total), page, page_size: pageSize };
}

export async function getPageCheckResults(db: DB, caller: Caller, id: string): Promise<PageCheckResults> {
  const analysis = await getPageCheck(db, caller, id);
  if (analysis.status !== 'completed') throw conflict(m.resultsNotReady, 'RESULTS_NOT_READY');
  const row = await db.selectFrom('page_checks').select('result').where('id', '=', id).where('organization_id', '=', caller.organizationId).executeTakeFirstOrThrow();
  if (!row.result) throw conflict(m.resultsNotReady, 'RESULTS_NOT_READY');
  return { analysis, result: row.result };
}

/** Addresses to check: the ones asked for (deduplicated), or every landing page of the project's ads. */
async function chooseUrls(db: Executor, projectId: string, body: StartPageCheckRequest): Promise<string[]> {
  if (body.urls) return [...new Set(body.urls.map((url) => url.trim()))];
  return (await loadLandingPages(db, projectId)).slice(0, MAX_PAGE_CHECK_URLS).map((page) => page.url);
}

/**
 * Starts a run: in ONE transaction the row, the debit and the job (server/runs/paid-run.ts); a repeated
 * idempotency key returns the first run and charges nothing.
 */
export async function startPageCheck(db: DB, jobs: JobQueue | null, caller: Caller, projectId: string, body: StartPageCheckRequest): Promise<{ analysis: PageCheck; created: boolean }> {
  await findProject(db, caller.organizationId, projectId);
  const started = await startPaidRun(db, jobs, pageCheckRun, {
    caller,
    key: body.idempotency_key.trim(),
    // What this start asks for: the project and the pages named (none: every landing page of the ads).
    requestHash: requestFingerprint({ project_id: projectId, urls: body.urls ? [...new Set(body.urls.map((url) => url.trim()))] : null }),
    target: { project_id: projectId },
    expectedCost: body.expected_cost,
    prepare: async (trx) => {
      const urls = await chooseUrls(trx, projectId, body);
      if (urls.length === 0) throw validationError([{ loc: ['body', 'urls'], msg: m.noLandingUrls }]);
      return { values: { urls: JSON.stringify(urls) }, cost: priceLandingPages(urls.length), debitReason: m.debitReason };
    },
  });
  return { analysis: toApi(await findAnalysisRow(db, caller.organizationId, started.id)), created: started.created };
}

/** Cancels an unfinished run and refunds it (once); cancelling a cancelled run answers the same. */
export async function cancelPageCheck(db: DB, jobs: JobQueue | null, caller: Caller, id: string): Promise<PageCheck> {
  await findAnalysisRow(db, caller.organizationId, id);
  if ((await cancelRun(db, jobs, pageCheckRun, id, caller)) === 'finished') throw conflict(m.alreadyFinished, 'ANALYSIS_FINISHED');
  return toApi(await findAnalysisRow(db, caller.organizationId, id));
}

/**
 * Landing-page relevance runs on the database. Every query is scoped to the caller's organization; a
 * run or project of another organization is "not found".
 */
import type { Campaign } from '../../src/contract/campaigns.js';
import { apiMessages, relevanceMessages as m } from '../../src/contract/messages.js';
import { MAX_RELEVANCE_URLS, type LandingUrlsResponse, type RelevanceAnalysis, type RelevanceList, type RelevanceResults, type StartRelevanceRequest } from '../../src/contract/relevance.js';
import { collectLandingPages, describeLandingPages, type LandingPage } from '../analysis/relevance/targets.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import { conflict, HttpError, notFound, validationError } from '../lib/errors.js';
import { requestFingerprint, requireSameRequest } from '../lib/idempotency.js';
import { findProject } from '../projects/service.js';
import { applyLedgerEntry, getBalance } from '../tokens/ledger.js';
import { priceLandingPages, pricingTable } from '../tokens/pricing.js';
import { finishUnsuccessfully, recoverInterruptedRelevance, RELEVANCE_QUEUE, relevanceJobOptions, type RelevanceJobData } from './lifecycle.js';
import { fullName, iso } from '../lib/api-values.js';

export const relevanceNotFound = () => notFound(m.analysisNotFound, 'RELEVANCE_NOT_FOUND');


/** The landing pages of a project's ads, read from its stored campaigns. */
export async function loadLandingPages(db: DB, projectId: string): Promise<LandingPage[]> {
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
    .selectFrom('relevance_analyses as r')
    .leftJoin('users as u', 'u.id', 'r.created_by')
    .select(analysisColumns)
    .where('r.organization_id', '=', organizationId);
}

type AnalysisRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectAnalyses>['executeTakeFirst']>>>;

function toApi(row: AnalysisRow): RelevanceAnalysis {
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
  if (!row) throw relevanceNotFound();
  return row;
}

export async function getRelevance(db: DB, caller: Caller, id: string): Promise<RelevanceAnalysis> {
  const row = await findAnalysisRow(db, caller.organizationId, id);
  // A run whose worker died long ago is failed and refunded when someone looks at it.
  if (row.status === 'running' && (await recoverInterruptedRelevance(db, id)) > 0) return toApi(await findAnalysisRow(db, caller.organizationId, id));
  return toApi(row);
}

export async function listRelevance(db: DB, caller: Caller, projectId: string, page: number, pageSize: number): Promise<RelevanceList> {
  await findProject(db, caller.organizationId, projectId);
  const base = db.selectFrom('relevance_analyses').where('organization_id', '=', caller.organizationId).where('project_id', '=', projectId);
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

export async function getRelevanceResults(db: DB, caller: Caller, id: string): Promise<RelevanceResults> {
  const analysis = await getRelevance(db, caller, id);
  if (analysis.status !== 'completed') throw conflict(m.resultsNotReady, 'RESULTS_NOT_READY');
  const row = await db.selectFrom('relevance_analyses').select('result').where('id', '=', id).where('organization_id', '=', caller.organizationId).executeTakeFirstOrThrow();
  if (!row.result) throw conflict(m.resultsNotReady, 'RESULTS_NOT_READY');
  return { analysis, result: row.result };
}

/** Addresses to check: the ones asked for (deduplicated), or every landing page of the project's ads. */
async function chooseUrls(db: DB, projectId: string, body: StartRelevanceRequest): Promise<string[]> {
  if (body.urls) return [...new Set(body.urls.map((url) => url.trim()))];
  return (await loadLandingPages(db, projectId)).slice(0, MAX_RELEVANCE_URLS).map((page) => page.url);
}

/**
 * Starts a run: in ONE transaction the row is inserted (a repeated idempotency key returns the first
 * run and charges nothing), the cost is debited through the ledger, and the job is enqueued, so there
 * is never a charge without a job or a job without a charge.
 */
export async function startRelevance(db: DB, jobs: JobQueue | null, caller: Caller, projectId: string, body: StartRelevanceRequest): Promise<{ analysis: RelevanceAnalysis; created: boolean }> {
  await findProject(db, caller.organizationId, projectId);
  const key = body.idempotency_key.trim();
  // What this start asks for: the project and the pages named (none: every landing page of the ads).
  const requestHash = requestFingerprint({ project_id: projectId, urls: body.urls ? [...new Set(body.urls.map((url) => url.trim()))] : null });
  const existing = await findByKey(db, caller, key);
  if (existing) return { analysis: await reuse(db, caller, existing, projectId, requestHash), created: false };
  if (!jobs) throw new HttpError(503, 'QUEUE_UNAVAILABLE', m.queueUnavailable);

  const urls = await chooseUrls(db, projectId, body);
  if (urls.length === 0) throw validationError([{ loc: ['body', 'urls'], msg: m.noLandingUrls }]);
  const cost = priceLandingPages(urls.length);

  const id = await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('relevance_analyses')
      .values({
        organization_id: caller.organizationId,
        project_id: projectId,
        created_by: caller.userId,
        urls: JSON.stringify(urls),
        cost,
        idempotency_key: key,
        request_hash: requestHash,
      })
      .onConflict((oc) => oc.columns(['created_by', 'idempotency_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    // The same key sent twice at once: the other request won, this one answers with its run.
    if (!inserted) return null;
    if (cost > 0) {
      const balance = await getBalance(trx, caller.userId);
      if (balance < cost) {
        throw new HttpError(402, 'INSUFFICIENT_TOKENS', apiMessages.insufficientTokens, [
          { loc: ['body', 'urls'], msg: `Нужно токенов: ${cost}, на балансе: ${balance}` },
        ]);
      }
      await applyLedgerEntry(trx, {
        userId: caller.userId,
        organizationId: caller.organizationId,
        type: 'analysis_debit',
        amount: -cost,
        idempotencyKey: `relevance:${key}`,
        reason: m.debitReason,
        referenceId: inserted.id,
      });
    }
    const jobId = await jobs.send(RELEVANCE_QUEUE, { analysisId: inserted.id } satisfies RelevanceJobData, { transaction: trx, ...relevanceJobOptions });
    await trx.updateTable('relevance_analyses').set({ job_id: jobId }).where('id', '=', inserted.id).execute();
    return inserted.id;
  });
  if (!id) {
    const raced = await findByKey(db, caller, key);
    if (!raced) throw new Error('idempotent start: the conflicting run vanished');
    return { analysis: await reuse(db, caller, raced, projectId, requestHash), created: false };
  }
  return { analysis: toApi(await findAnalysisRow(db, caller.organizationId, id)), created: true };
}

async function findByKey(db: DB, caller: Caller, key: string) {
  return db.selectFrom('relevance_analyses').select(['id', 'project_id', 'organization_id', 'request_hash']).where('created_by', '=', caller.userId).where('idempotency_key', '=', key).executeTakeFirst();
}

async function reuse(
  db: DB,
  caller: Caller,
  existing: { id: string; project_id: string; organization_id: string; request_hash: string | null },
  projectId: string,
  requestHash: string,
): Promise<RelevanceAnalysis> {
  if (existing.project_id !== projectId || existing.organization_id !== caller.organizationId) {
    throw conflict('Ключ идемпотентности уже использован для другой операции', 'IDEMPOTENCY_KEY_REUSED');
  }
  requireSameRequest(existing.request_hash, requestHash);
  return toApi(await findAnalysisRow(db, caller.organizationId, existing.id));
}

/** Cancels an unfinished run and refunds it; cancelling a cancelled run answers the same. */
export async function cancelRelevance(db: DB, jobs: JobQueue | null, caller: Caller, id: string): Promise<RelevanceAnalysis> {
  const row = await findAnalysisRow(db, caller.organizationId, id);
  if (row.status === 'completed' || row.status === 'failed') throw conflict(m.alreadyFinished, 'ANALYSIS_FINISHED');
  if (row.status !== 'cancelled') {
    const changed = await finishUnsuccessfully(db, id, 'cancelled', null);
    // A queued job is taken off the queue; a running one notices the status and stops by itself.
    const job = await db.selectFrom('relevance_analyses').select('job_id').where('id', '=', id).executeTakeFirst();
    if (changed && job?.job_id && jobs) await jobs.cancel(RELEVANCE_QUEUE, job.job_id).catch(() => undefined);
    if (!changed) {
      const now = await findAnalysisRow(db, caller.organizationId, id);
      if (now.status !== 'cancelled') throw conflict(m.alreadyFinished, 'ANALYSIS_FINISHED');
    }
  }
  return toApi(await findAnalysisRow(db, caller.organizationId, id));
}

/**
 * The `page-check.run` job: claims the run, fetches the pages (4 at a time, progress into the row after
 * each page), runs the engine in a worker thread and stores the report. Every write after the claim is
 * conditional on `status = 'running' AND attempts = <this attempt>`: a write that matches nothing means
 * the run was cancelled or a retry took it over, and this attempt stops without touching it.
 * Any failure ends the run as failed and refunds it.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Campaign } from '../../contract/campaigns.js';
import { pageCheckMessages as m } from '../../contract/messages.js';
import { wasChecked, type PageCheckResult } from '../../contract/page-check.js';
import { pageKey, type GroupTarget, type PageCheckInput } from '../engines/page-check/engine.js';
import { collectLandingPages } from '../engines/page-check/targets.js';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { QueuedJob } from '../jobs/queue.js';
import type { JobWorker } from '../jobs/workers.js';
import { pageCheckPool } from '../lib/worker-pool.js';
import { applyLedgerEntry } from '../tokens/ledger.js';
import { priceLandingPages } from '../tokens/pricing.js';
import { fetchPages, type FetchOptions } from './fetcher.js';
import { claimRun, failRun, ownedUpdate, startHeartbeat, type ClaimedRun } from '../runs/paid-run.js';
import { PAGE_CHECK_QUEUE, pageCheckRun, type PageCheckJobData } from './lifecycle.js';

const engineModule = new URL('../engines/page-check/run.js', import.meta.url);
const ENGINE_TIMEOUT_MS = 5 * 60_000;

/** Fetch limits of the worker; tests shorten the timeout. */
export const pageCheckFetchSettings: Pick<FetchOptions, 'timeoutMs' | 'maxBytes' | 'maxRedirects'> & { concurrency?: number } = {};

class RunLostError extends Error {}

/** The claimed run with what it reads: its project and its addresses. */
async function claim(db: DB, job: QueuedJob<PageCheckJobData>): Promise<(ClaimedRun & { projectId: string; urls: string[] }) | null> {
  const claimed = await claimRun(db, pageCheckRun, job);
  if (!claimed) return null;
  const row = await db.selectFrom('page_checks').select(['project_id', 'urls']).where('id', '=', claimed.id).executeTakeFirstOrThrow();
  return { ...claimed, projectId: row.project_id, urls: row.urls };
}

/** The ad groups behind each address of the run, from the project's current campaigns. */
async function targetsFor(db: DB, projectId: string, urls: string[]): Promise<Record<string, GroupTarget[]>> {
  const rows = await db.selectFrom('campaigns').select('data').where('project_id', '=', projectId).orderBy('position').execute();
  const byKey = new Map(collectLandingPages(rows.map((row) => row.data as Campaign)).map((page) => [page.key, page.groups]));
  return Object.fromEntries(urls.map((url) => [url, byKey.get(pageKey(url)) ?? []]));
}

export async function runPageCheckJob(db: DB, config: AppConfig, job: QueuedJob<PageCheckJobData>): Promise<void> {
  const run = await claim(db, job);
  if (!run) return;
  const stop = new AbortController();
  // Cancelled (or taken over): stop fetching the remaining pages.
  const stopHeartbeat = startHeartbeat(db, pageCheckRun, run, () => stop.abort());
  try {
    const targets = await targetsFor(db, run.projectId, run.urls);
    const pages = await fetchPages(run.urls, {
      ...pageCheckFetchSettings,
      allowPrivateHosts: config.allowPrivateHosts,
      signal: stop.signal,
      onPage: async (done, total) => {
        const owned = await ownedUpdate(db, pageCheckRun, run, { progress: sql`greatest(progress, ${Math.floor((done / total) * 90)})`, progress_detail: JSON.stringify({ done, total }) });
        if (!owned) stop.abort();
      },
    });
    if (stop.signal.aborted) throw new RunLostError();
    if (!(await ownedUpdate(db, pageCheckRun, run, { stage: 'analyzing', progress: 92 }))) throw new RunLostError();
    const input: PageCheckInput = { pages, targets };
    const result = await pageCheckPool().run<PageCheckResult>(engineModule, 'runPageCheckEngine', [input], { timeoutMs: ENGINE_TIMEOUT_MS });
    // Pages with no answer (DNS, connection, timeout, refused by the SSRF guard) were not checked: not charged (refunded with the result).
    const stored = await db.transaction().execute(async (trx) => {
      const completed = await ownedUpdate(trx, pageCheckRun, run, {
        status: 'completed',
        stage: 'done',
        progress: 100,
        result: JSON.stringify(result),
        summary: JSON.stringify(result.summary),
        score: result.summary.averageScore,
        finished_at: sql`now()`,
        heartbeat_at: null,
      });
      if (completed) await refundUncheckedPages(trx, run, pages.filter((page) => !wasChecked(page)).length);
      return completed;
    });
    if (!stored) throw new RunLostError();
  } catch (error) {
    if (error instanceof RunLostError) return;
    await failRun(db, pageCheckRun, run, m.failed);
    if (config.logLevel !== 'silent') console.error('page check failed', { analysisId: run.id, err: error });
  } finally {
    stopHeartbeat();
  }
}

/**
 * Gives back the price of the pages that could not be checked, in the transaction that completes the
 * run (which happens once: the completion is conditional on this attempt owning a running run), under
 * one ledger key per run. The run's cost then shows what was really charged.
 */
async function refundUncheckedPages(trx: Transaction<Database>, run: ClaimedRun & { urls: string[] }, unchecked: number): Promise<void> {
  if (unchecked === 0) return;
  const row = await trx.selectFrom('page_checks').select(['cost', 'created_by', 'organization_id']).where('id', '=', run.id).executeTakeFirstOrThrow();
  const refund = Math.min(row.cost, row.cost - priceLandingPages(run.urls.length - unchecked));
  if (refund <= 0) return;
  await trx.updateTable('page_checks').set({ cost: row.cost - refund }).where('id', '=', run.id).execute();
  if (!row.created_by) return;
  await applyLedgerEntry(trx, {
    userId: row.created_by,
    organizationId: row.organization_id,
    type: 'analysis_refund',
    amount: refund,
    idempotencyKey: `refund-unchecked:${run.id}`,
    referenceId: run.id,
    reason: m.uncheckedRefundReason.replace('{count}', String(unchecked)),
  });
}

export const pageCheckJobWorker: JobWorker = {
  queue: PAGE_CHECK_QUEUE,
  start: async (queue, { db, config }) => {
    await queue.work<PageCheckJobData>(PAGE_CHECK_QUEUE, (job) => runPageCheckJob(db, config, job), { concurrency: 2 });
  },
};

/**
 * The `relevance.run` job: claims the run, fetches the pages (4 at a time, progress into the row after
 * each page), runs the engine in a worker thread and stores the report. Every write after the claim is
 * conditional on `status = 'running' AND attempts = <this attempt>`: a write that matches nothing means
 * the run was cancelled or a retry took it over, and this attempt stops without touching it.
 * Any failure ends the run as failed and refunds it.
 */
import { sql } from 'kysely';
import type { Campaign } from '../../src/contract/campaigns.js';
import { relevanceMessages as m } from '../../src/contract/messages.js';
import type { RelevanceResult } from '../../src/contract/relevance.js';
import { pageKey, type GroupTarget, type RelevanceInput } from '../analysis/relevance/engine.js';
import { collectLandingPages } from '../analysis/relevance/targets.js';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { QueuedJob } from '../jobs/queue.js';
import type { JobWorker } from '../jobs/workers.js';
import { relevancePool } from '../lib/worker-pool.js';
import { applyLedgerEntry } from '../tokens/ledger.js';
import { priceLandingPages } from '../tokens/pricing.js';
import { fetchPages, type FetchOptions } from './fetcher.js';
import { finishUnsuccessfully, MAX_ATTEMPTS, recoverInterruptedRelevance, RELEVANCE_QUEUE, type RelevanceJobData } from './lifecycle.js';

const engineModule = new URL('../analysis/relevance/run.js', import.meta.url);
const ENGINE_TIMEOUT_MS = 5 * 60_000;

/** Fetch limits of the worker; tests shorten the timeout. */
export const relevanceFetchSettings: Pick<FetchOptions, 'timeoutMs' | 'maxBytes' | 'maxRedirects'> & { concurrency?: number } = {};

class RunLostError extends Error {}

interface Claimed {
  id: string;
  projectId: string;
  urls: string[];
  attempt: number;
}

async function claim(db: DB, job: QueuedJob<RelevanceJobData>): Promise<Claimed | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('relevance_analyses')
      .select(['id', 'project_id', 'status', 'job_id', 'attempts', 'urls'])
      .where('id', '=', job.data.analysisId)
      .forUpdate()
      .executeTakeFirst();
    if (!row || (row.status !== 'queued' && row.status !== 'running') || (row.job_id !== null && row.job_id !== job.id)) return null;
    if (row.attempts >= MAX_ATTEMPTS) {
      await finishUnsuccessfully(trx, row.id, 'failed', m.interrupted);
      return null;
    }
    const attempt = row.attempts + 1;
    // A retried run starts over: progress of a dead attempt means nothing now.
    await trx
      .updateTable('relevance_analyses')
      .set({ status: 'running', stage: 'fetching', progress: 0, progress_detail: JSON.stringify({ done: 0, total: row.urls.length }), attempts: attempt, started_at: sql`coalesce(started_at, now())`, heartbeat_at: sql`now()` })
      .where('id', '=', row.id)
      .execute();
    return { id: row.id, projectId: row.project_id, urls: row.urls, attempt };
  });
}

/** The ad groups behind each address of the run, from the project's current campaigns. */
async function targetsFor(db: DB, projectId: string, urls: string[]): Promise<Record<string, GroupTarget[]>> {
  const rows = await db.selectFrom('campaigns').select('data').where('project_id', '=', projectId).orderBy('position').execute();
  const byKey = new Map(collectLandingPages(rows.map((row) => row.data as Campaign)).map((page) => [page.key, page.groups]));
  return Object.fromEntries(urls.map((url) => [url, byKey.get(pageKey(url)) ?? []]));
}

export async function runRelevanceJob(db: DB, config: AppConfig, job: QueuedJob<RelevanceJobData>): Promise<void> {
  const run = await claim(db, job);
  if (!run) return;
  const owned = () => db.updateTable('relevance_analyses').where('id', '=', run.id).where('status', '=', 'running').where('attempts', '=', run.attempt);
  const stop = new AbortController();
  try {
    const targets = await targetsFor(db, run.projectId, run.urls);
    const pages = await fetchPages(run.urls, {
      ...relevanceFetchSettings,
      allowPrivateHosts: config.allowPrivateHosts,
      signal: stop.signal,
      onPage: async (done, total) => {
        const updated = await owned()
          .set({ progress: sql`greatest(progress, ${Math.floor((done / total) * 90)})`, progress_detail: JSON.stringify({ done, total }), heartbeat_at: sql`now()` })
          .returning('id')
          .executeTakeFirst();
        // Cancelled (or taken over): stop fetching the remaining pages.
        if (!updated) stop.abort();
      },
    });
    if (stop.signal.aborted) throw new RunLostError();
    const moved = await owned().set({ stage: 'analyzing', progress: 92, heartbeat_at: sql`now()` }).returning('id').executeTakeFirst();
    if (!moved) throw new RunLostError();
    const input: RelevanceInput = { pages, targets };
    const result = await relevancePool().run<RelevanceResult>(engineModule, 'runRelevanceEngine', [input], { timeoutMs: ENGINE_TIMEOUT_MS });
    // Pages the SSRF guard refused were never read: they are not charged (refunded with the result).
    const stored = await db.transaction().execute(async (trx) => {
      const refused = pages.filter((page) => page.refused).length;
      const row = await trx
        .updateTable('relevance_analyses')
        .where('id', '=', run.id)
        .where('status', '=', 'running')
        .where('attempts', '=', run.attempt)
        .set({
          status: 'completed',
          stage: 'done',
          progress: 100,
          result: JSON.stringify(result),
          summary: JSON.stringify(result.summary),
          score: result.summary.averageScore,
          finished_at: sql`now()`,
          heartbeat_at: null,
        })
        .returning(['id', 'created_by', 'organization_id', 'cost'])
        .executeTakeFirst();
      if (!row || refused === 0) return row;
      const refund = Math.min(row.cost, row.cost - priceLandingPages(run.urls.length - refused));
      if (refund <= 0) return row;
      await trx.updateTable('relevance_analyses').set({ cost: row.cost - refund }).where('id', '=', row.id).execute();
      if (row.created_by) {
        await applyLedgerEntry(trx, {
          userId: row.created_by,
          organizationId: row.organization_id,
          type: 'analysis_refund',
          amount: refund,
          idempotencyKey: `refund-refused:${row.id}`,
          referenceId: row.id,
          reason: m.refusedRefundReason.replace('{count}', String(refused)),
        });
      }
      return row;
    });
    if (!stored) throw new RunLostError();
  } catch (error) {
    if (error instanceof RunLostError) return;
    // Only the attempt that still owns the run may fail it.
    const still = await db.selectFrom('relevance_analyses').select('id').where('id', '=', run.id).where('status', '=', 'running').where('attempts', '=', run.attempt).executeTakeFirst();
    if (still) await finishUnsuccessfully(db, run.id, 'failed', m.failed);
    if (config.logLevel !== 'silent') console.error('relevance run failed', { analysisId: run.id, err: error });
  }
}

export const relevanceJobWorker: JobWorker = {
  queue: RELEVANCE_QUEUE,
  start: async (queue, { db, config }) => {
    // Runs a dead process left behind are failed and refunded before new work is taken.
    await recoverInterruptedRelevance(db);
    await queue.work<RelevanceJobData>(RELEVANCE_QUEUE, (job) => runRelevanceJob(db, config, job), { concurrency: 2 });
  },
};

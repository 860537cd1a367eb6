import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { analysisMessages } from '../../../contract/messages.js';
import { auditRun } from '../../../server/analysis/lifecycle.js';
import { STALE_HEARTBEAT_SECONDS } from '../../../server/jobs/sweep.js';
import { recoverRuns } from '../../../server/runs/paid-run.js';
import { startRunRecoverySweep } from '../../../server/runs/kinds.js';
import { runAnalysisJob } from '../../../server/analysis/worker.js';
import { startJobQueue } from '../../../server/jobs/boss.js';
import { jobWorkers } from '../../../server/job-workers.js';
import type { JobQueue } from '../../../server/jobs/queue.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { balanceOf, eventsUntilDone, ledgerOf, projectWithCampaigns, waitForAnalysisRow } from './helpers.js';

/**
 * A server restart in the middle of a run, reproduced exactly: the job is enqueued by an app whose
 * queue runs no workers, then the database is put in the state a killed process leaves behind (the
 * pg-boss job still "active", the analysis "running" with an old heartbeat). Start-up recovery must
 * end it in a clean state: run again to completion on a live worker, or fail and refund, never both.
 */
describe('analysis after a restart mid-job', () => {
  let t: TestApp;
  let user: FixtureUser;
  let project: Awaited<ReturnType<typeof projectWithCampaigns>>;

  beforeAll(async () => {
    t = await createTestApp({ jobQueue: { runWorkers: false } });
    user = await createUser(t.app, { balance: 1000 });
    project = await projectWithCampaigns(t.app, user);
  });
  afterAll(async () => t.close());

  /** Starts an analysis and leaves it as a process killed in the middle of its run would. */
  async function killedMidRun(attempts = 1) {
    const started = await call(t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, {
      token: user.token,
      body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() },
    });
    expect(started.status).toBe(201);
    const id = started.body.analysis.id as string;
    const { job_id: jobId } = await t.app.db.selectFrom('analyses').select('job_id').where('id', '=', id).executeTakeFirstOrThrow();
    await sql`UPDATE pgboss.job SET state = 'active', started_on = now() - interval '10 minutes' WHERE id = ${jobId}::uuid`.execute(t.app.db);
    await t.app.db
      .updateTable('analyses')
      .set({ status: 'running', stage: 'lemmatize', progress: 30, attempts, heartbeat_at: sql`now() - interval '5 minutes'`, started_at: sql`now() - interval '10 minutes'` })
      .where('id', '=', id)
      .execute();
    return { id, jobId: jobId!, cost: started.body.analysis.cost as number };
  }

  it('starts the run over on a new job after the restart; it completes, charged once and not refunded', async () => {
    const before = await balanceOf(t.app, user.id);
    const { id, jobId, cost } = await killedMidRun();
    // The restarted process: a queue with workers, then start-up recovery.
    const restarted: JobQueue = await startJobQueue({ db: t.app.db, connectionString: t.database.url, config: t.config, workers: jobWorkers, runWorkers: true });
    try {
      const report = await recoverRuns(t.app.db, auditRun, { jobs: restarted });
      expect(report).toEqual({ resumed: [id], failed: [] });
      const events = await eventsUntilDone(t.app, user.token, id);
      expect(events.at(-1)).toMatchObject({ event: 'done', analysis: { status: 'completed', progress: 100 } });
    } finally {
      await restarted.stop();
    }
    const row = await t.app.db.selectFrom('analyses').select(['attempts', 'job_id']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(2);
    expect(row.job_id).not.toBe(jobId);
    const oldJob = await sql<{ state: string }>`SELECT state FROM pgboss.job WHERE id = ${jobId}::uuid`.execute(t.app.db);
    expect(oldJob.rows[0]?.state).toBe('cancelled');
    expect((await ledgerOf(t.app, id)).map((e) => [e.type, e.amount])).toEqual([['analysis_debit', -cost]]);
    expect(await balanceOf(t.app, user.id)).toBe(before - cost);

    // The old job delivered late (pg-boss expiry) finds the analysis owned by another job: nothing happens.
    await runAnalysisJob(t.app.db, { id: jobId, name: 'analysis.run', data: { analysisId: id }, retryCount: 1 });
    expect((await t.app.db.selectFrom('analyses').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('completed');
  });

  it('a run killed between the commits of its saving connections left rows behind: the rerun clears them and stores its own', async () => {
    const { id } = await killedMidRun();
    // What one saving connection's committed transaction leaves (result-saving.ts): rows of an analysis that never completed.
    await sql`INSERT INTO analysis_scores (analysis_id, level, key, position, campaign_key, score, money_per_month, document)
              VALUES (${id}, 'campaign', 'c0', 0, 'c0', 1, 0, '{"left":"behind"}')`.execute(t.app.db);
    await sql`INSERT INTO analysis_semantic (analysis_id, section, position, count, document) VALUES (${id}, 'clusters', 0, 1, '[{"left":"behind"}]')`.execute(t.app.db);
    const pages = await call(t.app, 'GET', `/api/v1/analyses/${id}/scores?level=campaign`, { token: user.token });
    expect(pages.status).not.toBe(200);

    const restarted: JobQueue = await startJobQueue({ db: t.app.db, connectionString: t.database.url, config: t.config, workers: jobWorkers, runWorkers: true });
    try {
      expect(await recoverRuns(t.app.db, auditRun, { jobs: restarted })).toEqual({ resumed: [id], failed: [] });
      const events = await eventsUntilDone(t.app, user.token, id);
      expect(events.at(-1)).toMatchObject({ event: 'done', analysis: { status: 'completed' } });
    } finally {
      await restarted.stop();
    }
    const scores = await call(t.app, 'GET', `/api/v1/analyses/${id}/scores?level=campaign`, { token: user.token });
    expect(scores.status).toBe(200);
    expect(scores.body.items.length).toBeGreaterThan(0);
    expect(JSON.stringify(scores.body.items)).not.toContain('behind');
    const clusters = await call(t.app, 'GET', `/api/v1/analyses/${id}/semantic/clusters`, { token: user.token });
    expect(JSON.stringify(clusters.body)).not.toContain('behind');
  });

  it('without a queue to resume on, or out of attempts, fails and refunds exactly once', async () => {
    const before = await balanceOf(t.app, user.id);
    const first = await killedMidRun();
    const exhausted = await killedMidRun(3);

    expect(await recoverRuns(t.app.db, auditRun)).toEqual({ resumed: [], failed: expect.arrayContaining([first.id, exhausted.id]) });
    // A second process starting up at the same time (or the next restart) finds nothing to do.
    expect(await recoverRuns(t.app.db, auditRun, { jobs: t.app.jobs })).toEqual({ resumed: [], failed: [] });

    for (const { id, cost } of [first, exhausted]) {
      const reload = await call(t.app, 'GET', `/api/v1/analyses/${id}`, { token: user.token });
      expect(reload.body.analysis).toMatchObject({ status: 'failed', error: analysisMessages.interrupted });
      expect((await ledgerOf(t.app, id)).map((e) => [e.type, e.amount])).toEqual([
        ['analysis_debit', -cost],
        ['analysis_refund', cost],
      ]);
    }
    expect(await balanceOf(t.app, user.id)).toBe(before);

    // A job of a failed analysis delivered later does nothing either.
    await runAnalysisJob(t.app.db, { id: first.jobId, name: 'analysis.run', data: { analysisId: first.id }, retryCount: 0 });
    expect((await t.app.db.selectFrom('analyses').select('status').where('id', '=', first.id).executeTakeFirstOrThrow()).status).toBe('failed');
    expect(await balanceOf(t.app, user.id)).toBe(before);
  });

  it('leaves alone a run whose worker is alive, and a queued job waiting for a worker', async () => {
    const live = await killedMidRun();
    await t.app.db.updateTable('analyses').set({ heartbeat_at: sql`now()` }).where('id', '=', live.id).execute();
    const waiting = await call(t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, {
      token: user.token,
      body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() },
    });
    expect(await recoverRuns(t.app.db, auditRun, { jobs: t.app.jobs })).toEqual({ resumed: [], failed: [] });
    const statuses = await t.app.db.selectFrom('analyses').select(['id', 'status']).where('id', 'in', [live.id, waiting.body.analysis.id]).execute();
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({ [live.id]: 'running', [waiting.body.analysis.id]: 'queued' });
  });

  it('a run killed so recently that its heartbeat looked alive at start-up is resumed by the next sweep', async () => {
    const { id, jobId } = await killedMidRun();
    await t.app.db.updateTable('analyses').set({ heartbeat_at: sql`now()` }).where('id', '=', id).execute();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stopSweep = startRunRecoverySweep(t.app.db, { jobs: t.app.jobs });
    try {
      // Start-up: the heartbeat is fresh, so the run is left to its (possibly live) worker.
      expect(await recoverRuns(t.app.db, auditRun, { jobs: t.app.jobs })).toEqual({ resumed: [], failed: [] });
      // No heartbeat came since: a minute later it has gone stale, and the sweep picks the run up.
      await t.app.db.updateTable('analyses').set({ heartbeat_at: sql`now() - make_interval(secs => ${STALE_HEARTBEAT_SECONDS + 5})` }).where('id', '=', id).execute();
      vi.advanceTimersByTime(STALE_HEARTBEAT_SECONDS * 1000);
      const row = await waitForAnalysisRow<{ status: string; job_id: string }>(t.database.url, id, (r) => r.job_id !== jobId);
      expect(row.status).toBe('queued');
    } finally {
      stopSweep();
      vi.useRealTimers();
    }
    // Charged once, nothing refunded: the run simply starts again on its new job.
    expect((await ledgerOf(t.app, id)).map((e) => e.type)).toEqual(['analysis_debit']);
  });
});

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiPlanRun } from '../../../server/ai-plan/lifecycle.js';
import { auditRun } from '../../../server/analysis/lifecycle.js';
import { pageCheckRun } from '../../../server/page-check/lifecycle.js';
import { cancelRunOf, resumeRunOf, type PaidRunKindName } from '../../../server/runs/kinds.js';
import { STALE_HEARTBEAT_SECONDS } from '../../../server/jobs/sweep.js';
import { claimRun, failRun, ownedUpdate, recoverRuns, type PaidRunKind } from '../../../server/runs/paid-run.js';
import { balanceOf, ledgerOf } from '../analysis/helpers.js';
import { call, type TestApp } from '../helpers/app.js';
import type { FixtureUser } from '../helpers/fixtures.js';
import { paidRunSetting } from './helpers.js';

/**
 * The one paid-run lifecycle (server/runs/paid-run.ts), kind by kind, through each kind's own start
 * (and cancel) route. The queue runs no workers: the test plays the worker (claim, fail) and the
 * crash (an active job whose worker stopped writing heartbeats), so every step is deterministic.
 */
describe('paid runs: paid once, refunded once, recovered by their crash policy', () => {
  let t: TestApp;
  let user: FixtureUser;
  let projectId: string;
  let campaignIds: string[];
  let auditId: string;

  beforeAll(async () => {
    ({ t, user, projectId, campaignIds, auditId } = await paidRunSetting());
  });
  afterAll(async () => t?.close());

  interface KindUnderTest {
    name: PaidRunKindName;
    kind: PaidRunKind;
    start: (key: string) => Promise<{ status: number; body: Record<string, any> }>;
    /** The run in its answer. */
    runOf: (body: Record<string, any>) => { id: string; status: string; cost: number };
    cancel: (id: string) => Promise<string>;
  }

  const kinds: KindUnderTest[] = [
    {
      name: 'audit',
      kind: auditRun,
      start: (key) => call(t.app, 'POST', `/api/v1/projects/${projectId}/analyses`, { token: user.token, body: { campaign_ids: campaignIds, idempotency_key: key } }),
      runOf: (body) => body.analysis,
      cancel: async (id) => (await call(t.app, 'POST', `/api/v1/analyses/${id}/cancel`, { token: user.token })).body.analysis.status,
    },
    {
      name: 'page-check',
      kind: pageCheckRun,
      start: (key) => call(t.app, 'POST', `/api/v1/projects/${projectId}/page-checks`, { token: user.token, body: { urls: ['https://example.com/okna', 'https://example.com/dveri'], idempotency_key: key } }),
      runOf: (body) => body.analysis,
      cancel: async (id) => (await call(t.app, 'POST', `/api/v1/page-checks/${id}/cancel`, { token: user.token })).body.analysis.status,
    },
    {
      name: 'ai-plan',
      kind: aiPlanRun,
      start: (key) => call(t.app, 'POST', `/api/v1/analyses/${auditId}/ai-plans`, { token: user.token, body: { idempotency_key: key } }),
      runOf: (body) => body.ai_plan,
      // No user route cancels an AI plan; the admin area calls the kind's cancel.
      cancel: async (id) => {
        await cancelRunOf(t.app.db, t.app.jobs, 'ai-plan', id);
        return (await t.app.db.selectFrom('ai_plans').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
      },
    },
  ];

  const rowOf = (kind: PaidRunKind, id: string) =>
    sql<{ status: string; job_id: string; attempts: number; error: string | null }>`SELECT status, job_id, attempts, error FROM ${sql.table(kind.table)} WHERE id = ${id}`
      .execute(t.app.db)
      .then((result) => result.rows[0]!);

  async function started(under: KindUnderTest) {
    const answer = await under.start(randomUUID());
    expect(answer.status).toBe(201);
    const run = under.runOf(answer.body);
    expect(run.cost).toBeGreaterThan(0);
    return run;
  }

  /** What a worker does when the job arrives: claims the run for this attempt. */
  async function claimed(under: KindUnderTest, id: string) {
    const { job_id: jobId } = await rowOf(under.kind, id);
    const run = await claimRun(t.app.db, under.kind, { id: jobId, name: under.kind.queue, data: under.kind.jobData(id), retryCount: 0 });
    expect(run).toEqual({ id, attempt: 1 });
    return run!;
  }

  const ledger = async (id: string) => (await ledgerOf(t.app, id)).map((entry) => [entry.type, entry.amount]);

  describe.each(kinds)('$name', (under) => {
    it('is paid once under 10 identical starts at once: one run, one debit, one job', async () => {
      const before = await balanceOf(t.app, user.id);
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: 10 }, () => under.start(key)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
      const ids = new Set(answers.map((answer) => under.runOf(answer.body).id));
      expect(ids.size).toBe(1);
      const [id] = [...ids] as [string];
      const { cost } = under.runOf(answers[0]!.body);
      expect(await ledger(id)).toEqual([['analysis_debit', -cost]]);
      expect(await balanceOf(t.app, user.id)).toBe(before - cost);
      const jobs = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${under.kind.queue} AND data = ${JSON.stringify(under.kind.jobData(id))}::jsonb`.execute(t.app.db);
      expect(jobs.rows[0]!.n).toBe(1);
    });

    it('a failure refunds once, however many times it is failed; a finished run cannot be cancelled back', async () => {
      const before = await balanceOf(t.app, user.id);
      const { id, cost } = await started(under);
      const run = await claimed(under, id);
      expect(await failRun(t.app.db, under.kind, run, 'сломалось')).not.toBeNull();
      // A late second failure, a recovery and a cancel all find it finished.
      expect(await failRun(t.app.db, under.kind, run, 'ещё раз')).toBeNull();
      expect(await recoverRuns(t.app.db, under.kind, { jobs: t.app.jobs, onlyId: id })).toEqual({ resumed: [], failed: [] });
      expect(await cancelRunOf(t.app.db, t.app.jobs, under.name, id)).toBe('finished');
      expect((await rowOf(under.kind, id)).status).toBe('failed');
      expect(await ledger(id)).toEqual([
        ['analysis_debit', -cost],
        ['analysis_refund', cost],
      ]);
      expect(await balanceOf(t.app, user.id)).toBe(before);
    });

    it('cancelling twice refunds once, and the worker of the cancelled run can write nothing more', async () => {
      const before = await balanceOf(t.app, user.id);
      const { id, cost } = await started(under);
      const run = await claimed(under, id);
      expect(await under.cancel(id)).toBe('cancelled');
      expect(await under.cancel(id)).toBe('cancelled');
      expect(await ownedUpdate(t.app.db, under.kind, run, {})).toBe(false);
      expect(await failRun(t.app.db, under.kind, run, 'поздно')).toBeNull();
      expect(await ledger(id)).toEqual([
        ['analysis_debit', -cost],
        ['analysis_refund', cost],
      ]);
      expect(await balanceOf(t.app, user.id)).toBe(before);
    });

    it('a stuck run can be started over on a new job (the admin\'s retry), charged nothing more; a finished one cannot', async () => {
      const { id, cost } = await started(under);
      const run = await claimed(under, id);
      const { job_id: jobId } = await rowOf(under.kind, id);
      expect(await resumeRunOf(t.app.db, t.app.jobs!, under.name, id)).toBe(true);
      const row = await rowOf(under.kind, id);
      expect(row.status).toBe('queued');
      expect(row.job_id).not.toBe(jobId);
      // The stuck attempt lost the run; the new job's worker takes it as the next attempt.
      expect(await ownedUpdate(t.app.db, under.kind, run, {})).toBe(false);
      expect(await claimRun(t.app.db, under.kind, { id: row.job_id, name: under.kind.queue, data: under.kind.jobData(id), retryCount: 0 })).toEqual({ id, attempt: 2 });
      expect(await ledger(id)).toEqual([['analysis_debit', -cost]]);
      expect(await under.cancel(id)).toBe('cancelled');
      expect(await resumeRunOf(t.app.db, t.app.jobs!, under.name, id)).toBe(false);
    });

    const policy = under.kind.onCrash;
    it(`after a crash (an active job, a heartbeat older than ${STALE_HEARTBEAT_SECONDS} s) the run is ${policy === 'resume' ? 'resumed on a new job, charged once' : 'failed and refunded once'}`, async () => {
      const before = await balanceOf(t.app, user.id);
      const { id, cost } = await started(under);
      const run = await claimed(under, id);
      const { job_id: jobId } = await rowOf(under.kind, id);
      // The state a killed process leaves: its job still active, its last heartbeat long ago.
      await sql`UPDATE pgboss.job SET state = 'active', started_on = now() - interval '10 minutes' WHERE id = ${jobId}::uuid`.execute(t.app.db);
      await sql`UPDATE ${sql.table(under.kind.table)} SET heartbeat_at = now() - make_interval(secs => ${STALE_HEARTBEAT_SECONDS + 5}) WHERE id = ${id}`.execute(t.app.db);

      const report = await recoverRuns(t.app.db, under.kind, { jobs: t.app.jobs });
      // A second process recovering at the same time (or the next sweep) finds nothing more to do.
      expect(await recoverRuns(t.app.db, under.kind, { jobs: t.app.jobs })).toEqual({ resumed: [], failed: [] });
      // The dead attempt, had it survived, can no longer touch the run.
      expect(await ownedUpdate(t.app.db, under.kind, run, {})).toBe(false);
      const row = await rowOf(under.kind, id);
      const oldJob = await sql<{ state: string }>`SELECT state FROM pgboss.job WHERE id = ${jobId}::uuid`.execute(t.app.db);
      expect(oldJob.rows[0]!.state).toBe('cancelled');
      if (policy === 'resume') {
        expect(report).toEqual({ resumed: [id], failed: [] });
        expect(row).toMatchObject({ status: 'queued', attempts: 1 });
        expect(row.job_id).not.toBe(jobId);
        expect(await ledger(id)).toEqual([['analysis_debit', -cost]]);
        expect(await balanceOf(t.app, user.id)).toBe(before - cost);
        // The new job's worker takes it over as the next attempt.
        const resumed = await claimRun(t.app.db, under.kind, { id: row.job_id, name: under.kind.queue, data: under.kind.jobData(id), retryCount: 0 });
        expect(resumed).toEqual({ id, attempt: 2 });
      } else {
        expect(report).toEqual({ resumed: [], failed: [id] });
        expect(row.status).toBe('failed');
        expect(row.error).toContain(under.kind.messages.interrupted);
        expect(await ledger(id)).toEqual([
          ['analysis_debit', -cost],
          ['analysis_refund', cost],
        ]);
        expect(await balanceOf(t.app, user.id)).toBe(before);
      }
    });
  });
});

import { randomUUID } from 'node:crypto';
import { MessageChannel } from 'node:worker_threads';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resultTableColumns, type ResultTable } from '../../../server/analysis/result-rows.js';
import type { AuditOutput } from '../../../server/analysis/run-audit.js';
import { auditRunner, runAnalysisJob, runAuditInWorkerThread, type AuditRunner } from '../../../server/analysis/worker.js';
import { analysisPool } from '../../../server/lib/worker-pool.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { projectWithCampaigns, resultWithEveryRowKind, storingRunner } from './helpers.js';
import { savingBackends } from './saving-fixture.js';

/**
 * The engine thread saves the rows and commits them before the worker completes the analysis
 * (result-saving.ts): whatever ends the run between the two leaves no rows behind, and a thread stopped
 * mid-saving leaves neither rows nor open transactions.
 */
describe('rows saved by the engine thread', () => {
  let t: TestApp;
  let user: FixtureUser;
  let project: Awaited<ReturnType<typeof projectWithCampaigns>>;

  beforeAll(async () => {
    // No job workers: each test runs the job itself and awaits it.
    t = await createTestApp({ jobQueue: { runWorkers: false } });
    user = await createUser(t.app, { balance: 100_000 });
    project = await projectWithCampaigns(t.app, user);
  });
  afterAll(async () => t.close());
  afterEach(() => {
    auditRunner.run = runAuditInWorkerThread;
  });

  /** Starts an analysis (queued, nobody works on it) and returns what running its job needs. */
  async function queued() {
    const started = await call(t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, {
      token: user.token,
      body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() },
    });
    expect(started.status).toBe(201);
    const id = started.body.analysis.id as string;
    const { job_id: jobId } = await t.app.db.selectFrom('analyses').select('job_id').where('id', '=', id).executeTakeFirstOrThrow();
    return { id, run: () => runAnalysisJob(t.app.db, { id: jobId!, name: 'analysis.run', data: { analysisId: id }, retryCount: 0 }) };
  }

  const cancel = async (id: string) => expect((await call(t.app, 'POST', `/api/v1/analyses/${id}/cancel`, { token: user.token })).status).toBe(200);

  async function rowCount(id: string): Promise<number> {
    let total = 0;
    for (const table of Object.keys(resultTableColumns) as ResultTable[]) {
      const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE analysis_id = ${id}`.execute(t.app.db);
      total += Number(rows[0]!.n);
    }
    return total;
  }

  const status = async (id: string) => (await t.app.db.selectFrom('analyses').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  /** The storing runner with `between` run after its rows are committed and before the worker completes. */
  const committingThen =
    (between: (id: string) => Promise<void>): AuditRunner =>
    async (input, ...rest) => {
      const output = await storingRunner(resultWithEveryRowKind)(input, ...rest);
      expect(output.saved).toBe(true);
      expect(await rowCount(input.analysisId!)).toBeGreaterThan(0);
      await between(input.analysisId!);
      return output;
    };

  it('a run cancelled after its rows were committed, before its completion, leaves no rows', async () => {
    const { id, run } = await queued();
    auditRunner.run = committingThen(cancel);
    await run();
    expect(await status(id)).toBe('cancelled');
    expect(await rowCount(id)).toBe(0);
  });

  it('a run cancelled before its rows commit stores nothing: the thread finds the analysis no longer its own', async () => {
    const { id, run } = await queued();
    let output: AuditOutput | null = null;
    auditRunner.run = async (input, ...rest) => {
      await cancel(input.analysisId!);
      output = await storingRunner(resultWithEveryRowKind)(input, ...rest);
      return output;
    };
    await run();
    expect(output!.saved).toBe(false);
    expect(await status(id)).toBe('cancelled');
    expect(await rowCount(id)).toBe(0);
  });

  it('an attempt taken over after its commit leaves its rows to the new attempt, which clears them before it writes', async () => {
    const { id, run } = await queued();
    // A newer attempt claims the analysis (it clears the rows it finds at its start, worker.ts).
    auditRunner.run = committingThen((analysisId) => sql`UPDATE analyses SET attempts = attempts + 1 WHERE id = ${analysisId}`.execute(t.app.db).then(() => undefined));
    await run();
    expect(await status(id)).toBe('running');
    // Not deleted by the old attempt: by then they could be the new attempt's own.
    expect(await rowCount(id)).toBeGreaterThan(0);
  });

  it('a write PostgreSQL refuses in the engine thread fails the run with DB_ERROR, refunded, and leaves nothing', async () => {
    const { id, run } = await queued();
    // Every score row refused (a check constraint for the test's length): the thread's COPY fails.
    await sql`ALTER TABLE analysis_scores ADD CONSTRAINT refuse_in_test CHECK (false) NOT VALID`.execute(t.app.db);
    try {
      await run();
    } finally {
      await sql`ALTER TABLE analysis_scores DROP CONSTRAINT refuse_in_test`.execute(t.app.db);
    }
    const row = await t.app.db.selectFrom('analyses').select(['status', 'error_code']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', error_code: 'DB_ERROR' });
    expect(await rowCount(id)).toBe(0);
    const ledger = await t.app.db.selectFrom('token_ledger').select('type').where('reference_id', '=', id).execute();
    expect(ledger.map((e) => e.type).sort()).toEqual(['analysis_debit', 'analysis_refund']);
  });

  it('a thread stopped mid-saving (a cancel, the time limit) leaves neither rows nor open transactions', async () => {
    const analysisId = randomUUID();
    const { port1, port2 } = new MessageChannel();
    const written = new Promise((resolve) => port1.once('message', resolve));
    const stop = new AbortController();
    const task = analysisPool().run(new URL('./saving-fixture.js', import.meta.url), 'saveAndHang', [{ connectionString: t.database.url, lowerBackendPriority: false, analysisId, attempt: 1 }, port2], {
      transferList: [port2],
      signal: stop.signal,
    });
    await written;
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      expect((await savingBackends(client)).length).toBeGreaterThan(0);
      stop.abort(new Error('stopped'));
      await expect(task).rejects.toThrow('stopped');
      // The terminated thread's sockets close; PostgreSQL rolls their transactions back as it notices.
      const deadline = Date.now() + 10_000;
      while ((await savingBackends(client)).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await savingBackends(client)).toEqual([]);
      expect(await rowCount(analysisId)).toBe(0);
    } finally {
      port1.close();
      await client.end();
    }
  });
});

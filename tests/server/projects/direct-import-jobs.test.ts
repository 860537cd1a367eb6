import { once } from 'node:events';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { directApiMessages, projectMessages } from '../../../contract/messages.js';
import type { ImportJob } from '../../../contract/projects.js';
import { openSecret } from '../../../server/lib/secret-box.js';
import { STALE_HEARTBEAT_SECONDS } from '../../../server/jobs/sweep.js';
import { importJobEvents, recoverInterruptedImportJobs, startImportJobRecoverySweep } from '../../../server/projects/import-jobs.js';
import { DIRECT_TOKEN_CONTEXT } from '../../../server/projects/service.js';
import { startFakeDirect, teplodomAccount, type FakeDirect } from '../../fakes/yandex-direct-fake.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { readProgressStream } from '../helpers/progress-stream.js';
import { createProject, runDirectImport, waitForImportJob } from './helpers.js';

/**
 * The Yandex Direct API import as a job: the start answers 202 at once, the job's progress is readable
 * while the account loads (the fake holds a service's answers until the test has looked), and the end
 * is the same preview the synchronous import gave, or a Russian message on the job.
 */

const START = '/api/v1/projects/import-preview/direct-api';
const GOOD_TOKEN = 'y0_good-token';

let fake: FakeDirect;
let empty: FakeDirect;
let t: TestApp;
let user: FixtureUser;

beforeAll(async () => {
  fake = await startFakeDirect(teplodomAccount(), { token: GOOD_TOKEN });
  // The "sandbox" address is an account without campaigns.
  empty = await startFakeDirect({ ...teplodomAccount(), campaigns: [], reportRows: {} }, { token: GOOD_TOKEN });
  t = await createTestApp({ config: { yandexDirectApiUrl: fake.url, yandexDirectSandboxApiUrl: empty.url }, jobQueue: { runWorkers: true } });
  user = await createUser(t.app);
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await empty.close();
});

const stageOf = (job: ImportJob, name: string) => job.progress.stages.find((stage) => stage.stage === name)!;

describe('an import job from start to preview', () => {
  it('answers 202 at once with a queued job, and completes with the preview that saves like before', async () => {
    const started = await call(t.app, 'POST', START, { token: user.token, body: { token: GOOD_TOKEN, client_login: 'teplodom' } });
    expect(started.status).toBe(202);
    expect(started.headers.location).toBe(`/api/v1/projects/import-jobs/${started.body.id}`);
    expect(started.body).toMatchObject({ source: 'direct_api', project_id: null, status: 'queued', progress: { stage: 'queued', units: { spent: 0 } } });
    expect(started.body.preview).toBeUndefined();

    // The token is sealed in the job's row, and the pg-boss payload holds only the job's id.
    const row = await t.app.db.selectFrom('import_jobs').select(['connection', 'job_id']).where('id', '=', started.body.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row.connection)).not.toContain(GOOD_TOKEN);
    expect(openSecret(row.connection!.encrypted_token, t.config.secretsKey, DIRECT_TOKEN_CONTEXT)).toBe(GOOD_TOKEN);
    const payload = await sql<{ data: unknown }>`SELECT data FROM pgboss.job WHERE id = ${row.job_id}::uuid`.execute(t.app.db);
    expect(payload.rows[0]!.data).toEqual({ importJobId: started.body.id });

    const job = await waitForImportJob(t.app, user.token, started.body.id);
    expect(job).toMatchObject({ status: 'completed', progress: { stage: 'done' } });
    expect(job.finished_at).not.toBeNull();
    expect(job.progress.stages.map((stage) => [stage.stage, stage.status])).toEqual([
      ['campaigns', 'done'],
      ['groups', 'done'],
      ['ads', 'done'],
      ['keywords', 'done'],
      ['extensions', 'done'],
      ['statistics', 'done'],
      ['search_queries', 'done'],
    ]);
    // Two live campaigns (the archived one is left out), their 3 groups, 4 live ads, 7 keywords, the report rows.
    expect(stageOf(job, 'campaigns')).toMatchObject({ done: 2, total: 2, items: 2 });
    expect(stageOf(job, 'groups')).toMatchObject({ done: 2, total: 2, items: 3 });
    expect(stageOf(job, 'keywords')).toMatchObject({ done: 2, total: 2, items: 7 });
    expect(stageOf(job, 'search_queries')).toMatchObject({ done: 1, total: 1, items: 3 });
    expect(job.progress.units.spent).toBeGreaterThan(0);
    expect(job.preview).toMatchObject({ source: 'direct_api', platform: 'yandex_direct', counts: { campaigns: 2, groups: 3, keywords: 7, searchQueries: 3 } });
    expect((job.preview!.units as { spent: number }).spent).toBe(job.progress.units.spent);
    expect(JSON.stringify(job)).not.toContain(GOOD_TOKEN);

    // The job keeps no token once it has ended; the draft has it, sealed, for the project.
    const ended = await t.app.db.selectFrom('import_jobs').select(['connection', 'draft_id']).where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(ended).toEqual({ connection: null, draft_id: job.preview!.draft_id });

    const project = await createProject(t.app, user.token, { name: 'Теплодом', site_url: 'teplodom.example', draft_id: job.preview!.draft_id });
    expect(project.counts).toEqual({ campaigns: 2, groups: 3, ads: 4, keywords: 7 });
    expect(project.connection).toMatchObject({ platform: 'yandex_direct', client_login: 'teplodom', sandbox: false });
  });

  it('shows its progress while the account is still loading', async () => {
    const keywords = fake.hold('keywords');
    try {
      const started = await call(t.app, 'POST', START, { token: user.token, body: { token: GOOD_TOKEN } });
      expect(started.status).toBe(202);
      await keywords.arrived;
      // Groups and ads are in, keywords are held by the fake: the job says so.
      const midway = await waitForImportJob(t.app, user.token, started.body.id, (job) => stageOf(job, 'ads').status === 'done' && stageOf(job, 'groups').status === 'done');
      expect(midway.status).toBe('running');
      expect(midway.started_at).not.toBeNull();
      expect(midway.progress).toMatchObject({ stage: 'keywords', done: 0, total: 2 });
      expect(stageOf(midway, 'campaigns')).toMatchObject({ status: 'done', done: 2, total: 2 });
      expect(stageOf(midway, 'groups')).toMatchObject({ status: 'done', done: 2, total: 2, items: 3 });
      expect(stageOf(midway, 'keywords')).toMatchObject({ status: 'running', done: 0, total: 2, items: 0 });
      expect(stageOf(midway, 'extensions').status).toBe('pending');
      expect(midway.progress.units.spent).toBeGreaterThan(0);
      expect(midway.progress.units.available).toBe(fake.unitsLeft());
      expect(midway.preview).toBeUndefined();

      keywords.release();
      const done = await waitForImportJob(t.app, user.token, started.body.id);
      expect(done.status).toBe('completed');
      expect(done.preview!.counts.keywords).toBe(7);
      expect(done.progress.units.spent).toBeGreaterThan(midway.progress.units.spent);
    } finally {
      keywords.release();
    }
  });

  it('streams its progress over HTTP while the account loads, then done with the preview, and ends the stream', async () => {
    const keywords = fake.hold('keywords');
    try {
      const started = await call(t.app, 'POST', START, { token: user.token, body: { token: GOOD_TOKEN } });
      const path = `/api/v1/projects/import-jobs/${started.body.id}/events`;
      const stranger = await createUser(t.app);
      expect((await readProgressStream(t.app, path, stranger.token)).status).toBe(404);
      const stream = await readProgressStream<ImportJob>(t.app, path, user.token, ({ data }) => {
        // Live: the keywords stage is shown running while the fake still holds its answer.
        if (stageOf(data, 'keywords').status === 'running') keywords.release();
      });
      expect(stream.contentType).toContain('text/event-stream');
      expect(stream.events.slice(0, -1).every((event) => event.event === 'progress')).toBe(true);
      expect(stream.events.some(({ data }) => data.status === 'running' && data.progress.stage === 'keywords')).toBe(true);
      expect(stream.events.at(-1)).toMatchObject({ event: 'done', data: { status: 'completed', preview: { counts: { keywords: 7 } } } });
      expect((await call(t.app, 'GET', `/api/v1/projects/import-jobs/${started.body.id}`, { token: user.token })).body).toEqual(stream.events.at(-1)!.data);
    } finally {
      keywords.release();
    }
  });

  it('streams done with the Russian message when the job fails', async () => {
    const started = await call(t.app, 'POST', START, { token: user.token, body: { token: 'y0_revoked' } });
    const stream = await readProgressStream<ImportJob>(t.app, `/api/v1/projects/import-jobs/${started.body.id}/events`, user.token);
    expect(stream.events.at(-1)).toMatchObject({ event: 'done', data: { status: 'failed', error: directApiMessages.invalidToken } });
  });
});

describe('failures end the job with the Direct client message, never a 5xx', () => {
  it.each<[string, () => void, string, string]>([
    ['an invalid token', () => undefined, 'y0_revoked', directApiMessages.invalidToken],
    ['no rights on the account', () => fake.failNext('campaigns', { error_code: 54, error_string: 'Нет прав' }), GOOD_TOKEN, directApiMessages.noRights],
    ['the API points spent', () => fake.failNext('campaigns', { error_code: 152, error_string: 'Недостаточно баллов' }), GOOD_TOKEN, directApiMessages.notEnoughUnits],
    ['no API access', () => fake.failNext('adgroups', { error_code: 3000, error_string: 'Нет доступа к API' }), GOOD_TOKEN, directApiMessages.noApiAccess],
  ])('%s', async (_name, arrange, token, message) => {
    arrange();
    const { started, job } = await runDirectImport(t.app, user.token, START, { token, client_login: 'teplodom' });
    expect(started.status).toBe(202);
    expect(job).toMatchObject({ status: 'failed', error: message, error_code: 'DIRECT_API_ERROR' });
    expect(job!.preview).toBeUndefined();
    const row = await t.app.db.selectFrom('import_jobs').select(['connection', 'draft_id']).where('id', '=', job!.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ connection: null, draft_id: null });
    fake.clearFailures();
  });

  it('an account without campaigns', async () => {
    const { job } = await runDirectImport(t.app, user.token, START, { token: GOOD_TOKEN, sandbox: true });
    expect(job).toMatchObject({ status: 'failed', error: projectMessages.directApiEmpty, error_code: 'IMPORT_EMPTY' });
  });

  it('validates the start with the contract (Russian messages) and starts nothing', async () => {
    const before = await t.app.db.selectFrom('import_jobs').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const response = await call(t.app, 'POST', START, { token: user.token, body: { token: '', client_login: 'не логин' } });
    expect(response.status).toBe(422);
    expect(response.body.detail.map((d: { msg: string }) => d.msg)).toEqual(['Введите OAuth-токен Яндекс Директа', 'Некорректный Client-Login']);
    const after = await t.app.db.selectFrom('import_jobs').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});

describe('who may read a job', () => {
  it('only the user who started it: another organization and another member get 404', async () => {
    const { job } = await runDirectImport(t.app, user.token, START, { token: GOOD_TOKEN });
    const stranger = await createUser(t.app);
    const colleague = await createUser(t.app, { organizationId: user.organizationId, organizationRole: 'admin' });
    for (const other of [stranger, colleague]) {
      const response = await call(t.app, 'GET', `/api/v1/projects/import-jobs/${job!.id}`, { token: other.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: projectMessages.importJobNotFound, code: 'IMPORT_JOB_NOT_FOUND' });
    }
    expect((await call(t.app, 'GET', '/api/v1/projects/import-jobs/00000000-0000-4000-8000-000000000000', { token: user.token })).status).toBe(404);
    expect((await call(t.app, 'GET', `/api/v1/projects/import-jobs/${job!.id}`)).status).toBe(401);
  });
});

describe('one unfinished Direct import per user', () => {
  it('refuses a second start with 429 while the first runs; another user is not held up', async () => {
    const campaigns = fake.hold('campaigns');
    const other = await createUser(t.app);
    let firstId = '';
    try {
      const first = await call(t.app, 'POST', START, { token: user.token, body: { token: GOOD_TOKEN } });
      expect(first.status).toBe(202);
      firstId = first.body.id;
      await campaigns.arrived;

      const second = await call(t.app, 'POST', START, { token: user.token, body: { token: GOOD_TOKEN, client_login: 'another-client' } });
      expect(second.status).toBe(429);
      expect(second.body).toEqual({ error: projectMessages.directImportRunning, code: 'IMPORT_ALREADY_RUNNING' });

      const others = await call(t.app, 'POST', START, { token: other.token, body: { token: GOOD_TOKEN } });
      expect(others.status).toBe(202);
      campaigns.release();
      expect((await waitForImportJob(t.app, other.token, others.body.id)).status).toBe('completed');
    } finally {
      campaigns.release();
    }
    expect((await waitForImportJob(t.app, user.token, firstId)).status).toBe('completed');
    // Once it has ended, the next one may start.
    const { started, job } = await runDirectImport(t.app, user.token, START, { token: GOOD_TOKEN });
    expect(started.status).toBe(202);
    expect(job!.status).toBe('completed');
  });
});

describe('a job whose worker died', () => {
  /** A job as a process killed mid-run leaves it: running, its heartbeat minutes old. */
  async function killedMidRun(owner: FixtureUser, heartbeatAgo = '5 minutes') {
    const row = await t.app.db
      .insertInto('import_jobs')
      .values({
        organization_id: owner.organizationId,
        user_id: owner.id,
        status: 'running',
        connection: JSON.stringify({ encrypted_token: 'sealed', client_login: null, sandbox: false }),
        progress: JSON.stringify({ stage: 'keywords', done: 1, total: 2, stages: [], units: { spent: 40, available: 100, daily: 1000 } }),
        job_id: '00000000-0000-4000-8000-00000000dead',
        started_at: sql<Date>`now() - interval '10 minutes'`,
        heartbeat_at: sql<Date>`now() - ${sql.raw(`interval '${heartbeatAgo}'`)}`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('is failed with a message when someone looks at it, and no longer blocks the next import', async () => {
    const owner = await createUser(t.app);
    const id = await killedMidRun(owner);
    const refused = await call(t.app, 'GET', `/api/v1/projects/import-jobs/${id}`, { token: owner.token });
    expect(refused.body).toMatchObject({ status: 'failed', error: projectMessages.directImportInterrupted, error_code: 'IMPORT_INTERRUPTED' });
    const row = await t.app.db.selectFrom('import_jobs').select(['connection', 'finished_at']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.connection).toBeNull();
    expect(row.finished_at).not.toBeNull();

    const second = await killedMidRun(owner);
    // A new start sweeps the user's dead job first, so it is not refused.
    const { started, job } = await runDirectImport(t.app, owner.token, START, { token: GOOD_TOKEN });
    expect(started.status).toBe(202);
    expect(job!.status).toBe('completed');
    expect((await call(t.app, 'GET', `/api/v1/projects/import-jobs/${second}`, { token: owner.token })).body.status).toBe('failed');
  });

  it('the sweep fails dead jobs nobody asks about, leaves live ones alone, and fails queued jobs whose pg-boss job is gone', async () => {
    const owner = await createUser(t.app);
    const other = await createUser(t.app);
    const third = await createUser(t.app);
    const dead = await killedMidRun(owner);
    const alive = await killedMidRun(other, '1 second');
    const lostInQueue = await t.app.db
      .insertInto('import_jobs')
      .values({ organization_id: third.organizationId, user_id: third.id, status: 'queued', connection: JSON.stringify(null), progress: JSON.stringify({ stage: 'queued', done: 0, total: null, stages: [], units: { spent: 0, available: null, daily: null } }), job_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stop = startImportJobRecoverySweep(t.app.db);
    try {
      const swept = once(importJobEvents, 'changed');
      await vi.advanceTimersByTimeAsync(STALE_HEARTBEAT_SECONDS * 1000);
      await swept;
    } finally {
      stop();
      vi.useRealTimers();
    }
    // The sweep may still be finishing its last update; recovery itself is idempotent.
    await recoverInterruptedImportJobs(t.app.db);
    const statuses = await t.app.db.selectFrom('import_jobs').select(['id', 'status', 'error']).where('id', 'in', [dead, alive, lostInQueue.id]).execute();
    expect(Object.fromEntries(statuses.map((row) => [row.id, [row.status, row.error]]))).toEqual({
      [dead]: ['failed', projectMessages.directImportInterrupted],
      [alive]: ['running', null],
      [lostInQueue.id]: ['failed', projectMessages.directImportNotStarted],
    });
    expect(await recoverInterruptedImportJobs(t.app.db)).toEqual([]);
    await t.app.db.deleteFrom('import_jobs').where('id', '=', alive).execute();
  });

  it('a run the sweep failed meanwhile stops without storing a preview', async () => {
    const owner = await createUser(t.app);
    const keywords = fake.hold('keywords');
    let id = '';
    try {
      const started = await call(t.app, 'POST', START, { token: owner.token, body: { token: GOOD_TOKEN } });
      id = started.body.id;
      await keywords.arrived;
      await waitForImportJob(t.app, owner.token, id, (job) => job.status === 'running');
      // The process was thought dead (its heartbeat went stale): the recovery fails the job.
      await t.app.db.updateTable('import_jobs').set({ heartbeat_at: sql<Date>`now() - interval '5 minutes'` }).where('id', '=', id).execute();
      expect(await recoverInterruptedImportJobs(t.app.db, { jobId: id })).toEqual([id]);
    } finally {
      const ended = once(importJobEvents, 'ended');
      keywords.release();
      if (id) await ended;
    }
    const job = (await call(t.app, 'GET', `/api/v1/projects/import-jobs/${id}`, { token: owner.token })).body;
    expect(job).toMatchObject({ status: 'failed', error: projectMessages.directImportInterrupted });
    const drafts = await t.app.db.selectFrom('import_drafts').select('id').where('user_id', '=', owner.id).execute();
    expect(drafts).toEqual([]);
  });
});

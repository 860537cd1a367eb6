import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRun } from '../../../server/analysis/lifecycle.js';
import { startJobQueue } from '../../../server/jobs/boss.js';
import type { JobQueue } from '../../../server/jobs/queue.js';
import { claimDueSlots, monitoringSweep, type MonitoringDeps } from '../../../server/monitoring/sweep.js';
import { startFakeDirect, teplodomAccount, type FakeDirect } from '../../fakes/yandex-direct-fake.js';
import { call, createTestApp, memoryMailer, type TestApp } from '../helpers/app.js';
import { waitForNotifiedRow } from '../helpers/database.js';
import { createProjectRow, createUser, type FixtureUser } from '../helpers/fixtures.js';
import { createProject, runDirectImport, waitForImportJob } from '../projects/helpers.js';
import type { OutgoingMail } from '../../../server/email/mailer.js';

/**
 * Scheduled re-audits with a controllable clock: the sweep is called by hand with the instant it should
 * believe it is. A slot fires once at its hour in the project's zone, also with two queue instances (as two
 * worker processes) sweeping at once; a run the balance cannot pay is skipped with a notice and nothing
 * read or charged; the audit of a slot is charged once whatever is repeated.
 */

const GOOD_TOKEN = 'y0_good-token';
const MINUTE = 60_000;

let fake: FakeDirect;
let t: TestApp;
let secondQueue: JobQueue;
let owner: FixtureUser;
let poorColleague: FixtureUser;
let projectId: string;
const outbox: OutgoingMail[] = [];

const depsOf = (jobs: JobQueue | null): MonitoringDeps => ({ db: t.app.db, jobs, config: t.config, mailer: memoryMailer(outbox), telegram: null });

beforeAll(async () => {
  fake = await startFakeDirect(teplodomAccount(), { token: GOOD_TOKEN });
  t = await createTestApp({ config: { yandexDirectApiUrl: fake.url }, jobQueue: { runWorkers: true } });
  // A second process's queue on the same database (its own pg-boss instance, no workers of its own).
  secondQueue = await startJobQueue({ db: t.database.db, connectionString: t.database.url, config: t.config, workers: [], runWorkers: false });
  owner = await createUser(t.app, { balance: 10_000 });
  poorColleague = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'admin', balance: 0 });
  const { job } = await runDirectImport(t.app, owner.token, '/api/v1/projects/import-preview/direct-api', { token: GOOD_TOKEN, client_login: 'teplodom' });
  const project = await createProject(t.app, owner.token, { name: 'Теплодом', site_url: 'teplodom.example', draft_id: job!.preview!.draft_id });
  projectId = project.id;
}, 120_000);

afterAll(async () => {
  await secondQueue?.stop();
  await t?.close();
  await fake?.close();
});

const runsOf = (id: string) => t.app.db.selectFrom('scheduled_runs').selectAll().where('project_id', '=', id).orderBy('slot').execute();
const debitsOf = (userId: string) => t.app.db.selectFrom('token_ledger').select(['amount', 'idempotency_key']).where('user_id', '=', userId).where('type', '=', 'analysis_debit').execute();

async function saveSchedule(token: string, id: string, body: object) {
  const response = await call(t.app, 'PUT', `/api/v1/projects/${id}/schedule`, { token, body });
  expect(response.status).toBe(200);
  return response.body;
}

/** Sweeps at `now` until the project's run of this slot is closed, waiting on the read and the audit between sweeps. */
async function driveRun(now: Date) {
  for (let step = 0; step < 10; step += 1) {
    await monitoringSweep(depsOf(t.app.jobs), now);
    const [run] = (await runsOf(projectId)).filter((row) => row.slot.getTime() <= now.getTime()).slice(-1);
    if (!run || !['due', 'reading', 'auditing'].includes(run.status)) return run;
    if (run.status === 'reading') await waitForImportJob(t.app, owner.token, run.import_job_id!);
    if (run.status === 'auditing' && run.analysis_id) {
      await waitForNotifiedRow<{ status: string }>(t.database.url, { channel: auditRun.channel, table: 'analyses', id: run.analysis_id }, (row) => !['queued', 'running'].includes(row.status));
    }
  }
  throw new Error('the scheduled run did not finish in 10 sweeps');
}

describe('a schedule', () => {
  it('shows the price of a run and the zone before it is saved, and refuses an unknown zone in Russian', async () => {
    const before = await call(t.app, 'GET', `/api/v1/projects/${projectId}/schedule`, { token: owner.token });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ schedule: null, time_zone: 'Europe/Moscow', mode: 'audit', runs: [] });
    // The same price the new-analysis screen asks for all the project's campaigns.
    const campaigns = await t.app.db.selectFrom('campaigns').select(['id', 'name', 'keywords_count', 'ads_count', 'groups_count']).where('project_id', '=', projectId).execute();
    const cost = await call(t.app, 'POST', '/api/v1/tokens/calculate-cost', { token: owner.token, body: { campaigns } });
    expect(before.body.price_per_run).toBe(cost.body.total);
    expect(before.body.price_per_run).toBeGreaterThan(0);

    const wrong = await call(t.app, 'PUT', `/api/v1/projects/${projectId}/schedule`, { token: owner.token, body: { frequency: 'daily', hour: 7, time_zone: 'Mars/Olympus' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toContain('часовой пояс');
    const badHour = await call(t.app, 'PUT', `/api/v1/projects/${projectId}/schedule`, { token: owner.token, body: { frequency: 'daily', hour: 24 } });
    expect(badHour.status).toBe(422);
    expect(badHour.body.detail[0].msg).toBe('Час запуска — целое число от 0 до 23');
  });

  it('fires once at its hour in the project zone, with two processes sweeping at once, and charges the audit once', async () => {
    const saved = await saveSchedule(owner.token, projectId, { frequency: 'daily', hour: 7, time_zone: 'Asia/Yekaterinburg' });
    const slot = new Date(saved.schedule.next_run_at);
    // 07:00 in Yekaterinburg (UTC+5) is 02:00 UTC.
    expect(slot.getUTCHours()).toBe(2);
    expect(slot.getUTCMinutes()).toBe(0);

    await monitoringSweep(depsOf(t.app.jobs), new Date(slot.getTime() - MINUTE));
    expect(await runsOf(projectId)).toHaveLength(0);

    // Ten sweeps at the slot, half of them through the other process's queue.
    await Promise.all(Array.from({ length: 10 }, (_, i) => claimDueSlots(t.app.db, new Date(slot.getTime() + i * 1000))));
    await Promise.all([monitoringSweep(depsOf(t.app.jobs), slot), monitoringSweep(depsOf(secondQueue), slot), monitoringSweep(depsOf(secondQueue), slot)]);
    const runs = await runsOf(projectId);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.slot.toISOString()).toBe(slot.toISOString());
    const importJobs = await t.app.db.selectFrom('import_jobs').select('id').where('project_id', '=', projectId).execute();
    expect(importJobs).toHaveLength(1);

    const finished = await driveRun(slot);
    expect(finished).toMatchObject({ status: 'completed' });
    const analysis = await t.app.db.selectFrom('analyses').select(['status', 'idempotency_key', 'created_by']).where('id', '=', finished!.analysis_id!).executeTakeFirstOrThrow();
    expect(analysis).toEqual({ status: 'completed', idempotency_key: `schedule:${projectId}:${slot.toISOString()}`, created_by: owner.id });

    // A crash between starting the audit and saving its id: the next sweep finds the same audit by its key.
    await t.app.db.updateTable('scheduled_runs').set({ status: 'auditing', analysis_id: null }).where('id', '=', finished!.id).execute();
    await Promise.all([monitoringSweep(depsOf(t.app.jobs), slot), monitoringSweep(depsOf(secondQueue), slot)]);
    expect((await runsOf(projectId))[0]!.analysis_id).toBe(finished!.analysis_id);
    const debits = await debitsOf(owner.id);
    expect(debits).toHaveLength(1);
    expect(debits[0]!.idempotency_key).toBe(`analysis:schedule:${projectId}:${slot.toISOString()}`);

    // The same hour a day later is the next slot; an hour later nothing more happens.
    await monitoringSweep(depsOf(t.app.jobs), new Date(slot.getTime() + 60 * MINUTE));
    expect(await runsOf(projectId)).toHaveLength(1);
    const state = await call(t.app, 'GET', `/api/v1/projects/${projectId}/schedule`, { token: owner.token });
    expect(new Date(state.body.schedule.next_run_at).getTime()).toBe(slot.getTime() + 24 * 60 * MINUTE);
    expect(state.body.runs[0]).toMatchObject({ status: 'completed', analysis_id: finished!.analysis_id });
    // The agency board shows the next run beside the last one.
    const board = await call(t.app, 'GET', '/api/v1/agency-board', { token: owner.token });
    expect(board.body.projects.find((project: { id: string }) => project.id === projectId)).toMatchObject({ next_run_at: state.body.schedule.next_run_at, last_run: { id: finished!.analysis_id, status: 'completed' } });
  }, 120_000);

  it('is skipped with a notice, nothing read and nothing charged, when its payer has too few tokens', async () => {
    // The colleague saves the schedule: from now on the runs are theirs to pay, and their balance is 0.
    const saved = await saveSchedule(poorColleague.token, projectId, { frequency: 'weekly', weekday: 3, hour: 10 });
    const slot = new Date(saved.schedule.next_run_at);
    const importsBefore = (await t.app.db.selectFrom('import_jobs').select('id').execute()).length;
    const unitsBefore = fake.unitsLeft();

    await monitoringSweep(depsOf(t.app.jobs), slot);
    const run = (await runsOf(projectId)).at(-1)!;
    expect(run).toMatchObject({ status: 'skipped', analysis_id: null, import_job_id: null });
    expect(run.note).toMatch(/^Не хватило токенов: нужно \d+ токен/);
    expect((await t.app.db.selectFrom('import_jobs').select('id').execute()).length).toBe(importsBefore);
    expect(fake.unitsLeft()).toBe(unitsBefore);
    expect(await debitsOf(poorColleague.id)).toHaveLength(0);

    // Every member sees the notice in the bell, with what to do.
    for (const member of [owner, poorColleague]) {
      const bell = await call(t.app, 'GET', '/api/v1/notifications', { token: member.token });
      expect(bell.body.items[0]).toMatchObject({ kind: 'run_skipped', title: 'Проверка проекта «Теплодом» пропущена', link: '/tokens', read: false });
      expect(bell.body.items[0].message).toContain('Пополните баланс');
    }
    // A weekly schedule on Wednesday: the next slot is a week later.
    const state = await call(t.app, 'GET', `/api/v1/projects/${projectId}/schedule`, { token: owner.token });
    expect(new Date(state.body.schedule.next_run_at).getTime()).toBe(slot.getTime() + 7 * 24 * 60 * MINUTE);
  });

  it('tells every member when a scheduled read fails, with the Direct API\'s reason, and charges nothing', async () => {
    const saved = await saveSchedule(owner.token, projectId, { frequency: 'daily', hour: 6, time_zone: 'Europe/Moscow' });
    const slot = new Date(saved.schedule.next_run_at);
    const debitsBefore = (await debitsOf(owner.id)).length;
    fake.failNext('campaigns', { error_code: 54, error_string: 'Нет прав' });
    const run = await driveRun(slot);
    fake.clearFailures();
    expect(run).toMatchObject({ status: 'failed', analysis_id: null });
    expect(run!.note).toMatch(/^Не удалось прочитать кабинет через API Директа: /);
    expect(await debitsOf(owner.id)).toHaveLength(debitsBefore);
    const bell = await call(t.app, 'GET', '/api/v1/notifications', { token: poorColleague.token });
    const failure = bell.body.items.find((item: { kind: string }) => item.kind === 'run_failed');
    expect(failure).toMatchObject({ title: 'Проверка проекта «Теплодом» по расписанию не удалась', link: `/projects/${projectId}`, message: run!.note });
  }, 60_000);

  it('reminds a file project to upload fresh files instead of auditing it', async () => {
    const fileProject = await createProjectRow(t.app, owner, { name: 'Окна из файлов' });
    const saved = await saveSchedule(owner.token, fileProject, { frequency: 'monthly', month_day: 5, hour: 9 });
    expect(saved).toMatchObject({ mode: 'reminder', price_per_run: 0 });
    await monitoringSweep(depsOf(t.app.jobs), new Date(saved.schedule.next_run_at));
    expect((await runsOf(fileProject))[0]).toMatchObject({ status: 'reminded' });
    const bell = await call(t.app, 'GET', '/api/v1/notifications', { token: owner.token });
    const reminder = bell.body.items.find((item: { kind: string }) => item.kind === 'upload_reminder');
    expect(reminder).toMatchObject({ title: 'Пора обновить данные проекта «Окна из файлов»', link: `/projects/${fileProject}` });

    const read = await call(t.app, 'POST', `/api/v1/notifications/${reminder.id}/read`, { token: owner.token });
    expect(read.status).toBe(204);
    const after = await call(t.app, 'GET', '/api/v1/notifications', { token: owner.token });
    expect(after.body.items.find((item: { id: string }) => item.id === reminder.id).read).toBe(true);
    expect(after.body.unread).toBe(bell.body.unread - 1);
    // Another member's notification is not found for this one.
    const other = await call(t.app, 'GET', '/api/v1/notifications', { token: poorColleague.token });
    expect((await call(t.app, 'POST', `/api/v1/notifications/${other.body.items[0].id}/read`, { token: owner.token })).status).toBe(404);
  });
});

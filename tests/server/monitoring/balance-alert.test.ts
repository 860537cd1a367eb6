import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditRun } from '../../../server/analysis/lifecycle.js';
import { monitoringSweep, type MonitoringDeps } from '../../../server/monitoring/sweep.js';
import { startFakeDirect, teplodomAccount, type FakeDirect, type FakeDirectAccount } from '../../fakes/yandex-direct-fake.js';
import { call, createTestApp, memoryMailer, type TestApp } from '../helpers/app.js';
import { waitForNotifiedRow } from '../helpers/database.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { createProject, runDirectImport, waitForImportJob } from '../projects/helpers.js';

/**
 * «Деньги заканчиваются»: two agency clients whose campaigns spend a shared account (campaigns.get `Funds`
 * SHARED_ACCOUNT_FUNDS; the balance read by v4 Live AccountManagement «Get», both served by the fake Direct
 * API on 127.0.0.1). At the scheduled re-audit one account has money for 2 days at its pace and is told in
 * the bell with the roubles left, the days and the pace; its twin with two months of money is not.
 */

const TOKEN = 'y0_agency-token';
const DAY = 86_400_000;

/** The teplodom account with its live campaigns on the shared account of `login` holding `amount` ₽. */
function sharedAccountClient(login: string, accountId: number, amount: number): FakeDirectAccount {
  const account = teplodomAccount();
  for (const campaign of account.campaigns) campaign.Funds = { Mode: 'SHARED_ACCOUNT_FUNDS', SharedAccountFunds: { Refund: 0, Spend: 1_250_000_000 } };
  account.sharedAccounts = [{ AccountID: accountId, Login: login, Amount: amount, AmountAvailableForTransfer: amount, Currency: 'RUB', Discount: 0 }];
  return account;
}

// The balances are set in the test, once the pace of the read statistics is known.
const poorClient = sharedAccountClient('poor-client', 501, 0);
const richClient = sharedAccountClient('rich-client', 502, 0);
let fake: FakeDirect;
let t: TestApp;
let owner: FixtureUser;
const projects: Record<'poor' | 'rich', string> = { poor: '', rich: '' };

const deps = (): MonitoringDeps => ({ db: t.app.db, jobs: t.app.jobs, config: t.config, mailer: memoryMailer([]), telegram: null });

beforeAll(async () => {
  fake = await startFakeDirect(teplodomAccount(), { token: TOKEN, clientAccounts: { 'poor-client': poorClient, 'rich-client': richClient } });
  t = await createTestApp({ config: { yandexDirectApiUrl: fake.url }, jobQueue: { runWorkers: true } });
  owner = await createUser(t.app, { balance: 10_000 });
  for (const name of ['poor', 'rich'] as const) {
    const { job } = await runDirectImport(t.app, owner.token, '/api/v1/projects/import-preview/direct-api', { token: TOKEN, client_login: `${name}-client` });
    expect(job?.status).toBe('completed');
    projects[name] = (await createProject(t.app, owner.token, { name: name === 'poor' ? 'Теплодом' : 'Теплодом-2', site_url: `${name}.example`, draft_id: job!.preview!.draft_id })).id;
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/**
 * Sweeps at `now` until the project's run is closed, waiting on the read and the audit between sweeps. A
 * sweep that moved nothing (a step that failed and will be tried again, as the minute's sweep would) is
 * repeated for up to a minute rather than a fixed number of times: on a busy machine a few sweeps can pass
 * before a job is picked up.
 */
async function driveRun(projectId: string, now: Date) {
  let closed: Awaited<ReturnType<typeof openRunOf>> | undefined;
  await vi.waitFor(
    async () => {
      await monitoringSweep(deps(), now);
      const run = await openRunOf(projectId);
      if (run?.status === 'reading') await waitForImportJob(t.app, owner.token, run.import_job_id!);
      if (run?.status === 'auditing' && run.analysis_id) {
        await waitForNotifiedRow<{ status: string }>(t.database.url, { channel: auditRun.channel, table: 'analyses', id: run.analysis_id }, (row) => !['queued', 'running'].includes(row.status));
      }
      closed = await openRunOf(projectId);
      expect(closed?.status, 'the scheduled run is still open').not.toMatch(/^(due|reading|auditing)$/);
    },
    { timeout: 60_000, interval: 200 },
  );
  return closed!;
}

const openRunOf = (projectId: string) => t.app.db.selectFrom('scheduled_runs').selectAll().where('project_id', '=', projectId).executeTakeFirst();

describe('the balance alert', () => {
  it('the import stores where each campaign’s money comes from and the shared account’s balance, read by the documented calls', async () => {
    const live4 = fake.requests.filter((request) => request.service === 'live4');
    expect(live4.map((request) => request.body.param)).toEqual([
      { Action: 'Get', SelectionCriteria: { Logins: ['poor-client'] } },
      { Action: 'Get', SelectionCriteria: { Logins: ['rich-client'] } },
    ]);
    expect(live4[0]!.body).toMatchObject({ method: 'AccountManagement', locale: 'ru', token: TOKEN });
    const campaigns = fake.requests.filter((request) => request.service === 'campaigns' && request.method === 'get');
    expect(campaigns.every((request) => request.body.params.FieldNames.includes('Funds'))).toBe(true);
    const stored = await t.app.db.selectFrom('campaigns').select(['name', 'data']).where('project_id', '=', projects.poor).orderBy('position').execute();
    expect(stored.map((row) => [row.name, (row.data as { funds?: unknown }).funds])).toContainEqual(['Тёплый пол — Поиск', { mode: 'shared_account', balance: 0, accountId: '501' }]);
  });

  it('tells the account whose money lasts 2 days at its pace, with the roubles, the days and the cause; not its twin with two months of money', async () => {
    // The pace: what the live campaigns cost over the read period (30 days), per day.
    const spent = await sql<{ cost: number }>`
      SELECT sum((stats ->> 'cost')::float8) AS cost FROM campaigns WHERE project_id = ${projects.poor} AND data::jsonb ->> 'state' = 'on'`.execute(t.app.db);
    const daily = Number(spent.rows[0]!.cost) / 30;
    expect(daily).toBeGreaterThan(0);
    // 2.5 days of money for one, 60 for the other; the scheduled re-read sees these balances.
    poorClient.sharedAccounts![0]!.Amount = Math.round(daily * 2.5 * 100) / 100;
    richClient.sharedAccounts![0]!.Amount = Math.round(daily * 60);

    const now = new Date(Date.now() + DAY);
    for (const name of ['poor', 'rich'] as const) {
      const saved = await call(t.app, 'PUT', `/api/v1/projects/${projects[name]}/schedule`, { token: owner.token, body: { frequency: 'daily', hour: 9 } });
      expect(saved.status).toBe(200);
      await t.app.db.updateTable('project_schedules').set({ next_run_at: new Date(now.getTime() - 60_000) }).where('project_id', '=', projects[name]).execute();
    }
    expect(await driveRun(projects.poor, now)).toMatchObject({ status: 'completed' });
    expect(await driveRun(projects.rich, now)).toMatchObject({ status: 'completed' });

    const bell = await call(t.app, 'GET', '/api/v1/notifications', { token: owner.token });
    const runouts = (bell.body.items as { kind: string; project_id: string; title: string; message: string; money_per_month: number | null; link: string }[]).filter((item) => item.kind === 'runout' && item.title.startsWith('Деньги'));
    expect(runouts).toHaveLength(1);
    const [alert] = runouts;
    const rub = (value: number) => `${new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 }).format(Math.round(value))} ₽`;
    expect(alert).toMatchObject({
      project_id: projects.poor,
      title: 'Деньги на общем счёте в «Теплодом» закончатся через 2 дня',
      link: `/projects/${projects.poor}`,
      money_per_month: expect.closeTo(daily * 30, 0),
    });
    expect(alert!.message).toContain(`На общем счёте осталось ${rub(daily * 2.5)}`);
    expect(alert!.message).toContain(`в среднем ${rub(daily)} в день: денег хватит примерно на 2 дня. Пополните счёт, иначе показы остановятся.`);
  }, 120_000);
});

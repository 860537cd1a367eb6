import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgencyClientImportList } from '../../../contract/direct-connections.js';
import { importJobEvents } from '../../../server/projects/import-jobs.js';
import { startFakeDirect, teplodomAccount, type FakeDirect } from '../../fakes/yandex-direct-fake.js';
import { startFakeYandexId, type FakeYandexId } from '../../fakes/yandex-id-fake.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';

/** Each request of the fake spends this many points (the `Units` header's first figure). */
const POINTS_PER_REQUEST = 10;

let yandexId: FakeYandexId;
let direct: FakeDirect;
let t: TestApp;
let user: FixtureUser;
let connectionId: string;

const clientAccount = (name: string) => {
  const account = teplodomAccount();
  account.campaigns = account.campaigns.map((campaign) => ({ ...campaign, Name: `${name}: ${String(campaign.Name)}` }));
  return account;
};

beforeAll(async () => {
  yandexId = await startFakeYandexId();
  direct = await startFakeDirect(
    {
      ...teplodomAccount(),
      agencyClients: [
        { Login: 'teplodom', ClientInfo: 'ООО «Теплодом»' },
        { Login: 'okna-perm', ClientInfo: 'Окна Пермь' },
        { Login: 'closed-client', ClientInfo: 'Закрытый клиент' },
      ],
    },
    {
      acceptsToken: (token) => yandexId.issued.some((issued) => issued.accessToken === token),
      units: { available: 50_000, daily: 64_000, perRequest: POINTS_PER_REQUEST },
      clientAccounts: { teplodom: clientAccount('Теплодом'), 'okna-perm': clientAccount('Окна'), 'closed-client': clientAccount('Закрытый') },
    },
  );
  t = await createTestApp({
    config: {
      yandexOAuth: { clientId: yandexId.clientId, clientSecret: yandexId.clientSecret, redirectUrl: 'http://localhost:5173/connections/yandex/callback', oauthUrl: yandexId.url, loginUrl: yandexId.url },
      yandexDirectApiUrl: direct.url,
    },
    jobQueue: { runWorkers: true },
  });
  user = await createUser(t.app, { firstName: 'Анна', lastName: 'Агентова' });
  const started = await call(t.app, 'POST', '/api/v1/direct/connections/authorize', { token: user.token });
  const consented = await fetch(started.body.authorize_url, { redirect: 'manual' });
  const back = new URL(consented.headers.get('location')!);
  const connected = await call(t.app, 'POST', '/api/v1/direct/connections/callback', { token: user.token, body: Object.fromEntries(back.searchParams) });
  connectionId = connected.body.id;
});
afterAll(async () => {
  await t?.close();
  await direct?.close();
  await yandexId?.close();
});

const importsPath = () => `/api/v1/direct/connections/${connectionId}/client-imports`;

/** Reads the batch after every write of an import job until `ready` holds (no polling, no sleeps). */
async function waitForImports(ready: (list: AgencyClientImportList) => boolean): Promise<AgencyClientImportList> {
  for (;;) {
    const changed = Promise.race([once(importJobEvents, 'changed'), once(importJobEvents, 'ended')]);
    const list = await call<AgencyClientImportList>(t.app, 'GET', importsPath(), { token: user.token });
    expect(list.status).toBe(200);
    if (ready(list.body)) return list.body;
    await changed;
  }
}

const allFinished = (list: AgencyClientImportList) => list.imports.length > 0 && list.imports.every((turn) => turn.status === 'completed' || turn.status === 'failed');

describe("many agency clients at once", () => {
  it('makes a project per client, two at a time, with the points each spent; a client without access fails alone', async () => {
    direct.failNext('campaigns', { error_code: 54, error_string: 'Нет прав', error_detail: 'Нет прав на указанного клиента' }, 'closed-client');
    const held = direct.hold('campaigns');
    const started = await call<AgencyClientImportList>(t.app, 'POST', importsPath(), { token: user.token, body: { logins: ['teplodom', 'okna-perm', 'closed-client'] } });
    expect(started.status).toBe(202);
    await held.arrived;
    const during = await call<AgencyClientImportList>(t.app, 'GET', importsPath(), { token: user.token });
    // Bounded: the connection reads two clients at once; the third waits for a free slot.
    expect(during.body.concurrency).toBe(2);
    expect(during.body.imports.map((turn) => turn.status).sort()).toEqual(['importing', 'importing', 'waiting']);
    held.release();

    const done = await waitForImports(allFinished);
    const byLogin = Object.fromEntries(done.imports.map((turn) => [turn.client_login, turn]));
    expect(byLogin['closed-client']).toMatchObject({
      status: 'failed',
      project: null,
      error: 'Нет прав на этот аккаунт Яндекс Директа. Проверьте Client-Login: это должен быть ваш логин или логин вашего клиента',
      error_code: 'DIRECT_API_ERROR',
    });
    for (const [login, name] of [['teplodom', 'ООО «Теплодом»'], ['okna-perm', 'Окна Пермь']] as const) {
      const turn = byLogin[login]!;
      expect(turn).toMatchObject({ status: 'completed', client_name: name, refreshed: false, error: null, project: { name } });
      // Every request of the read carried a Units header; the points are their sum.
      const requests = direct.requests.filter((request) => request.headers['client-login'] === login && request.service !== 'reports');
      expect(turn.units_spent).toBe(requests.length * POINTS_PER_REQUEST);

      const project = await call(t.app, 'GET', `/api/v1/projects/${turn.project!.id}`, { token: user.token });
      expect(project.body).toMatchObject({ name, platform: 'yandex_direct', connection: { client_login: login }, counts: { campaigns: 2 } });
      expect(project.body.campaigns[0].name).toMatch(login === 'teplodom' ? /^Теплодом: / : /^Окна: /);
      expect(project.body.imports[0]).toMatchObject({ source: 'direct_api', mode: 'create', units_spent: turn.units_spent });
    }

    // The agency's list shows each client's project and the points its last import spent.
    const clients = await call(t.app, 'GET', `/api/v1/direct/connections/${connectionId}/clients`, { token: user.token });
    const listed = Object.fromEntries(clients.body.clients.map((client: { login: string }) => [client.login, client]));
    expect(listed['teplodom'].project).toEqual({ id: byLogin['teplodom']!.project!.id, name: 'ООО «Теплодом»', units_spent: byLogin['teplodom']!.units_spent });
    expect(listed['closed-client'].project).toBeNull();
  });

  it('refreshes the project a client already has instead of making a second one, and says why a client with no points failed', async () => {
    const before = await t.app.db.selectFrom('projects').select(['id', 'name']).where('organization_id', '=', user.organizationId).execute();
    direct.failNext('campaigns', { error_code: 152, error_string: 'Недостаточно баллов', error_detail: 'Недостаточно баллов для выполнения операции' }, 'okna-perm');
    const turnsBefore = await t.app.db.selectFrom('agency_client_imports').select('id').where('client_login', '=', 'teplodom').execute();
    // Picked twice at the same moment (and once more in capitals): one turn, one read.
    const [started, again] = await Promise.all([
      call<AgencyClientImportList>(t.app, 'POST', importsPath(), { token: user.token, body: { logins: ['teplodom', 'TEPLODOM', 'okna-perm'] } }),
      call<AgencyClientImportList>(t.app, 'POST', importsPath(), { token: user.token, body: { logins: ['teplodom'] } }),
    ]);
    expect([started.status, again.status]).toEqual([202, 202]);
    const turnsAfter = await t.app.db.selectFrom('agency_client_imports').select('id').where('client_login', '=', 'teplodom').execute();
    expect(turnsAfter.length).toBe(turnsBefore.length + 1);
    const done = await waitForImports((list) => list.imports.every((turn) => turn.created_at >= started.body.imports[0]!.created_at || turn.client_login === 'closed-client') && allFinished(list));
    const byLogin = Object.fromEntries(done.imports.map((turn) => [turn.client_login, turn]));
    const teplodomProject = before.find((project) => project.name === 'ООО «Теплодом»')!;
    expect(byLogin['teplodom']).toMatchObject({ status: 'completed', refreshed: true, project: { id: teplodomProject.id } });
    expect(byLogin['okna-perm']).toMatchObject({ status: 'failed', error: 'Закончились баллы API Яндекс Директа. Баллы начисляются каждый час, попробуйте позже' });
    const after = await t.app.db.selectFrom('projects').select('id').where('organization_id', '=', user.organizationId).where('deleted_at', 'is', null).execute();
    expect(after.length).toBe(before.length);
    const project = await call(t.app, 'GET', `/api/v1/projects/${teplodomProject.id}`, { token: user.token });
    expect(project.body.imports.map((record: { mode: string }) => record.mode)).toEqual(['replace', 'create']);
  });

  it('refuses a login that is not a client of the agency, in Russian, naming it', async () => {
    const refused = await call(t.app, 'POST', importsPath(), { token: user.token, body: { logins: ['teplodom', 'stranger'] } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'NOT_AGENCY_CLIENT', error: 'Клиента stranger нет среди клиентов агентства (или он в архиве)' });
    const empty = await call(t.app, 'POST', importsPath(), { token: user.token, body: { logins: [] } });
    expect(empty.status).toBe(422);
    expect(JSON.stringify(empty.body)).toContain('Выберите хотя бы одного клиента');
    const stranger = await createUser(t.app);
    const foreign = await call(t.app, 'GET', importsPath(), { token: stranger.token });
    expect(foreign.status).toBe(404);
  });
});

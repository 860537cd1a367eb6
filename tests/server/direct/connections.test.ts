import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionAccessToken } from '../../../server/direct/connections.js';
import { startFakeDirect, teplodomAccount } from '../../fakes/yandex-direct-fake.js';
import { startFakeYandexId, type FakeYandexId } from '../../fakes/yandex-id-fake.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { createProject, runDirectImport } from '../projects/helpers.js';

let yandexId: FakeYandexId;
let t: TestApp;
let owner: FixtureUser;
let member: FixtureUser;

beforeAll(async () => {
  yandexId = await startFakeYandexId();
  t = await createTestApp({
    config: {
      yandexOAuth: {
        clientId: yandexId.clientId,
        clientSecret: yandexId.clientSecret,
        redirectUrl: 'http://localhost:5173/connections/yandex/callback',
        oauthUrl: yandexId.url,
        loginUrl: yandexId.url,
      },
    },
  });
  owner = await createUser(t.app, { firstName: 'Ольга', lastName: 'Владелец' });
  member = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'member', firstName: 'Мария', lastName: 'Участникова' });
});
afterAll(async () => {
  await t?.close();
  await yandexId?.close();
});

/** «Подключить Яндекс Директ»: the address the PWA sends the person to, and where Yandex ID sends them back. */
async function consent(user: FixtureUser): Promise<{ authorizeUrl: URL; back: URL }> {
  const started = await call(t.app, 'POST', '/api/v1/direct/connections/authorize', { token: user.token });
  expect(started.status).toBe(200);
  const authorizeUrl = new URL(started.body.authorize_url);
  const answer = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return { authorizeUrl, back: new URL(answer.headers.get('location')!) };
}

const callbackOf = (back: URL) => Object.fromEntries(back.searchParams);

describe('connecting Yandex Direct through Yandex ID', () => {
  it('sends the person to Yandex ID with a state and a PKCE challenge, and back to the PWA', async () => {
    const { authorizeUrl, back } = await consent(owner);
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${yandexId.url}/authorize`);
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: yandexId.clientId,
      redirect_uri: 'http://localhost:5173/connections/yandex/callback',
      code_challenge_method: 'S256',
    });
    expect(authorizeUrl.searchParams.get('state')).toMatch(/^[\w-]{40,}$/);
    expect(authorizeUrl.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(back.origin + back.pathname).toBe('http://localhost:5173/connections/yandex/callback');
  });

  it('exchanges the code with the verifier, keeps the tokens sealed and shows the connection without them', async () => {
    const { back } = await consent(owner);
    const finished = await call(t.app, 'POST', '/api/v1/direct/connections/callback', { token: owner.token, body: callbackOf(back) });
    expect(finished.status).toBe(201);
    expect(finished.body).toMatchObject({ login: 'flower-shop', connected_by: 'Ольга Владелец' });
    const exchange = yandexId.tokenRequests.at(-1)!;
    expect(exchange).toMatchObject({ grant_type: 'authorization_code', code: back.searchParams.get('code'), client_id: yandexId.clientId });
    expect(exchange.code_verifier).toMatch(/^[\w-]{64}$/);

    const issued = yandexId.issued.at(-1)!;
    const listed = await call(t.app, 'GET', '/api/v1/direct/connections', { token: member.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ oauth_available: true, connections: [{ login: 'flower-shop' }] });
    for (const answer of [JSON.stringify(finished.body), JSON.stringify(listed.body)]) {
      expect(answer).not.toContain(issued.accessToken);
      expect(answer).not.toContain(issued.refreshToken);
    }
    const row = await t.app.db.selectFrom('direct_connections').selectAll().executeTakeFirstOrThrow();
    expect(row.sealed_access_token).not.toContain(issued.accessToken);
    expect(row.sealed_refresh_token).not.toContain(issued.refreshToken);
    const access = await connectionAccessToken(t.app.db, t.config.yandexOAuth, t.config.secretsKey, owner.organizationId, row.id);
    expect(access).toEqual({ token: issued.accessToken, login: 'flower-shop' });
  });

  it("refuses a state that is another user's, spent, or unknown, and spends a state once", async () => {
    const { back } = await consent(owner);
    const stolen = await call(t.app, 'POST', '/api/v1/direct/connections/callback', { token: member.token, body: callbackOf(back) });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toEqual({ code: 'OAUTH_STATE_INVALID', error: 'Ссылка подключения устарела или начата другим пользователем. Начните подключение заново' });

    const exchanges = yandexId.tokenRequests.length;
    const own = await call(t.app, 'POST', '/api/v1/direct/connections/callback', { token: owner.token, body: callbackOf(back) });
    expect(own.status).toBe(201);
    const replayed = await call(t.app, 'POST', '/api/v1/direct/connections/callback', { token: owner.token, body: callbackOf(back) });
    expect(replayed.body.code).toBe('OAUTH_STATE_INVALID');
    const forged = await call(t.app, 'POST', '/api/v1/direct/connections/callback', { token: owner.token, body: { state: 'x'.repeat(43), code: '1234567' } });
    expect(forged.body.code).toBe('OAUTH_STATE_INVALID');
    expect(yandexId.tokenRequests.length).toBe(exchanges + 1);
  });

  it('says so when the person refuses on Yandex ID', async () => {
    yandexId.denyNext();
    const { back } = await consent(owner);
    expect(back.searchParams.get('error')).toBe('access_denied');
    const refused = await call(t.app, 'POST', '/api/v1/direct/connections/callback', { token: owner.token, body: callbackOf(back) });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 'OAUTH_ACCESS_DENIED', error: 'Подключение отменено: доступ к Яндекс Директу в Яндекс ID не выдан' });
  });

  it('renews a token that ends within the hour once, however many imports ask at the same moment', async () => {
    const connection = await t.app.db.selectFrom('direct_connections').select(['id']).where('organization_id', '=', owner.organizationId).executeTakeFirstOrThrow();
    await t.app.db.updateTable('direct_connections').set({ expires_at: new Date(Date.now() + 5 * 60_000) }).where('id', '=', connection.id).execute();
    const before = yandexId.tokenRequests.length;
    const accesses = await Promise.all([1, 2, 3].map(() => connectionAccessToken(t.app.db, t.config.yandexOAuth, t.config.secretsKey, owner.organizationId, connection.id)));
    expect(yandexId.tokenRequests.slice(before).map((form) => form.grant_type)).toEqual(['refresh_token']);
    const renewed = yandexId.issued.at(-1)!;
    expect(accesses.map((access) => access.token)).toEqual([renewed.accessToken, renewed.accessToken, renewed.accessToken]);
    const listed = await call(t.app, 'GET', '/api/v1/direct/connections', { token: owner.token });
    expect(new Date(listed.body.connections[0].expires_at).getTime()).toBeGreaterThan(Date.now() + 300 * 24 * 3600_000);
  });

  it('asks to connect again when Yandex ID no longer accepts the refresh token', async () => {
    const connection = await t.app.db.selectFrom('direct_connections').select(['id']).where('organization_id', '=', owner.organizationId).executeTakeFirstOrThrow();
    await t.app.db.updateTable('direct_connections').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', connection.id).execute();
    yandexId.revokeRefreshTokens();
    await expect(connectionAccessToken(t.app.db, t.config.yandexOAuth, t.config.secretsKey, owner.organizationId, connection.id)).rejects.toMatchObject({
      statusCode: 409,
      code: 'DIRECT_CONNECTION_EXPIRED',
      message: 'Доступ к аккаунту flower-shop истёк или отозван в Яндекс ID. Подключите аккаунт заново',
    });
    // Another organization never reaches the connection.
    const stranger = await createUser(t.app);
    await expect(connectionAccessToken(t.app.db, t.config.yandexOAuth, t.config.secretsKey, stranger.organizationId, connection.id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('disconnects for whoever connected the account or the owner, not for another member', async () => {
    const connection = await t.app.db.selectFrom('direct_connections').select(['id']).where('organization_id', '=', owner.organizationId).executeTakeFirstOrThrow();
    const byMember = await call(t.app, 'DELETE', `/api/v1/direct/connections/${connection.id}`, { token: member.token });
    expect(byMember.status).toBe(403);
    expect(byMember.body.error).toBe('Отключить аккаунт может тот, кто его подключил, или владелец организации');
    const byOwner = await call(t.app, 'DELETE', `/api/v1/direct/connections/${connection.id}`, { token: owner.token });
    expect(byOwner.status).toBe(204);
    const listed = await call(t.app, 'GET', '/api/v1/direct/connections', { token: owner.token });
    expect(listed.body.connections).toEqual([]);
  });
});

describe('without a Yandex ID application', () => {
  it('offers only the pasted token', async () => {
    const plain = await createTestApp();
    try {
      const user = await createUser(plain.app);
      const listed = await call(plain.app, 'GET', '/api/v1/direct/connections', { token: user.token });
      expect(listed.body).toEqual({ oauth_available: false, connections: [] });
      const started = await call(plain.app, 'POST', '/api/v1/direct/connections/authorize', { token: user.token });
      expect(started.status).toBe(503);
      expect(started.body.error).toBe('Подключение через Яндекс ID не настроено на этом сервере. Вставьте OAuth-токен Яндекс Директа вручную');
    } finally {
      await plain.close();
    }
  });
});

describe('importing through a connection', () => {
  it('reads the account with the connection, keeps the project linked to it, and re-reads it with a renewed token', async () => {
    const direct = await startFakeDirect(teplodomAccount(), { acceptsToken: (token) => yandexId.issued.some((issued) => issued.accessToken === token) });
    const importer = await createTestApp({ config: { yandexOAuth: t.config.yandexOAuth, yandexDirectApiUrl: direct.url }, jobQueue: { runWorkers: true } });
    try {
      const user = await createUser(importer.app);
      const { back } = await (async () => {
        const started = await call(importer.app, 'POST', '/api/v1/direct/connections/authorize', { token: user.token });
        const answer = await fetch(started.body.authorize_url, { redirect: 'manual' });
        return { back: new URL(answer.headers.get('location')!) };
      })();
      const connected = await call(importer.app, 'POST', '/api/v1/direct/connections/callback', { token: user.token, body: callbackOf(back) });
      expect(connected.status).toBe(201);

      const { started, job } = await runDirectImport(importer.app, user.token, `/api/v1/projects/import-preview/direct-connections/${connected.body.id}`, { client_login: 'teplodom' });
      expect(started.status).toBe(202);
      expect(job).toMatchObject({ status: 'completed', preview: { counts: { campaigns: 2, keywords: 7 } } });
      expect(direct.requests.at(-1)!.headers['client-login']).toBe('teplodom');
      const project = await createProject(importer.app, user.token, { name: 'Теплодом', site_url: 'teplodom.example', draft_id: job!.preview!.draft_id });
      expect(project.connection).toMatchObject({ platform: 'yandex_direct', client_login: 'teplodom' });
      const link = await importer.app.db.selectFrom('project_connections').select('direct_connection_id').where('project_id', '=', project.id).executeTakeFirstOrThrow();
      expect(link.direct_connection_id).toBe(connected.body.id);

      // Months later the token is about to end: reading the project again renews it first.
      await importer.app.db.updateTable('direct_connections').set({ expires_at: new Date(Date.now() + 60_000) }).where('id', '=', connected.body.id).execute();
      const again = await runDirectImport(importer.app, user.token, `/api/v1/projects/${project.id}/import-preview/direct-api`);
      expect(again.job).toMatchObject({ status: 'completed' });
      expect(yandexId.tokenRequests.at(-1)!.grant_type).toBe('refresh_token');
      expect(direct.requests.at(-1)!.headers.authorization).toBe(`Bearer ${yandexId.issued.at(-1)!.accessToken}`);
    } finally {
      await importer.close();
      await direct.close();
    }
  });
});

describe("an agency's clients", () => {
  it('lists the clients of an agency account, and none for an advertiser', async () => {
    const agencyDirect = await startFakeDirect({ ...teplodomAccount(), agencyClients: [{ Login: 'teplodom', ClientInfo: 'ООО «Теплодом»' }, { Login: 'old-client', ClientInfo: 'Архив', Archived: 'YES' }, { Login: 'okna-perm' }] }, { acceptsToken: () => true });
    const advertiserDirect = await startFakeDirect(teplodomAccount(), { acceptsToken: () => true });
    const user = await createUser(t.app);
    const { back } = await consent(user);
    const connected = await call(t.app, 'POST', '/api/v1/direct/connections/callback', { token: user.token, body: callbackOf(back) });
    try {
      t.config.yandexDirectApiUrl = agencyDirect.url;
      const agency = await call(t.app, 'GET', `/api/v1/direct/connections/${connected.body.id}/clients`, { token: user.token });
      expect(agency.status).toBe(200);
      // By name in Russian collation (Cyrillic first); the archived client is left out.
      expect(agency.body).toEqual({ agency: true, clients: [{ login: 'teplodom', name: 'ООО «Теплодом»', project: null }, { login: 'okna-perm', name: 'okna-perm', project: null }] });
      expect(agencyDirect.requests.at(-1)).toMatchObject({ service: 'agencyclients', method: 'get', body: { params: { SelectionCriteria: { Archived: 'NO' } } } });

      t.config.yandexDirectApiUrl = advertiserDirect.url;
      const advertiser = await call(t.app, 'GET', `/api/v1/direct/connections/${connected.body.id}/clients`, { token: user.token });
      expect(advertiser.body).toEqual({ agency: false, clients: [] });
    } finally {
      await agencyDirect.close();
      await advertiserDirect.close();
    }
  });
});

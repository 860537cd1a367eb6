import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from '../../../server/lib/secret-box.js';
import { DIRECT_TOKEN_CONTEXT } from '../../../server/projects/service.js';
import { startFakeDirect, teplodomAccount, type FakeDirect } from '../../fakes/yandex-direct-fake.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { createProject, runDirectImport } from './helpers.js';

let fake: FakeDirect;
let sandbox: FakeDirect;
let t: TestApp;
let user: FixtureUser;

beforeAll(async () => {
  fake = await startFakeDirect(teplodomAccount(), { token: 'y0_good-token' });
  sandbox = await startFakeDirect(teplodomAccount(), { token: 'sandbox-token' });
  t = await createTestApp({ config: { yandexDirectApiUrl: fake.url, yandexDirectSandboxApiUrl: sandbox.url }, jobQueue: { runWorkers: true } });
  user = await createUser(t.app);
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await sandbox.close();
});

/** Previews the account behind `token` through the API and saves it as a new project. */
async function connectedProject(token: string, options: { sandbox?: boolean } = {}) {
  const { job } = await runDirectImport(t.app, user.token, '/api/v1/projects/import-preview/direct-api', { token, client_login: 'teplodom', sandbox: options.sandbox });
  expect(job?.status).toBe('completed');
  return createProject(t.app, user.token, { name: 'Теплодом', site_url: 'teplodom.example', draft_id: job!.preview!.draft_id });
}

describe('connecting Yandex Direct through the API', () => {
  it('previews the account (a job, then its preview), then saves it with the token sealed at rest', async () => {
    const { started, job } = await runDirectImport(t.app, user.token, '/api/v1/projects/import-preview/direct-api', { token: 'y0_good-token', client_login: 'teplodom' });
    expect(started.status).toBe(202);
    expect(JSON.stringify(started.body)).not.toContain('y0_good-token');
    expect(job).toMatchObject({ status: 'completed', project_id: null });
    const preview = { body: job!.preview! };
    expect(preview.body).toMatchObject({ source: 'direct_api', platform: 'yandex_direct', file_names: [] });
    expect(preview.body.counts.campaigns).toBeGreaterThan(0);
    expect(preview.body.campaigns.map((c: { name: string }) => c.name)).toContain('Тёплый пол — Поиск');
    expect(JSON.stringify(job)).not.toContain('y0_good-token');
    // The requests carried the user's token and Client-Login.
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer y0_good-token');
    expect(fake.requests[0]!.headers['client-login']).toBe('teplodom');

    const draft = await t.app.db.selectFrom('import_drafts').select('connection').where('id', '=', preview.body.draft_id).executeTakeFirstOrThrow();
    expect(JSON.stringify(draft.connection)).not.toContain('y0_good-token');

    const project = await call(t.app, 'POST', '/api/v1/projects', {
      token: user.token,
      body: { name: 'Теплодом', site_url: 'teplodom.example', platform: 'yandex_direct', draft_id: preview.body.draft_id },
    });
    expect(project.status).toBe(201);
    expect(project.body.counts.campaigns).toBe(preview.body.counts.campaigns);
    expect(project.body.connection).toMatchObject({ platform: 'yandex_direct', client_login: 'teplodom', sandbox: false });
    expect(project.body.imports[0].source).toBe('direct_api');
    const stored = await t.app.db.selectFrom('project_connections').select('encrypted_token').where('project_id', '=', project.body.id).executeTakeFirstOrThrow();
    expect(openSecret(stored.encrypted_token, t.config.secretsKey, DIRECT_TOKEN_CONTEXT)).toBe('y0_good-token');
  });
});

describe('the sandbox option', () => {
  it('reads the account from the sandbox address and remembers the choice with the connection', async () => {
    const productionCalls = fake.requests.length;
    const project = await connectedProject('sandbox-token', { sandbox: true });
    expect(project.connection).toMatchObject({ client_login: 'teplodom', sandbox: true });
    expect(project.counts.campaigns).toBeGreaterThan(0);
    expect(sandbox.requests.length).toBeGreaterThan(0);
    expect(sandbox.requests.every((request) => request.headers.authorization === 'Bearer sandbox-token')).toBe(true);
    // Nothing went to the production address.
    expect(fake.requests.length).toBe(productionCalls);
  });
});

describe('re-import through the saved connection', () => {
  it('loads the account again with the stored token, without asking for it, and replaces the campaigns', async () => {
    const project = await connectedProject('y0_good-token');
    const campaignsBefore = project.campaigns.map((campaign: { name: string }) => campaign.name);
    expect(campaignsBefore).toContain('Тёплый пол — РСЯ');

    // Meanwhile the advertiser archived a campaign in Direct.
    const rsya = fake.account.campaigns.find((campaign) => campaign.Name === 'Тёплый пол — РСЯ')!;
    const previousState = rsya.State;
    rsya.State = 'ARCHIVED';
    try {
      fake.requests.length = 0;
      const { started, job } = await runDirectImport(t.app, user.token, `/api/v1/projects/${project.id}/import-preview/direct-api`);
      expect(started.status).toBe(202);
      expect(job).toMatchObject({ status: 'completed', project_id: project.id });
      const preview = { body: job!.preview! };
      expect(preview.body).toMatchObject({ source: 'direct_api', platform: 'yandex_direct' });
      expect(preview.body.campaigns.map((campaign: { name: string }) => campaign.name)).not.toContain('Тёплый пол — РСЯ');
      expect(fake.requests.length).toBeGreaterThan(0);
      expect(fake.requests.every((request) => request.headers.authorization === 'Bearer y0_good-token' && request.headers['client-login'] === 'teplodom')).toBe(true);
      expect(JSON.stringify(job)).not.toContain('y0_good-token');

      const applied = await call(t.app, 'POST', `/api/v1/projects/${project.id}/imports`, { token: user.token, body: { draft_id: preview.body.draft_id, mode: 'replace' } });
      expect(applied.status).toBe(201);
      expect(applied.body.campaigns.map((campaign: { name: string }) => campaign.name)).toEqual(campaignsBefore.filter((name: string) => name !== 'Тёплый пол — РСЯ'));
      expect(applied.body.imports.map((record: { source: string; mode: string }) => [record.source, record.mode])).toEqual([
        ['direct_api', 'replace'],
        ['direct_api', 'create'],
      ]);
      const stored = await t.app.db.selectFrom('project_connections').select('encrypted_token').where('project_id', '=', project.id).executeTakeFirstOrThrow();
      expect(openSecret(stored.encrypted_token, t.config.secretsKey, DIRECT_TOKEN_CONTEXT)).toBe('y0_good-token');
    } finally {
      rsya.State = previousState;
    }
  });

  it('says so when the project has no saved connection', async () => {
    const project = await createProject(t.app, user.token, { name: 'Без API' });
    const response = await call(t.app, 'POST', `/api/v1/projects/${project.id}/import-preview/direct-api`, { token: user.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'Проект не подключён к API Яндекс Директа: загрузите кампании через API, указав OAuth-токен', code: 'CONNECTION_NOT_FOUND' });
  });

  it('asks for a new token when the stored one cannot be opened (the secrets key changed)', async () => {
    const project = await connectedProject('y0_good-token');
    const sealedElsewhere = sealSecret('y0_good-token', new Uint8Array(randomBytes(32)), DIRECT_TOKEN_CONTEXT);
    await t.app.db.updateTable('project_connections').set({ encrypted_token: sealedElsewhere }).where('project_id', '=', project.id).execute();
    const response = await call(t.app, 'POST', `/api/v1/projects/${project.id}/import-preview/direct-api`, { token: user.token });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('DIRECT_TOKEN_UNREADABLE');
    expect(response.body.error).toBe('Сохранённый токен Яндекс Директа не удалось прочитать: подключите API заново, указав OAuth-токен');
  });

  it('never uses the connection of another organization', async () => {
    const project = await connectedProject('y0_good-token');
    const stranger = await createUser(t.app);
    fake.requests.length = 0;
    const response = await call(t.app, 'POST', `/api/v1/projects/${project.id}/import-preview/direct-api`, { token: stranger.token });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('PROJECT_NOT_FOUND');
    expect(fake.requests).toEqual([]);
  });
});

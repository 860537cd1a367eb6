import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecret } from '../../../server/lib/secret-box.js';
import { DIRECT_TOKEN_CONTEXT } from '../../../server/projects/service.js';
import { startFakeDirect, teplodomAccount, type FakeDirect } from '../../fakes/yandex-direct-fake.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';

let fake: FakeDirect;
let t: TestApp;
let user: FixtureUser;

beforeAll(async () => {
  fake = await startFakeDirect(teplodomAccount(), { token: 'y0_good-token' });
  t = await createTestApp({ config: { yandexDirectApiUrl: fake.url } });
  user = await createUser(t.app);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('connecting Yandex Direct through the API', () => {
  it('previews the account, then saves it with the token sealed at rest', async () => {
    const preview = await call(t.app, 'POST', '/api/v1/projects/import-preview/direct-api', { token: user.token, body: { token: 'y0_good-token', client_login: 'teplodom' } });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ source: 'direct_api', platform: 'yandex_direct', file_names: [] });
    expect(preview.body.counts.campaigns).toBeGreaterThan(0);
    expect(preview.body.campaigns.map((c: { name: string }) => c.name)).toContain('Тёплый пол — Поиск');
    expect(JSON.stringify(preview.body)).not.toContain('y0_good-token');
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

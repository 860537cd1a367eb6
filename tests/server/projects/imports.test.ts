import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecret } from '../../../server/lib/secret-box.js';
import { DIRECT_TOKEN_CONTEXT } from '../../../server/projects/service.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { createProject, insertDraft, sampleCampaignData } from './helpers.js';

let t: TestApp;
let user: FixtureUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.app, { firstName: 'Олег', lastName: 'Ким' });
});
afterAll(() => t.close());

describe('saving an import preview into a project', () => {
  it('creates the project with its campaign tree, counts, statistics and import history', async () => {
    const project = await createProject(t.app, user.token, { draft_id: await insertDraft(t.app, user) });
    expect(project.counts).toEqual({ campaigns: 2, groups: 3, ads: 2, keywords: 3 });
    expect(project.search_queries).toBe(1);
    expect(project.period).toEqual({ from: '2025-01-01', to: '2025-01-31' });
    const [search, network] = project.campaigns;
    expect(search).toMatchObject({
      external_id: '1001',
      name: 'Окна — поиск',
      type: 'search',
      groups_count: 2,
      ads_count: 1,
      keywords_count: 3,
      negative_keywords: 2,
      // No campaign statistics in the file: summed from the keywords.
      stats: { impressions: 1400, clicks: 60, cost: 3200, conversions: 2 },
      groups: [
        { name: 'Пластиковые окна', external_id: '2001', ads: 1, keywords: 2, negative_keywords: 1 },
        { name: 'Окна на дачу', external_id: null, ads: 0, keywords: 1, negative_keywords: 0 },
      ],
    });
    expect(network.stats).toEqual({ impressions: 5000, clicks: 20, cost: 300, conversions: 1 });
    expect(project.stats).toEqual({ impressions: 6400, clicks: 80, cost: 3500, conversions: 3 });
    expect(project.imports).toEqual([
      expect.objectContaining({ source: 'files', mode: 'create', status: 'completed', file_names: ['campaigns.csv'], created_by: { id: user.id, full_name: 'Олег Ким' } }),
    ]);
    expect(project.imports[0].counts).toEqual({ campaigns: 2, groups: 3, ads: 2, keywords: 3, searchQueries: 1 });

    const listed = await call(t.app, 'GET', '/api/v1/projects', { token: user.token });
    expect(listed.body.items.find((item: { id: string }) => item.id === project.id).counts).toEqual({ campaigns: 2, groups: 3, ads: 2, keywords: 3 });
  });

  it('serves the tree and each whole campaign document', async () => {
    const project = await createProject(t.app, user.token, { draft_id: await insertDraft(t.app, user) });
    const tree = await call(t.app, 'GET', `/api/v1/projects/${project.id}/campaigns`, { token: user.token });
    expect(tree.status).toBe(200);
    expect(tree.body.campaigns.map((c: { name: string }) => c.name)).toEqual(['Окна — поиск', 'Окна — сети']);

    const one = await call(t.app, 'GET', `/api/v1/projects/${project.id}/campaigns/${tree.body.campaigns[0].id}`, { token: user.token });
    expect(one.status).toBe(200);
    expect(one.body.campaign).toEqual(sampleCampaignData().campaigns[0]);
  });

  it('uses a preview once', async () => {
    const draftId = await insertDraft(t.app, user);
    await createProject(t.app, user.token, { draft_id: draftId });
    const again = await call(t.app, 'POST', '/api/v1/projects', { token: user.token, body: { name: 'Второй', site_url: 'b.example.ru', platform: 'yandex_direct', draft_id: draftId } });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('Предпросмотр импорта не найден или устарел. Загрузите файлы ещё раз');
  });

  it('refuses an expired preview', async () => {
    const draftId = await insertDraft(t.app, user, sampleCampaignData(), { expiresAt: new Date(Date.now() - 1000) });
    const response = await call(t.app, 'POST', '/api/v1/projects', { token: user.token, body: { name: 'Старый', site_url: 'c.example.ru', platform: 'yandex_direct', draft_id: draftId } });
    expect(response.status).toBe(404);
  });

  it('does not let another member of the organization use my preview', async () => {
    const colleague = await createUser(t.app, { organizationId: user.organizationId });
    const draftId = await insertDraft(t.app, user);
    const response = await call(t.app, 'POST', '/api/v1/projects', { token: colleague.token, body: { name: 'Чужой', site_url: 'd.example.ru', platform: 'yandex_direct', draft_id: draftId } });
    expect(response.status).toBe(404);
  });
});

describe('re-import', () => {
  it('replaces the campaigns and the search queries, keeping the history', async () => {
    const project = await createProject(t.app, user.token, { draft_id: await insertDraft(t.app, user) });
    const replacement = { ...sampleCampaignData('Двери'), searchQueries: [] };
    replacement.campaigns = replacement.campaigns.slice(0, 1);
    const response = await call(t.app, 'POST', `/api/v1/projects/${project.id}/imports`, {
      token: user.token,
      body: { draft_id: await insertDraft(t.app, user, replacement), mode: 'replace' },
    });
    expect(response.status).toBe(201);
    expect(response.body.campaigns.map((c: { name: string }) => c.name)).toEqual(['Двери — поиск']);
    expect(response.body.search_queries).toBe(0);
    expect(response.body.imports.map((i: { mode: string }) => i.mode)).toEqual(['replace', 'create']);
  });

  it('appends campaigns after the existing ones', async () => {
    const project = await createProject(t.app, user.token, { draft_id: await insertDraft(t.app, user) });
    const response = await call(t.app, 'POST', `/api/v1/projects/${project.id}/imports`, {
      token: user.token,
      body: { draft_id: await insertDraft(t.app, user, sampleCampaignData('Двери')), mode: 'append' },
    });
    expect(response.status).toBe(201);
    expect(response.body.campaigns.map((c: { name: string }) => c.name)).toEqual(['Окна — поиск', 'Окна — сети', 'Двери — поиск', 'Двери — сети']);
    expect(response.body.counts.keywords).toBe(6);
    expect(response.body.search_queries).toBe(2);
  });

  it('validates the mode', async () => {
    const project = await createProject(t.app, user.token);
    const response = await call(t.app, 'POST', `/api/v1/projects/${project.id}/imports`, { token: user.token, body: { draft_id: await insertDraft(t.app, user), mode: 'merge' } });
    expect(response.status).toBe(422);
    expect(response.body.detail[0].msg).toBe('Выберите режим импорта: заменить или добавить');
  });

  it('connects the project to the Direct API with the token sealed at rest, never shown back', async () => {
    const { sealSecret } = await import('../../../server/lib/secret-box.js');
    const sealed = sealSecret('y0_secret-oauth-token', t.config.secretsKey, DIRECT_TOKEN_CONTEXT);
    const draftId = await insertDraft(t.app, user, sampleCampaignData(), { connection: { encrypted_token: sealed, client_login: 'okna-plus', sandbox: false } });
    const project = await createProject(t.app, user.token, { draft_id: draftId });
    expect(project.connection).toMatchObject({ platform: 'yandex_direct', client_login: 'okna-plus', sandbox: false });
    expect(JSON.stringify(project)).not.toContain('y0_secret');
    const stored = await t.app.db.selectFrom('project_connections').select('encrypted_token').where('project_id', '=', project.id).executeTakeFirstOrThrow();
    expect(stored.encrypted_token).not.toContain('y0_secret');
    expect(openSecret(stored.encrypted_token, t.config.secretsKey, DIRECT_TOKEN_CONTEXT)).toBe('y0_secret-oauth-token');
  });
});

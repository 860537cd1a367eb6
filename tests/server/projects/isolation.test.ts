import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { createProject, insertDraft, upload } from './helpers.js';

let t: TestApp;
let userA: FixtureUser;
let userB: FixtureUser;
let projectB: { id: string; campaigns: { id: string }[] };

beforeAll(async () => {
  t = await createTestApp();
  userA = await createUser(t.app);
  userB = await createUser(t.app);
  await createProject(t.app, userA.token, { name: 'Проект организации A' });
  projectB = await createProject(t.app, userB.token, { name: 'Проект организации B', draft_id: await insertDraft(t.app, userB) });
});
afterAll(() => t.close());

describe('tenant isolation of projects', () => {
  it('org B has a project with campaigns (the fixture is real)', async () => {
    expect(projectB.campaigns.length).toBe(2);
    expect((await call(t.app, 'GET', `/api/v1/projects/${projectB.id}`, { token: userB.token })).status).toBe(200);
  });

  it('answers 404, never 403, on every project route of another organization', async () => {
    const campaignId = projectB.campaigns[0]!.id;
    const ownDraft = await insertDraft(t.app, userA);
    const attempts = [
      call(t.app, 'GET', `/api/v1/projects/${projectB.id}`, { token: userA.token }),
      call(t.app, 'PATCH', `/api/v1/projects/${projectB.id}`, { token: userA.token, body: { name: 'Захват' } }),
      call(t.app, 'DELETE', `/api/v1/projects/${projectB.id}`, { token: userA.token }),
      call(t.app, 'GET', `/api/v1/projects/${projectB.id}/campaigns`, { token: userA.token }),
      call(t.app, 'GET', `/api/v1/projects/${projectB.id}/campaigns/${campaignId}`, { token: userA.token }),
      call(t.app, 'POST', `/api/v1/projects/${projectB.id}/imports`, { token: userA.token, body: { draft_id: ownDraft, mode: 'replace' } }),
      call(t.app, 'POST', `/api/v1/projects/${projectB.id}/import-preview/direct-api`, { token: userA.token }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('PROJECT_NOT_FOUND');
    }
    // Nothing changed on B's side.
    const seenByB = await call(t.app, 'GET', `/api/v1/projects/${projectB.id}`, { token: userB.token });
    expect(seenByB.body.name).toBe('Проект организации B');
    expect(seenByB.body.campaigns.length).toBe(2);
    expect(seenByB.body.imports.length).toBe(1);
  });

  it('never lists or finds projects of another organization', async () => {
    const listed = await call(t.app, 'GET', '/api/v1/projects', { token: userA.token });
    expect(listed.body.items.map((item: { name: string }) => item.name)).toEqual(['Проект организации A']);
    expect(listed.body.total).toBe(1);
    const searched = await call(t.app, 'GET', `/api/v1/projects?search=${encodeURIComponent('организации B')}`, { token: userA.token });
    expect(searched.body.items).toEqual([]);
  });

  it('does not let one organization use a preview made in another', async () => {
    const draftOfB = await insertDraft(t.app, userB);
    const created = await call(t.app, 'POST', '/api/v1/projects', { token: userA.token, body: { name: 'Чужие данные', site_url: 'a.example.ru', platform: 'yandex_direct', draft_id: draftOfB } });
    expect(created.status).toBe(404);
    expect(created.body.code).toBe('DRAFT_NOT_FOUND');
    const ownProject = await createProject(t.app, userA.token);
    const imported = await call(t.app, 'POST', `/api/v1/projects/${ownProject.id}/imports`, { token: userA.token, body: { draft_id: draftOfB, mode: 'append' } });
    expect(imported.status).toBe(404);
    expect(imported.body.code).toBe('DRAFT_NOT_FOUND');
  });

  it('keeps a member of two organizations inside the organization of the token', async () => {
    const both = await createUser(t.app, { organizationId: userA.organizationId });
    await t.app.db.insertInto('memberships').values({ user_id: both.id, organization_id: userB.organizationId, role: 'member' }).execute();
    // Its token is for organization A: B's project stays invisible until it switches.
    expect((await call(t.app, 'GET', `/api/v1/projects/${projectB.id}`, { token: both.token })).status).toBe(404);
    const tokenForB = await t.app.accessTokens.sign({ userId: both.id, organizationId: userB.organizationId });
    expect((await call(t.app, 'GET', `/api/v1/projects/${projectB.id}`, { token: tokenForB })).status).toBe(200);
  });

  it('refuses anonymous uploads before reading them', async () => {
    const response = await upload(t.app, '/api/v1/projects/import-preview', '', [{ name: 'a.csv', content: 'x' }]);
    expect(response.status).toBe(401);
  });
});

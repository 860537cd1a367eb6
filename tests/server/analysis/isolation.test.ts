import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { balanceOf, eventsUntilDone, projectWithCampaigns } from './helpers.js';

/** Organization B never reaches anything of organization A: every analysis route answers 404, as for a missing id. */
describe('analyses are isolated between organizations', () => {
  let t: TestApp;
  let ownerA: FixtureUser;
  let memberA: FixtureUser;
  let userB: FixtureUser;
  let projectA: Awaited<ReturnType<typeof projectWithCampaigns>>;
  let analysisId: string;

  beforeAll(async () => {
    t = await createTestApp({ jobQueue: { runWorkers: true } });
    ownerA = await createUser(t.app, { balance: 500 });
    memberA = await createUser(t.app, { organizationId: ownerA.organizationId, organizationRole: 'member' });
    userB = await createUser(t.app, { balance: 500 });
    projectA = await projectWithCampaigns(t.app, ownerA);
    const started = await call(t.app, 'POST', `/api/v1/projects/${projectA.projectId}/analyses`, {
      token: ownerA.token,
      body: { campaign_ids: projectA.campaignIds, idempotency_key: randomUUID() },
    });
    analysisId = started.body.analysis.id;
    await eventsUntilDone(t.app, ownerA.token, analysisId);
  });
  afterAll(async () => t.close());

  const routes = () => [
    ['POST', `/api/v1/projects/${projectA.projectId}/analyses`, { campaign_ids: projectA.campaignIds, idempotency_key: randomUUID() }],
    ['GET', `/api/v1/projects/${projectA.projectId}/analyses`],
    ['GET', `/api/v1/analyses/${analysisId}`],
    ['GET', `/api/v1/analyses/${analysisId}/events`],
    ['POST', `/api/v1/analyses/${analysisId}/cancel`],
    ['GET', `/api/v1/analyses/${analysisId}/results`],
    ['PUT', `/api/v1/analyses/${analysisId}/decisions`, { accepted: [], rejected: [] }],
    ['PATCH', `/api/v1/analyses/${analysisId}/decisions`, { changes: [{ id: 'any-suggestion', decision: 'accepted' }] }],
    ['GET', `/api/v1/analyses/${analysisId}/export?format=csv`],
    ['GET', `/api/v1/analyses/${analysisId}/findings`],
    ['GET', `/api/v1/analyses/${analysisId}/findings?severity=high&page_size=500`],
    ['GET', `/api/v1/analyses/${analysisId}/findings/any-finding/items`],
    ['GET', `/api/v1/analyses/${analysisId}/suggestions?kind=negative_keyword`],
    ['POST', `/api/v1/analyses/${analysisId}/decisions/bulk`, { filter: {}, decision: 'accepted' }],
    ['GET', `/api/v1/analyses/${analysisId}/semantic/clusters`],
    ['GET', `/api/v1/analyses/${analysisId}/scores?level=keyword`],
  ] as const;

  it('answers 404 to another organization on every route, and charges nothing', async () => {
    for (const [method, url, body] of routes()) {
      const answer = await call(t.app, method, url, { token: userB.token, body });
      expect(answer.status, `${method} ${url}`).toBe(404);
      expect(answer.body.code, `${method} ${url}`).toMatch(/^(PROJECT|ANALYSIS)_NOT_FOUND$/);
    }
    expect(await balanceOf(t.app, userB.id)).toBe(500);
    // The bulk and single decisions of the other organization wrote nothing.
    const decided = await t.app.db.selectFrom('analysis_decisions').select('suggestion_id').where('analysis_id', '=', analysisId).execute();
    expect(decided).toEqual([]);
  });

  it('answers the same 404 for an id that does not exist', async () => {
    const missing = await call(t.app, 'GET', `/api/v1/analyses/${randomUUID()}`, { token: userB.token });
    const foreign = await call(t.app, 'GET', `/api/v1/analyses/${analysisId}`, { token: userB.token });
    expect(foreign.status).toBe(missing.status);
    expect(foreign.body).toEqual(missing.body);
  });

  it('lets every member of the organization read the analysis', async () => {
    expect((await call(t.app, 'GET', `/api/v1/analyses/${analysisId}`, { token: memberA.token })).status).toBe(200);
    expect((await call(t.app, 'GET', `/api/v1/analyses/${analysisId}/results`, { token: memberA.token })).status).toBe(200);
    for (const path of ['findings', 'suggestions', 'semantic/clusters', 'scores']) {
      expect((await call(t.app, 'GET', `/api/v1/analyses/${analysisId}/${path}`, { token: memberA.token })).status, path).toBe(200);
    }
    const history = await call(t.app, 'GET', `/api/v1/projects/${projectA.projectId}/analyses`, { token: memberA.token });
    expect(history.body.items.map((item: { id: string }) => item.id)).toEqual([analysisId]);
    // «Мои анализы»: the member started none, the owner this one.
    const mine = await call(t.app, 'GET', `/api/v1/projects/${projectA.projectId}/analyses?author_id=${memberA.id}`, { token: memberA.token });
    expect(mine.body).toMatchObject({ items: [], total: 0 });
    const owners = await call(t.app, 'GET', `/api/v1/projects/${projectA.projectId}/analyses?author_id=${ownerA.id}`, { token: memberA.token });
    expect(owners.body.items.map((item: { id: string }) => item.id)).toEqual([analysisId]);
    expect((await call(t.app, 'GET', `/api/v1/projects/${projectA.projectId}/analyses?author_id=nobody`, { token: memberA.token })).status).toBe(422);
  });

  it('hides the analyses of a deleted project', async () => {
    const removed = await call(t.app, 'DELETE', `/api/v1/projects/${projectA.projectId}`, { token: ownerA.token });
    expect(removed.status).toBe(204);
    expect((await call(t.app, 'GET', `/api/v1/analyses/${analysisId}`, { token: ownerA.token })).status).toBe(404);
  });

  it('requires a token', async () => {
    expect((await call(t.app, 'GET', `/api/v1/analyses/${analysisId}`)).status).toBe(401);
    expect((await call(t.app, 'GET', `/api/v1/analyses/${analysisId}/events`)).status).toBe(401);
  });
});

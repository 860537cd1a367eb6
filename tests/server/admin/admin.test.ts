import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminAnalysisResponseSchema, AdminOverviewSchema, AdminProjectDetailSchema } from '../../../contract/admin.js';
import { AnalysisHistoryPageSchema } from '../../../contract/analysis.js';
import { PagedResultsSchema } from '../../../contract/analysis-pages.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { eventsUntilDone, projectWithCampaigns } from '../analysis/helpers.js';

describe('admin API (platform administrators only, across organizations)', () => {
  let t: TestApp;
  let admin: FixtureUser;
  let orgOwner: FixtureUser;
  let otherOwner: FixtureUser;
  let projectA: Awaited<ReturnType<typeof projectWithCampaigns>>;
  let projectB: Awaited<ReturnType<typeof projectWithCampaigns>>;
  let analysisId: string;

  beforeAll(async () => {
    t = await createTestApp({ jobQueue: { runWorkers: true } });
    admin = await createUser(t.app, { role: 'admin' });
    // An organization owner is still not a platform admin.
    orgOwner = await createUser(t.app, { balance: 500 });
    otherOwner = await createUser(t.app, { balance: 500 });
    projectA = await projectWithCampaigns(t.app, orgOwner);
    projectB = await projectWithCampaigns(t.app, otherOwner);
    const started = await call(t.app, 'POST', `/api/v1/projects/${projectA.projectId}/analyses`, {
      token: orgOwner.token,
      body: { campaign_ids: projectA.campaignIds, idempotency_key: randomUUID() },
    });
    analysisId = started.body.analysis.id;
    await eventsUntilDone(t.app, orgOwner.token, analysisId);
  });
  afterAll(async () => t.close());

  const routes = () => [
    '/api/v1/admin/overview',
    `/api/v1/admin/projects/${projectA.projectId}`,
    `/api/v1/admin/projects/${projectA.projectId}/analyses`,
    `/api/v1/admin/analyses/${analysisId}`,
    `/api/v1/admin/analyses/${analysisId}/results`,
    `/api/v1/admin/analyses/${analysisId}/findings`,
    `/api/v1/admin/analyses/${analysisId}/suggestions`,
  ];

  it('answers 403 to users who are not platform admins, 401 without a token', async () => {
    for (const url of routes()) {
      const answer = await call(t.app, 'GET', url, { token: orgOwner.token });
      expect(answer.status, url).toBe(403);
      expect(answer.body.code).toBe('FORBIDDEN');
      expect((await call(t.app, 'GET', url)).status, url).toBe(401);
    }
  });

  it('shows counts, recent analyses and the projects of every organization', async () => {
    const overview = await call(t.app, 'GET', '/api/v1/admin/overview?page=1&page_size=10', { token: admin.token });
    expect(overview.status).toBe(200);
    // The admin screens read exactly the contract's shape (their tests use the same schemas).
    expect(() => v.parse(AdminOverviewSchema, overview.body)).not.toThrow();
    expect(overview.body.counts).toMatchObject({ organizations: 3, users: 3, projects: 2, analyses: 1, analyses_by_status: { completed: 1, queued: 0 } });
    expect(overview.body.counts.tokens_spent).toBeGreaterThan(0);
    expect(overview.body.recent_analyses[0]).toMatchObject({ id: analysisId, status: 'completed', project: { id: projectA.projectId }, organization: { id: orgOwner.organizationId } });
    expect(overview.body.projects.total).toBe(2);
    const ids = overview.body.projects.items.map((p: { id: string }) => p.id).sort();
    expect(ids).toEqual([projectA.projectId, projectB.projectId].sort());
    const a = overview.body.projects.items.find((p: { id: string }) => p.id === projectA.projectId);
    expect(a).toMatchObject({ analyses_count: 1, organization: { id: orgOwner.organizationId }, last_analysis: { id: analysisId } });

    const page2 = await call(t.app, 'GET', '/api/v1/admin/overview?page=2&page_size=1', { token: admin.token });
    expect(page2.body.projects).toMatchObject({ total: 2, page: 2, page_size: 1 });
    expect(page2.body.projects.items).toHaveLength(1);
  });

  it('reads any project, its analyses, an analysis and its results', async () => {
    const project = await call(t.app, 'GET', `/api/v1/admin/projects/${projectA.projectId}`, { token: admin.token });
    expect(project.status).toBe(200);
    expect(project.body).toMatchObject({ id: projectA.projectId, organization: { id: orgOwner.organizationId }, last_analysis: { id: analysisId } });
    expect(project.body.campaigns).toHaveLength(2);
    expect(() => v.parse(AdminProjectDetailSchema, project.body)).not.toThrow();

    const analyses = await call(t.app, 'GET', `/api/v1/admin/projects/${projectA.projectId}/analyses?status=completed`, { token: admin.token });
    expect(analyses.body).toMatchObject({ total: 1, items: [{ id: analysisId, status: 'completed' }] });
    expect(() => v.parse(AnalysisHistoryPageSchema, analyses.body)).not.toThrow();

    const analysis = await call(t.app, 'GET', `/api/v1/admin/analyses/${analysisId}`, { token: admin.token });
    expect(analysis.body).toMatchObject({ analysis: { id: analysisId, status: 'completed' }, project: { id: projectA.projectId }, organization: { id: orgOwner.organizationId } });
    expect(() => v.parse(AdminAnalysisResponseSchema, analysis.body)).not.toThrow();

    const results = await call(t.app, 'GET', `/api/v1/admin/analyses/${analysisId}/results`, { token: admin.token });
    expect(results.status).toBe(200);
    expect(results.body.summary.scores.account.score).toBe(analysis.body.analysis.score);
    expect(() => v.parse(PagedResultsSchema, results.body)).not.toThrow();
    // The paged lists of any organization's analysis, read-only.
    const findings = await call(t.app, 'GET', `/api/v1/admin/analyses/${analysisId}/findings?page_size=500`, { token: admin.token });
    expect(findings.body.total).toBe(results.body.summary.findingsTotal);
    expect((await call(t.app, 'GET', `/api/v1/admin/analyses/${analysisId}/suggestions`, { token: admin.token })).status).toBe(200);
    expect((await call(t.app, 'GET', `/api/v1/admin/analyses/${analysisId}/scores`, { token: admin.token })).status).toBe(200);
    expect((await call(t.app, 'POST', `/api/v1/admin/analyses/${analysisId}/decisions/bulk`, { token: admin.token, body: { filter: {}, decision: 'accepted' } })).status).toBe(404);
    // The summary the admin results screen draws from.
    expect(results.body.analysis.summary).toMatchObject({ account_score: expect.any(Number), by_severity: { high: expect.any(Object) }, campaigns: expect.any(Array), wasted_spend: { per_month: expect.any(Number) } });

    expect((await call(t.app, 'GET', `/api/v1/admin/analyses/${randomUUID()}`, { token: admin.token })).status).toBe(404);
    expect((await call(t.app, 'GET', `/api/v1/admin/projects/${randomUUID()}`, { token: admin.token })).status).toBe(404);
  });
});

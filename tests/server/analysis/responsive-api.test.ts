import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analysis } from '../../../contract/analysis.js';
import { generateAccount } from '../../../bench/analysis.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { projectWithCampaigns } from './helpers.js';

/** Stages in which the engines are computing (the worker thread is busy). */
const ENGINE_STAGES = new Set(['lemmatize', 'semantic', 'scoring', 'rollup']);

/**
 * The engines run in a worker thread, never on the API's event loop: while a large analysis computes,
 * the same process keeps answering requests quickly. Proved by the answers themselves: an answer that
 * says "running, stage scoring" was produced while the engines were in the middle of their work.
 */
describe('the API keeps answering while a large analysis runs', () => {
  let t: TestApp;
  let user: FixtureUser;
  let project: Awaited<ReturnType<typeof projectWithCampaigns>>;

  beforeAll(async () => {
    t = await createTestApp({ jobQueue: { runWorkers: true } });
    user = await createUser(t.app, { balance: 10_000_000 });
    // 20 000 keywords, 4 000 ads, 10 000 search queries: the bench account's shape, a fifth of its size.
    project = await projectWithCampaigns(t.app, user, generateAccount({ campaigns: 2, groupsPerCampaign: 500 }));
  });
  afterAll(async () => t.close());

  it('answers status requests quickly all through the engines’ work', { timeout: 120_000 }, async () => {
    const started = await call(t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, {
      token: user.token,
      body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() },
    });
    expect(started.status).toBe(201);
    const id = started.body.analysis.id as string;

    const answers: { analysis: Analysis; ms: number }[] = [];
    // One request after another, as a polling screen would send them, until the run is over.
    for (;;) {
      const sent = performance.now();
      const answer = await call(t.app, 'GET', `/api/v1/analyses/${id}`, { token: user.token });
      answers.push({ analysis: answer.body.analysis as Analysis, ms: performance.now() - sent });
      expect(answer.status).toBe(200);
      const status = answer.body.analysis.status as Analysis['status'];
      if (status !== 'queued' && status !== 'running') break;
    }

    expect(answers.at(-1)!.analysis).toMatchObject({ status: 'completed', progress: 100 });
    expect(answers.at(-1)!.analysis.summary!.counts.keywords).toBe(20_000);

    const duringEngines = answers.filter(({ analysis }) => analysis.status === 'running' && ENGINE_STAGES.has(analysis.stage ?? ''));
    // Many answers came while the engines computed, through more than one of their stages…
    expect(duringEngines.length).toBeGreaterThanOrEqual(10);
    expect(new Set(duringEngines.map(({ analysis }) => analysis.stage)).size).toBeGreaterThanOrEqual(2);
    // …and quickly: the event loop was never held by the engines (a run on the loop would answer
    // nothing until it ended). Generous bounds: the machine's two cores are shared with other work.
    const times = duringEngines.map(({ ms }) => ms).sort((a, b) => a - b);
    expect(times[Math.floor(times.length / 2)]).toBeLessThan(100);
    expect(times.at(-1)).toBeLessThan(2000);
  });
});

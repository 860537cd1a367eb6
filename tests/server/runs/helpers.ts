import { insertCompletedAudit, projectWithCampaigns } from '../analysis/helpers.js';
import { createTestApp } from '../helpers/app.js';
import { createUser } from '../helpers/fixtures.js';

/**
 * What a paid run of any kind is started from: an app whose queue runs no workers (the test plays the
 * worker), a model configured (an AI plan can be started; no worker ever calls it), a user with 100 000
 * tokens, a project with campaigns, and a completed audit for the AI plans to be written about.
 */
export async function paidRunSetting() {
  const t = await createTestApp({
    jobQueue: { runWorkers: false },
    config: { llm: { apiUrl: 'http://127.0.0.1:9/v1', apiKey: 'test', model: 'test-model', timeoutMs: 10_000 } },
  });
  const user = await createUser(t.app, { balance: 100_000 });
  const project = await projectWithCampaigns(t.app, user);
  const auditId = await insertCompletedAudit(t.app, user, project.projectId, project.campaignIds);
  return { t, user, ...project, auditId };
}

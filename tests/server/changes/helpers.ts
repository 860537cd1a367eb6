import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eventsUntilDone } from '../analysis/helpers.js';
import { call } from '../helpers/app.js';
import { createProject, runDirectImport } from '../projects/helpers.js';

/** Imports the fake account through the API into a project and runs an audit of it; answers the ids. */
export async function auditedApiProject(app: FastifyInstance, token: string, directToken: string) {
  const { job } = await runDirectImport(app, token, '/api/v1/projects/import-preview/direct-api', { token: directToken, client_login: 'teplodom' });
  if (!job || job.status !== 'completed') throw new Error(`import failed: ${JSON.stringify(job)}`);
  const project = await createProject(app, token, { name: 'Теплодом', site_url: 'teplodom.example', draft_id: job.preview!.draft_id });
  const campaignIds = (project.campaigns as { id: string }[]).map((campaign) => campaign.id);
  const started = await call(app, 'POST', `/api/v1/projects/${project.id}/analyses`, { token, body: { campaign_ids: campaignIds, idempotency_key: randomUUID() } });
  if (started.status !== 201) throw new Error(`analysis start: ${started.status} ${JSON.stringify(started.body)}`);
  const analysisId = started.body.analysis.id as string;
  const events = await eventsUntilDone(app, token, analysisId);
  if (events.at(-1)?.analysis.status !== 'completed') throw new Error(`analysis ended ${JSON.stringify(events.at(-1))}`);
  return { projectId: project.id as string, analysisId };
}

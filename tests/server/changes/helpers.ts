import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FakeDirectAccount } from '../../fakes/yandex-direct-fake.js';
import { teplodomAccount } from '../../fakes/yandex-direct-fake.js';
import { eventsUntilDone } from '../analysis/helpers.js';
import { call } from '../helpers/app.js';
import { createProject, runDirectImport } from '../projects/helpers.js';

/**
 * «ТеплоДом» with what an audit turns into suggestions the API can carry: a broad keyword that narrower ones
 * of its group overlap (cross-minus), an ad title over Direct's limit (an ad fix), and search queries for
 * free-of-charge and DIY intents (negatives).
 */
export function applyTestAccount(): FakeDirectAccount {
  const account = teplodomAccount();
  account.keywords.push(
    { Id: 10011, Keyword: 'тёплый пол', AdGroupId: 8001, CampaignId: 701, Bid: 15_000_000, ContextBid: 0, State: 'ON', Status: 'ACCEPTED' },
    { Id: 10012, Keyword: 'тёплый пол электрический купить', AdGroupId: 8001, CampaignId: 701, Bid: 15_000_000, ContextBid: 0, State: 'ON', Status: 'ACCEPTED' },
  );
  const ad = account.ads.find((item) => item.Id === 9002)!;
  (ad.TextAd as Record<string, unknown>).Title = 'Тёплый пол в квартиру и частный дом с монтажом под ключ недорого';
  const rows = account.reportRows.SEARCH_QUERY_PERFORMANCE_REPORT!;
  for (const [query, clicks] of [
    ['тёплый пол скачать схему укладки', 14],
    ['тёплый пол торрент инструкция скачать', 9],
    ['тёплый пол вакансии монтажник', 8],
    ['как сделать тёплый пол самому', 12],
  ] as const) {
    rows.push({ CampaignId: 701, CampaignName: 'Тёплый пол — Поиск', AdGroupName: 'Электрический тёплый пол', Criterion: 'тёплый пол', Query: query, Impressions: 300, Clicks: clicks, Cost: `${clicks * 40}.00`, Conversions: 0 });
  }
  return account;
}

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

import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { draftRowMessages, writeDraftRow } from '../../../server/projects/draft-rows.js';
import { countCampaignData, type CampaignData } from '../../../contract/campaigns.js';
import { isImportJobFinished, type ImportJob } from '../../../contract/projects.js';
import { importJobEvents } from '../../../server/projects/import-jobs.js';
import { call } from '../helpers/app.js';
import type { FixtureUser } from '../helpers/fixtures.js';

export interface UploadFile {
  name: string;
  content: string | Uint8Array;
  type?: string;
}

/** Posts files as multipart/form-data the way a browser's FormData does. */
export async function upload(app: FastifyInstance, url: string, token: string, files: UploadFile[], fields: Record<string, string> = {}) {
  const boundary = `----reklama${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'text/csv'}\r\n\r\n`));
    chunks.push(typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : Buffer.from(file.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return call(app, 'POST', url, { token, body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

/** Creates a project through the API and returns its detail. */
export async function createProject(app: FastifyInstance, token: string, body: Record<string, unknown> = {}) {
  const response = await call(app, 'POST', '/api/v1/projects', { token, body: { name: 'Окна Плюс', site_url: 'okna-plus.example.ru', platform: 'yandex_direct', ...body } });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A small account of the model, written by hand (no importer involved). */
export function sampleCampaignData(prefix = 'Окна'): CampaignData {
  return {
    platform: 'yandex_direct',
    period: { from: '2025-01-01', to: '2025-01-31' },
    campaigns: [
      {
        externalId: '1001',
        name: `${prefix} — поиск`,
        type: 'search',
        negativeKeywords: ['бесплатно', 'своими руками'],
        groups: [
          {
            externalId: '2001',
            name: 'Пластиковые окна',
            negativeKeywords: ['ремонт'],
            keywords: [
              { phrase: 'пластиковые окна', negativeWords: ['б/у'], matchType: 'broad', stats: { impressions: 1000, clicks: 50, cost: 2500, conversions: 2 } },
              { phrase: '"окна пвх"', negativeWords: [], matchType: 'phrase', stats: { impressions: 400, clicks: 10, cost: 700, conversions: 0 } },
            ],
            ads: [{ kind: 'text', headlines: ['Пластиковые окна', 'Скидка 20%'], texts: ['Установка за 1 день'], sitelinks: [], callouts: [] }],
          },
          {
            name: 'Окна на дачу',
            negativeKeywords: [],
            keywords: [{ phrase: 'окна для дачи', negativeWords: [], matchType: 'broad' }],
            ads: [],
          },
        ],
      },
      {
        name: `${prefix} — сети`,
        type: 'network',
        negativeKeywords: [],
        groups: [{ name: 'Ретаргетинг', negativeKeywords: [], keywords: [], ads: [{ kind: 'image', headlines: [], texts: [], sitelinks: [], callouts: [] }] }],
        stats: { impressions: 5000, clicks: 20, cost: 300, conversions: 1 },
      },
    ],
    searchQueries: [{ query: 'пластиковые окна цена', stats: { impressions: 100, clicks: 5, cost: 250, conversions: 1 } }],
  };
}

/** Stores a preview straight in the database, as POST /projects/import-preview would: a draft row and its campaign and query rows. */
export async function insertDraft(app: FastifyInstance, user: FixtureUser, data: CampaignData = sampleCampaignData(), options: { expiresAt?: Date; connection?: unknown } = {}): Promise<string> {
  const row = await app.db
    .insertInto('import_drafts')
    .values({
      organization_id: user.organizationId,
      user_id: user.id,
      source: options.connection ? 'direct_api' : 'files',
      period: JSON.stringify(data.period ?? null),
      counts: JSON.stringify(countCampaignData(data)),
      problems: JSON.stringify([]),
      detected: JSON.stringify([]),
      file_names: JSON.stringify(options.connection ? [] : ['campaigns.csv']),
      connection: JSON.stringify(options.connection ?? null),
      expires_at: options.expiresAt ?? new Date(Date.now() + 3600_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const message of draftRowMessages(data)) await writeDraftRow(app.db, row.id, message);
  return row.id;
}

/**
 * Reads an import job (GET /projects/import-jobs/{id}) until `ready` holds, re-reading after every write
 * the job's worker makes (no polling, no sleeps). By default: until it has ended.
 */
export async function waitForImportJob(app: FastifyInstance, token: string, id: string, ready: (job: ImportJob) => boolean = (job) => isImportJobFinished(job.status)): Promise<ImportJob> {
  for (;;) {
    // Listen before reading, so a change between the read and the wait is not missed.
    const changed = once(importJobEvents, 'changed');
    const response = await call<ImportJob>(app, 'GET', `/api/v1/projects/import-jobs/${id}`, { token });
    if (response.status !== 200) throw new Error(`import job ${id}: ${response.status} ${JSON.stringify(response.body)}`);
    if (ready(response.body)) return response.body;
    await changed;
  }
}

/** Starts a Direct API import at `url` and waits for its job to end; `job` is null when the start was refused. */
export async function runDirectImport(app: FastifyInstance, token: string, url: string, body?: unknown) {
  const started = await call(app, 'POST', url, { token, body });
  if (started.status !== 202) return { started, job: null };
  return { started, job: await waitForImportJob(app, token, started.body.id) };
}

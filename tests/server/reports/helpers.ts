import { randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { extractText, getDocumentProxy } from 'unpdf';
import { expect } from 'vitest';
import type { CampaignData } from '../../../contract/campaigns.js';
import { analysisSampleData, eventsUntilDone, projectWithCampaigns } from '../analysis/helpers.js';
import { call } from '../helpers/app.js';
import type { FixtureUser } from '../helpers/fixtures.js';

/** CRC-32 of PNG chunks (ISO 3309). */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real RGB PNG of one colour, `width`×`height`: what a person would upload as a logo. */
export function pngLogo(width = 64, height = 32, rgb: [number, number, number] = [31, 95, 191]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

export const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

/** The sample account with money lost: a phrase of 60 clicks without a conversion and a job-seekers' query. */
export function reportSampleData(): CampaignData {
  const data = analysisSampleData();
  const keyword = data.campaigns[0]!.groups[0]!.keywords[1]!;
  keyword.stats = { impressions: 2400, clicks: 60, cost: 4800, conversions: 0 };
  data.searchQueries.push({ query: 'окна пвх вакансии монтажник', campaignName: data.campaigns[0]!.name, groupName: 'Пластиковые окна', keyword: '"окна пвх"', stats: { impressions: 90, clicks: 8, cost: 640, conversions: 0 } });
  return data;
}

/** A completed audit of `reportSampleData` (money lost) in the user's organization. */
export async function completedAudit(app: FastifyInstance, user: FixtureUser, data: CampaignData = reportSampleData()): Promise<{ projectId: string; campaignIds: string[]; analysisId: string }> {
  const project = await projectWithCampaigns(app, user, data);
  return { projectId: project.projectId, campaignIds: project.campaignIds, analysisId: await auditAgain(app, user, project) };
}

/** One more completed audit of the project's campaigns. */
export async function auditAgain(app: FastifyInstance, user: FixtureUser, project: { projectId: string; campaignIds: string[] }): Promise<string> {
  const started = await call(app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, { token: user.token, body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() } });
  expect(started.status).toBe(201);
  const analysisId = started.body.analysis.id as string;
  const events = await eventsUntilDone(app, user.token, analysisId);
  expect(events.at(-1)!.analysis.status).toBe('completed');
  return analysisId;
}

/** The text of a PDF as a reader's copy-paste gives it, pages joined, whitespace runs as one space. */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(document, { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

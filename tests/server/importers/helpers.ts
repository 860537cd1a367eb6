import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AdGroup, Campaign, CampaignData } from '../../../contract/campaigns.js';
import { importCampaignFiles, type ImportOptions, type ImportResult } from '../../../server/projects/importers/index.js';

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/imports');

export function fixture(name: string): { name: string; bytes: Uint8Array } {
  return { name, bytes: new Uint8Array(readFileSync(join(fixturesDir, name))) };
}

export function importFixtures(names: string[], options?: ImportOptions): Promise<ImportResult> {
  return importCampaignFiles(names.map(fixture), options);
}

/** Data of a successful import (fails the test with the problems otherwise). */
export function dataOf(result: ImportResult): CampaignData {
  if (!result.data) throw new Error(`import failed: ${JSON.stringify(result.problems, null, 2)}`);
  return result.data;
}

export function campaignNamed(data: CampaignData, name: string): Campaign {
  const campaign = data.campaigns.find((candidate) => candidate.name === name);
  if (!campaign) throw new Error(`no campaign «${name}» in ${data.campaigns.map((c) => c.name).join(', ')}`);
  return campaign;
}

export function groupNamed(campaign: Campaign, name: string): AdGroup {
  const group = campaign.groups.find((candidate) => candidate.name === name);
  if (!group) throw new Error(`no group «${name}» in ${campaign.groups.map((g) => g.name).join(', ')}`);
  return group;
}

export function textFile(name: string, text: string): { name: string; bytes: Uint8Array } {
  return { name, bytes: new TextEncoder().encode(text) };
}

/**
 * The CPU-heavy half of an import, run in a thread of the import pool (`importPool()`, never on the API's
 * event loop; its heap and time limits stop a file too big to parse): read the uploaded files, parse them
 * with the importers (or fetch the account from the Direct API), and hand back a small summary plus the
 * whole CampaignData already serialised to JSON, so the main thread only passes a string on to PostgreSQL.
 */
import { readFile } from 'node:fs/promises';
import type { MessagePort } from 'node:worker_threads';
import { countCampaignData, type AdPlatform, type CampaignData, type ImportCounts, type ImportProblem } from '../../src/contract/campaigns.js';
import { stripControlCharacters } from '../../src/contract/text.js';
import { importCampaignFiles } from './importers/index.js';
import { oversizedUpload } from './upload-size.js';
import { importFromDirectApi } from './yandex-direct/index.js';

/** How a Direct API import is named where a file name would stand (problems, detected). */
export const DIRECT_API_SOURCE_NAME = 'API Яндекс Директа';

export interface ParsedImport {
  /** JSON of the CampaignData; null when the files had errors (nothing is half-imported). */
  dataJson: string | null;
  platform: AdPlatform | null;
  counts: ImportCounts;
  problems: ImportProblem[];
  detected: unknown[];
  campaigns: { name: string; groups: number; ads: number; keywords: number }[];
  period: { from: string; to: string } | null;
  units?: unknown;
  /** The upload went over a limit of importers/limits.ts: the message to answer with. */
  limit?: string;
}

export interface UploadedFile {
  /** The name the user's file had. */
  name: string;
  /** Where the upload was streamed to on disk. */
  path: string;
}

function summarise(data: CampaignData | null, clean = false): Pick<ParsedImport, 'dataJson' | 'platform' | 'counts' | 'campaigns' | 'period'> {
  if (!data) {
    return { dataJson: null, platform: null, counts: { campaigns: 0, groups: 0, ads: 0, keywords: 0, searchQueries: 0 }, campaigns: [], period: null };
  }
  const campaigns = data.campaigns.map((campaign) => {
    const counts = countCampaignData({ campaigns: [campaign], searchQueries: [] });
    return { name: campaign.name, groups: counts.groups, ads: counts.ads, keywords: counts.keywords };
  });
  return { dataJson: clean ? JSON.stringify(data, withoutControlCharacters) : JSON.stringify(data), platform: data.platform, counts: countCampaignData(data), campaigns, period: data.period ?? null };
}

/**
 * An account read from the Direct API is not the user's file to fix: control characters in its texts
 * (PostgreSQL refuses NUL in jsonb) are dropped rather than failing the import.
 */
const withoutControlCharacters = (_key: string, value: unknown) => (typeof value === 'string' ? stripControlCharacters(value) : value);

export async function parseUploadedFiles(input: { files: UploadedFile[]; platform?: AdPlatform }): Promise<ParsedImport> {
  // An upload over the expanded-size budget is refused before it is read into memory (buffers live outside
  // the thread's heap limit). The route checks the same before it asks for a thread; this keeps the task safe alone.
  const oversized = await oversizedUpload(input.files);
  if (oversized) return { ...summarise(null), problems: oversized, detected: [], limit: oversized[0].message };
  const files = [];
  for (const file of input.files) {
    const buffer = await readFile(file.path);
    files.push({ name: file.name, bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) });
  }
  const result = await importCampaignFiles(files, input.platform ? { platform: input.platform } : undefined);
  return { ...summarise(result.data), problems: result.problems, detected: result.detected as unknown[], ...(result.limit ? { limit: result.limit } : {}) };
}

/**
 * Reads a Direct account. With `progress`, every step (stages and points spent, `DirectFetchProgress`)
 * is posted on that port, for the job to show while the account loads.
 */
export async function fetchDirectApiAccount(input: { token: string; clientLogin?: string; sandbox?: boolean; baseUrl?: string }, progress?: MessagePort): Promise<ParsedImport> {
  const { data, units, warnings } = await importFromDirectApi({ ...input, onProgress: progress ? (state) => progress.postMessage(state) : undefined });
  // What could not be read (e.g. the statistics report) is a warning beside the preview, not a failure.
  const problems: ImportProblem[] = warnings.map((message) => ({ file: DIRECT_API_SOURCE_NAME, message, severity: 'warning' }));
  return { ...summarise(data, true), problems, detected: [{ file: DIRECT_API_SOURCE_NAME, kind: 'direct_api', platform: 'yandex_direct', clientLogin: input.clientLogin ?? null }], units };
}

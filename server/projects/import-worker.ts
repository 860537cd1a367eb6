/**
 * The CPU-heavy half of an import, run in a thread of the import pool (`importPool()`, never on the API's
 * event loop; its heap and time limits stop a file too big to parse): read the uploaded files, parse them
 * with the importers (or fetch the account from the Direct API), send the campaigns and search queries
 * piece by piece over `rows` into the draft (draft-rows.ts: never the whole account as one string or one
 * message) and hand back a small summary.
 */
import { readFileSync } from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import { countCampaignData, type AdPlatform, type CampaignData, type ImportCounts, type ImportProblem } from '../../contract/campaigns.js';
import { stripControlCharacters } from '../../contract/text.js';
import { sendDraftRows } from './draft-rows.js';
import { importCampaignFiles, type ImportFile } from './importers/index.js';
import { oversizedUpload } from './upload-size.js';
import { importFromDirectApi } from '../direct/api/index.js';

/** How a Direct API import is named where a file name would stand (problems, detected). */
export const DIRECT_API_SOURCE_NAME = 'API Яндекс Директа';

export interface ParsedImport {
  /** The account could be read and has something to import: its rows were sent into the draft. False when the files had errors (nothing is half-imported). */
  stored: boolean;
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

type Summary = Pick<ParsedImport, 'stored' | 'platform' | 'counts' | 'campaigns' | 'period'>;

function summarise(data: CampaignData | null): Summary {
  if (!data) {
    return { stored: false, platform: null, counts: { campaigns: 0, groups: 0, ads: 0, keywords: 0, searchQueries: 0 }, campaigns: [], period: null };
  }
  const campaigns = data.campaigns.map((campaign) => {
    const counts = countCampaignData({ campaigns: [campaign], searchQueries: [] });
    return { name: campaign.name, groups: counts.groups, ads: counts.ads, keywords: counts.keywords };
  });
  return { stored: false, platform: data.platform, counts: countCampaignData(data), campaigns, period: data.period ?? null };
}

/**
 * The summary of an importable account, after its rows went into the draft over `rows` (when given: a
 * caller that only wants the summary passes none). Nothing is sent for an account with errors or nothing in it.
 */
async function summariseAndSend(data: CampaignData | null, problems: ImportProblem[], rows: MessagePort | undefined, clean = false): Promise<Summary> {
  const summary = summarise(data);
  const importable = data !== null && !problems.some((problem) => problem.severity === 'error') && (summary.counts.campaigns > 0 || summary.counts.searchQueries > 0);
  if (!importable || !rows) return summary;
  await sendDraftRows(data, rows, clean ? withoutControlCharacters : undefined);
  return { ...summary, stored: true };
}

/**
 * An account read from the Direct API is not the user's file to fix: control characters in its texts
 * (PostgreSQL refuses NUL in jsonb) are dropped rather than failing the import.
 */
const withoutControlCharacters = (_key: string, value: unknown) => (typeof value === 'string' ? stripControlCharacters(value) : value);

/**
 * Nothing: a task that only makes a thread load this module (the importers), asked for while the upload is
 * still arriving, so the parse finds a thread ready instead of spending ~0.3 s starting one.
 */
export function loadImporters(): true {
  return true;
}

export async function parseUploadedFiles(input: { files: UploadedFile[]; platform?: AdPlatform }, rows?: MessagePort): Promise<ParsedImport> {
  // An upload over the expanded-size budget is refused before it is read into memory (buffers live outside
  // the thread's heap limit). The route checks the same before it asks for a thread; this keeps the task safe alone.
  const oversized = await oversizedUpload(input.files);
  if (oversized) return { ...summarise(null), problems: oversized, detected: [], limit: oversized[0]!.message };
  // Each file is read from disk when the importer gets to it and dropped after: a 300 MB upload of ten files
  // is never in memory all at once (the expanded-size check above already knows it fits).
  const files: ImportFile[] = input.files.map((file) => ({
    name: file.name,
    get bytes() {
      const buffer = readFileSync(file.path);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    },
  }));
  const result = await importCampaignFiles(files, input.platform ? { platform: input.platform } : undefined);
  if (result.limit) return { ...summarise(null), problems: result.problems, detected: result.detected as unknown[], limit: result.limit };
  return { ...(await summariseAndSend(result.data, result.problems, rows)), problems: result.problems, detected: result.detected as unknown[] };
}

/**
 * Reads a Direct account. With `progress`, every step (stages and points spent, `DirectFetchProgress`)
 * is posted on that port, for the job to show while the account loads; the account goes into the draft over `rows`.
 */
export async function fetchDirectApiAccount(
  input: { token: string; clientLogin?: string; sandbox?: boolean; baseUrl?: string },
  progress?: MessagePort,
  rows?: MessagePort,
): Promise<ParsedImport> {
  const { data, units, warnings } = await importFromDirectApi({ ...input, onProgress: progress ? (state) => progress.postMessage(state) : undefined });
  // What could not be read (e.g. the statistics report) is a warning beside the preview, not a failure.
  const problems: ImportProblem[] = warnings.map((message) => ({ file: DIRECT_API_SOURCE_NAME, message, severity: 'warning' }));
  return { ...(await summariseAndSend(data, problems, rows, true)), problems, detected: [{ file: DIRECT_API_SOURCE_NAME, kind: 'direct_api', platform: 'yandex_direct', clientLogin: input.clientLogin ?? null }], units };
}

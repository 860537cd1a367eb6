/**
 * Export of accepted changes in the shape the platform's bulk upload takes:
 *
 *   const files = await exportAcceptedChanges(data, [...scoring.suggestions, ...semantic.crossMinus, ...semantic.negatives], accepted);
 *
 * Yandex Direct → CSV and XLSX; Google Ads → Google Ads Editor CSV. `notes` lists what a file cannot
 * carry (duplicate keywords to delete by hand). `exportFileOf` gives one file as a writer instead, so
 * the API streams it to the reply row by row (export-file.ts) rather than holding it whole, reading the
 * campaigns one at a time.
 */
import { once } from 'node:events';
import { Writable } from 'node:stream';
import type { Suggestion } from '../../../contract/analysis-results.js';
import type { AdPlatform, Campaign, CampaignData } from '../../../contract/campaigns.js';
import { changedCampaigns, collectChanges, type AcceptedSuggestion, type ChangeSet } from './changes.js';
import { googleCsvPieces } from './google.js';
import { writeYandexXlsx, yandexCsvPieces } from './yandex.js';

export interface ExportFile {
  fileName: string;
  contentType: string;
  content: Buffer;
}

export interface ExportResult {
  changes: ChangeSet;
  files: ExportFile[];
  notes: string[];
}

export type ExportFormat = 'csv' | 'xlsx';

/** One file of an export, not yet written: `write` streams it into `output` (which it does not end). */
export interface ExportFileWriter {
  fileName: string;
  contentType: string;
  write: (output: Writable) => Promise<void>;
}

const csvType = 'text/csv; charset=utf-8';
const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Writes string pieces into `output`, waiting whenever it asks to (a slow reader holds the writer back). */
async function writePieces(pieces: AsyncIterable<string>, output: Writable): Promise<void> {
  // `once` rejects on 'error' and removes both listeners either way.
  for await (const piece of pieces) if (!output.write(piece)) await once(output, 'drain');
}

/** The touched campaigns with their changes applied, in order: each call starts them over (one file each). */
export type ChangedCampaigns = () => Iterable<Campaign> | AsyncIterable<Campaign>;

/**
 * The platform's files for the changed campaigns (only the formats asked for). `source`: the platform of
 * the analysed account, whose notation the texts are in (a Direct account may be exported for Editor).
 */
function fileWriters(platform: AdPlatform, campaigns: ChangedCampaigns, formats: readonly ExportFormat[], source: AdPlatform): ExportFileWriter[] {
  if (platform === 'google_ads') {
    return [{ fileName: 'google-ads-editor-changes.csv', contentType: csvType, write: (output) => writePieces(googleCsvPieces(campaigns(), source), output) }];
  }
  const writers: ExportFileWriter[] = [];
  if (formats.includes('csv')) writers.push({ fileName: 'direct-changes.csv', contentType: csvType, write: (output) => writePieces(yandexCsvPieces(campaigns()), output) });
  if (formats.includes('xlsx')) writers.push({ fileName: 'direct-changes.xlsx', contentType: xlsxType, write: (output) => writeYandexXlsx(campaigns(), output) });
  return writers;
}

/** What the file cannot say, for a person: the duplicate keywords to delete by hand. */
export const removalNotes = (changes: ChangeSet) =>
  changes.keywordRemovals.map((ref) => `Удалите дубль «${ref.label}» (кампания «${ref.campaignName}», группа «${ref.groupName}»): файл загрузки не удаляет фразы.`);

/**
 * The one file of `format` of the platform, written from the changed campaigns as `campaigns` gives them
 * (the export thread reads them one by one from the database): `null` when the platform has no such file.
 */
export function exportFileOf(platform: AdPlatform, format: ExportFormat, campaigns: ChangedCampaigns, source: AdPlatform = platform): ExportFileWriter | null {
  return fileWriters(platform, campaigns, [format], source).find((candidate) => candidate.fileName.endsWith(`.${format}`)) ?? null;
}

/**
 * Every file written whole into memory (tests, small exports). `formats`: only these (default: every file
 * of the platform); `platform`: the platform to write for (default: the account's own).
 */
export async function exportAcceptedChanges(
  data: CampaignData,
  suggestions: Suggestion[],
  accepted: AcceptedSuggestion[],
  formats: readonly ExportFormat[] = ['csv', 'xlsx'],
  platform: AdPlatform = data.platform,
): Promise<ExportResult> {
  const changes = collectChanges(suggestions, accepted);
  const notes = removalNotes(changes);
  const files: ExportFile[] = [];
  if (changes.campaignIndexes.length === 0) return { changes, files, notes };
  for (const writer of fileWriters(platform, () => changedCampaigns(data, changes), formats, data.platform)) {
    const pieces: Buffer[] = [];
    await writer.write(
      new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          pieces.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, 'utf8'));
          done();
        },
      }),
    );
    files.push({ fileName: writer.fileName, contentType: writer.contentType, content: Buffer.concat(pieces) });
  }
  return { changes, files, notes };
}

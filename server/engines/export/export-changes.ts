/**
 * Export of accepted changes in the shape the platform's bulk upload takes:
 *
 *   const files = await exportAcceptedChanges(data, [...scoring.suggestions, ...semantic.crossMinus, ...semantic.negatives], accepted);
 *
 * Yandex Direct → CSV (any number of campaigns, for Commander) and XLSX: one campaign per file, because
 * the Direct web interface («Загрузка из XLS/XLSX») takes one campaign a file; several campaigns come as
 * a ZIP of one XLSX each. Google Ads → Google Ads Editor CSV. `notes` lists what a file cannot carry
 * (duplicate keywords to delete by hand, ads that make no RSA Editor accepts). `exportFileOf` gives one
 * file as a writer instead, so the API streams it to the reply row by row (export-file.ts) rather than
 * holding it whole, reading the campaigns one at a time.
 */
import { once } from 'node:events';
import { Writable } from 'node:stream';
import type { Suggestion } from '../../../contract/analysis-results.js';
import type { AdPlatform, Campaign, CampaignData } from '../../../contract/campaigns.js';
import { changedCampaigns, collectChanges, type AcceptedSuggestion, type ChangeSet } from './changes.js';
import { googleCsvPieces, skippedEditorAds } from './google.js';
import { writeYandexXlsx, yandexCsvPieces } from './yandex.js';
import { writeZip, type ZipEntry } from './zip.js';

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
  format: ExportFormat;
  fileName: string;
  contentType: string;
  write: (output: Writable) => Promise<void>;
}

const csvType = 'text/csv; charset=utf-8';
const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const zipType = 'application/zip';

/** Writes string pieces into `output`, waiting whenever it asks to (a slow reader holds the writer back). */
async function writePieces(pieces: AsyncIterable<string>, output: Writable): Promise<void> {
  // `once` rejects on 'error' and removes both listeners either way.
  for await (const piece of pieces) if (!output.write(piece)) await once(output, 'drain');
}

/** The touched campaigns with their changes applied, in order: each call starts them over (one file each). */
export type ChangedCampaigns = () => Iterable<Campaign> | AsyncIterable<Campaign>;

/** A campaign's XLSX in the ZIP: numbered in the export's order, the name without what a file system refuses. */
function campaignXlsxName(position: number, campaignName: string): string {
  const safe = campaignName
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return `${String(position).padStart(2, '0')} ${safe || 'Кампания'}.xlsx`;
}

/** One XLSX per campaign, each a ZIP entry written when its campaign comes. */
async function* campaignXlsxEntries(campaigns: Iterable<Campaign> | AsyncIterable<Campaign>): AsyncGenerator<ZipEntry> {
  let position = 0;
  for await (const campaign of campaigns) {
    position += 1;
    yield { name: campaignXlsxName(position, campaign.name), write: (output) => writeYandexXlsx([campaign], output) };
  }
}

/** The Direct XLSX: the file itself for one campaign, a ZIP of one file per campaign for several. */
function directXlsxWriter(campaigns: ChangedCampaigns, campaignCount: number): ExportFileWriter {
  if (campaignCount <= 1) return { format: 'xlsx', fileName: 'direct-changes.xlsx', contentType: xlsxType, write: (output) => writeYandexXlsx(campaigns(), output) };
  return { format: 'xlsx', fileName: 'direct-changes-xlsx.zip', contentType: zipType, write: (output) => writeZip(campaignXlsxEntries(campaigns()), output) };
}

/**
 * The platform's files for the changed campaigns (only the formats asked for). `source`: the platform of
 * the analysed account, whose notation the texts are in (a Direct account may be exported for Editor);
 * `campaignCount`: how many campaigns `campaigns` gives (the Direct XLSX is one file per campaign).
 */
function fileWriters(platform: AdPlatform, campaigns: ChangedCampaigns, formats: readonly ExportFormat[], source: AdPlatform, campaignCount: number): ExportFileWriter[] {
  if (platform === 'google_ads') {
    return [{ format: 'csv', fileName: 'google-ads-editor-changes.csv', contentType: csvType, write: (output) => writePieces(googleCsvPieces(campaigns(), source), output) }];
  }
  const writers: ExportFileWriter[] = [];
  if (formats.includes('csv')) writers.push({ format: 'csv', fileName: 'direct-changes.csv', contentType: csvType, write: (output) => writePieces(yandexCsvPieces(campaigns()), output) });
  if (formats.includes('xlsx')) writers.push(directXlsxWriter(campaigns, campaignCount));
  return writers;
}

/** Duplicate removals named one by one in the notes; more are counted. */
const REMOVALS_NAMED = 5;

/** What the file cannot say, for a person: the duplicate keywords to delete by hand. */
export function removalNotes(changes: ChangeSet): string[] {
  const removals = changes.keywordRemovals;
  const named = removals.slice(0, REMOVALS_NAMED).map((ref) => `Удалите дубль «${ref.label}» (кампания «${ref.campaignName}», группа «${ref.groupName}»): файл загрузки не удаляет фразы.`);
  if (removals.length > REMOVALS_NAMED) named.push(`И ещё дублей: ${removals.length - REMOVALS_NAMED} — их тоже удалите вручную (список — в предложениях аудита).`);
  return named;
}

/**
 * Everything a file of `platform` leaves for a person, known before the file is written (the API sends it
 * in a header, ahead of the file): the duplicates to delete by hand and, for Editor, the ads that make no
 * valid RSA (a pass over the campaigns of its own).
 */
export async function exportNotes(platform: AdPlatform, campaigns: ChangedCampaigns, source: AdPlatform, changes: ChangeSet): Promise<string[]> {
  const notes = removalNotes(changes);
  if (platform === 'google_ads') notes.push(...(await skippedEditorAds(campaigns(), source)).notes());
  return notes;
}

/**
 * The one file of `format` of the platform, written from the changed campaigns as `campaigns` gives them
 * (the export thread reads them one by one from the database): `null` when the platform has no such file.
 * `campaignCount`: how many campaigns `campaigns` gives.
 */
export function exportFileOf(platform: AdPlatform, format: ExportFormat, campaigns: ChangedCampaigns, source: AdPlatform = platform, campaignCount = 1): ExportFileWriter | null {
  return fileWriters(platform, campaigns, [format], source, campaignCount).find((candidate) => candidate.format === format) ?? null;
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
  const files: ExportFile[] = [];
  if (changes.campaignIndexes.length === 0) return { changes, files, notes: removalNotes(changes) };
  const campaigns = () => changedCampaigns(data, changes);
  const notes = await exportNotes(platform, campaigns, data.platform, changes);
  for (const writer of fileWriters(platform, campaigns, formats, data.platform, changes.campaignIndexes.length)) {
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

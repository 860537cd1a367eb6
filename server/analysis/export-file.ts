/**
 * Export of the accepted changes, run in a worker thread (`runInWorker`): it parses the analysed
 * campaigns and the accepted suggestions (from the rows) and writes the platform's bulk-upload file with the export engine
 * (`export/`), none of which belongs on the API's event loop for a big account.
 */
import type { Suggestion } from '../../src/contract/analysis-results.js';
import type { AdPlatform } from '../../src/contract/campaigns.js';
import { exportAcceptedChanges } from './export/export-changes.js';
import { campaignDataOf } from './run-audit.js';

export interface ExportFileInput {
  platform: AdPlatform;
  /** JSON texts of the analysed campaigns, in the analysed order. */
  campaigns: string[];
  /** JSON texts of the accepted suggestions (read from the rows). */
  suggestions: string[];
  /** Accepted ids with the edited values of ad-field suggestions. */
  accepted: { id: string; value?: string }[];
  format: 'csv' | 'xlsx';
}

export type ExportFileOutcome =
  | { kind: 'file'; fileName: string; contentType: string; content: Uint8Array; notes: string[] }
  /** Nothing accepted applies to these campaigns. */
  | { kind: 'empty' }
  /** The platform has no file in this format. */
  | { kind: 'format_unavailable' };

export async function buildExportFile(input: ExportFileInput): Promise<ExportFileOutcome> {
  const data = campaignDataOf({ platform: input.platform, period: null, campaigns: input.campaigns, searchQueries: [] });
  const suggestions = input.suggestions.map((text) => JSON.parse(text) as Suggestion);
  // Only the asked format is written: an XLSX of a big account takes far longer than its CSV.
  const exported = await exportAcceptedChanges(data, suggestions, input.accepted, [input.format]);
  if (exported.files.length === 0) return { kind: 'empty' };
  const file = exported.files.find((candidate) => candidate.fileName.endsWith(`.${input.format}`));
  if (!file) return { kind: 'format_unavailable' };
  return { kind: 'file', fileName: file.fileName, contentType: file.contentType, content: new Uint8Array(file.content), notes: exported.notes };
}

/**
 * Export of the accepted changes, run in a thread of the export pool (`exportPool()`): it parses the analysed
 * campaigns and the stored result and writes the platform's bulk-upload file with the export engine
 * (`export/`), none of which belongs on the API's event loop for a big account.
 */
import type { AuditResult } from '../../src/contract/analysis.js';
import type { AdPlatform } from '../../src/contract/campaigns.js';
import { exportAcceptedChanges } from './export/export-changes.js';
import { campaignDataOf, suggestionsOf } from './run-audit.js';

export interface ExportFileInput {
  platform: AdPlatform;
  /** JSON texts of the analysed campaigns, in the analysed order. */
  campaigns: string[];
  resultJson: string;
  accepted: string[];
  /** Edited values of accepted ad-field suggestions. */
  values: Record<string, string>;
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
  const result = JSON.parse(input.resultJson) as AuditResult;
  const accepted = input.accepted.map((id) => (input.values[id] !== undefined ? { id, value: input.values[id] } : { id }));
  const exported = await exportAcceptedChanges(data, suggestionsOf(result), accepted);
  if (exported.files.length === 0) return { kind: 'empty' };
  const file = exported.files.find((candidate) => candidate.fileName.endsWith(`.${input.format}`));
  if (!file) return { kind: 'format_unavailable' };
  return { kind: 'file', fileName: file.fileName, contentType: file.contentType, content: new Uint8Array(file.content), notes: exported.notes };
}

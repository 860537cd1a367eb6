/**
 * Export of accepted changes in the shape the platform's bulk upload takes:
 *
 *   const files = await exportAcceptedChanges(data, [...scoring.suggestions, ...semantic.crossMinus, ...semantic.negatives], accepted);
 *
 * Yandex Direct → CSV and XLSX; Google Ads → Google Ads Editor CSV. `notes` lists what a file cannot
 * carry (duplicate keywords to delete by hand).
 */
import type { Suggestion } from '../../../src/contract/analysis-results.js';
import type { CampaignData } from '../../../src/contract/campaigns.js';
import { collectChanges, type AcceptedSuggestion, type ChangeSet } from './changes.js';
import { exportGoogleCsv } from './google.js';
import { exportYandexCsv, exportYandexXlsx } from './yandex.js';

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

/** `formats`: only the files of these formats are written (default: every file of the platform). */
export async function exportAcceptedChanges(
  data: CampaignData,
  suggestions: Suggestion[],
  accepted: AcceptedSuggestion[],
  formats: readonly ('csv' | 'xlsx')[] = ['csv', 'xlsx'],
): Promise<ExportResult> {
  const changes = collectChanges(suggestions, accepted);
  const notes = changes.keywordRemovals.map((ref) => `Удалите дубль «${ref.label}» (кампания «${ref.campaignName}», группа «${ref.groupName}»): файл загрузки не удаляет фразы.`);
  const files: ExportFile[] = [];
  if (changes.campaignIndexes.length === 0) return { changes, files, notes };
  if (data.platform === 'google_ads') {
    files.push({ fileName: 'google-ads-editor-changes.csv', contentType: 'text/csv; charset=utf-8', content: Buffer.from(exportGoogleCsv(data, changes), 'utf8') });
  } else {
    if (formats.includes('csv')) files.push({ fileName: 'direct-changes.csv', contentType: 'text/csv; charset=utf-8', content: Buffer.from(exportYandexCsv(data, changes), 'utf8') });
    if (formats.includes('xlsx')) {
      files.push({ fileName: 'direct-changes.xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content: await exportYandexXlsx(data, changes) });
    }
  }
  return { changes, files, notes };
}

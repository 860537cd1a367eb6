/**
 * Limits of one upload, checked while the files are read, so a hostile file is refused in seconds with a
 * Russian message instead of taking the server's memory (README «Безопасность и эксплуатация»):
 *
 * - expanded size: the bytes the files become once unpacked (an XLSX's entries as its zip central directory
 *   declares them, checked again while inflating; a CSV's own bytes), ≤ 400 MB for the whole upload (a
 *   1 000 000-keyword account with 500 000 search queries is ~290 MB of CSV in ten files). A zip bomb is a
 *   few hundred KB that declares (or inflates to) hundreds of MB: refused before anything is inflated, or
 *   at the first byte past what it declared.
 * - rows: ≤ 2 000 000 lines over all files of the upload (that account is 1.5 million; a 50 MB file of
 *   empty lines is 50 million of them).
 * - cell length: ≤ 32 767 characters, Excel's own limit for a cell, so no real export has longer ones.
 */
import type { ImportProblem } from '../../../contract/campaigns.js';
import { columnLetter, format, importerMessages } from './messages.js';

export const importLimits = {
  maxExpandedBytes: 400 * 1024 * 1024,
  maxRows: 2_000_000,
  maxCellChars: 32_767,
  /** Entries of one XLSX (a workbook has a few dozen; millions of tiny entries are a bomb of their own). */
  maxZipEntries: 10_000,
};

/** An upload over a limit: the import stops at once and the message (with row and column when known) goes to the user. */
export class ImportLimitError extends Error {
  constructor(
    message: string,
    readonly row?: number,
    readonly column?: string,
  ) {
    super(message);
    this.name = 'ImportLimitError';
  }
}

export const megabytes = (bytes: number) => `${Math.ceil(bytes / (1024 * 1024)).toLocaleString('ru-RU')} МБ`;
const number = (value: number) => value.toLocaleString('ru-RU');

/** What one upload has spent of its limits so far; one per `importCampaignFiles` call. */
export class ImportBudget {
  rows = 0;

  constructor(readonly limits = importLimits) {}

  /** Called for every line read (blank ones too: they cost time as well). */
  countRow(row: number): void {
    this.rows += 1;
    if (this.rows > this.limits.maxRows) throw new ImportLimitError(format(importerMessages.tooManyRows, { max: number(this.limits.maxRows) }), row);
  }

  checkCell(length: number, row: number, columnIndex: number): void {
    if (length > this.limits.maxCellChars) {
      const column = columnLetter(columnIndex);
      throw new ImportLimitError(format(importerMessages.cellTooLong, { row, column, max: number(this.limits.maxCellChars) }), row, column);
    }
  }

  /** Problems for files whose expanded sizes add up to more than the limit (naming the biggest ones); null when they fit. */
  expandedSizeProblems(sizes: { name: string; size: number }[]): ImportProblem[] | null {
    const total = sizes.reduce((sum, file) => sum + file.size, 0);
    if (total <= this.limits.maxExpandedBytes) return null;
    const message = format(importerMessages.uploadTooLarge, { size: megabytes(total), max: megabytes(this.limits.maxExpandedBytes) });
    // The files that make up most of it, so the user knows which ones to split.
    const largest = [...sizes].sort((a, b) => b.size - a.size).filter((file, index) => index === 0 || file.size >= total / 10);
    return largest.map((file) => ({ file: file.name, message, severity: 'error' as const }));
  }
}

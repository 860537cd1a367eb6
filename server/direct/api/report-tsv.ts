/**
 * Reading the TSV a Reports request returns (UTF-8). By default Yandex writes a title line
 * (`"Имя отчёта (2024-05-01 - 2024-05-31)"`), the column header, the rows and a summary line
 * (`Total rows: N`); we ask it to skip the title and summary (`skipReportHeader`,
 * `skipReportSummary`) but still tolerate them, since proxies and older accounts differ.
 * A missing value is written `--`.
 */

export interface ReportTable {
  columns: string[];
  rows: Record<string, string>[];
}

const SUMMARY_LINE = /^(total rows|всего строк)\s*:/i;

export function parseReportTsv(text: string, expectedColumns: readonly string[] = []): ReportTable {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();

  const headerIndex = findHeaderLine(lines, expectedColumns);
  if (headerIndex < 0) return { columns: [...expectedColumns], rows: [] };
  const columns = lines[headerIndex]!.split('\t').map((c) => c.trim());

  const rows: Record<string, string>[] = [];
  for (const line of lines.slice(headerIndex + 1)) {
    if (line.trim() === '' || SUMMARY_LINE.test(line.trim())) continue;
    const cells = line.split('\t');
    // A line without tabs in a multi-column report is a summary/notice, not data.
    if (columns.length > 1 && cells.length === 1) continue;
    const row: Record<string, string> = {};
    columns.forEach((column, i) => (row[column] = cells[i] ?? ''));
    rows.push(row);
  }
  return { columns, rows };
}

function findHeaderLine(lines: string[], expected: readonly string[]): number {
  if (expected.length > 0) {
    const wanted = new Set(expected);
    const exact = lines.findIndex((line) => {
      const cells = line.split('\t').map((c) => c.trim());
      return cells.length === wanted.size && cells.every((c) => wanted.has(c));
    });
    if (exact >= 0) return exact;
  }
  const withTabs = lines.findIndex((line) => line.includes('\t'));
  if (withTabs >= 0) return withTabs;
  return lines.length > 0 ? 0 : -1;
}

/** A report number: `--` and empty mean none (0); a decimal comma is accepted. */
export function reportNumber(value: string | undefined): number {
  if (value === undefined) return 0;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === '--') return 0;
  const parsed = Number(trimmed.replace(/\s/g, '').replace(',', '.'));
  return Number.isFinite(parsed) ? parsed : 0;
}

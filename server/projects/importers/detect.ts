/**
 * Finds a table's header row (wherever it is among the first rows) and tells which kind of file it is by
 * the titles on that row. Kinds are tried in an order where the more specific shapes come first:
 * search-query reports, our template, Editor exports with Editor-only titles, statistics reports, Editor-like
 * bulk sheets, the Direct export.
 */
import type { AdPlatform } from '../../../contract/campaigns.js';
import { mapColumns, type ColumnMap, type Dictionary } from './columns.js';
import { googleAdsEditorColumns, isGoogleAdsEditorHeader, missingGoogleAdsEditorColumns } from './google-ads-editor.js';
import { isReportHeader, missingReportColumns, reportColumns, reportPlatform } from './reports.js';
import { isTemplateHeader, missingTemplateColumns, templateDictionary } from './template.js';
import type { ImportFileKind, Row, Table } from './types.js';
import { isYandexDirectHeader, missingYandexDirectColumns, yandexDirectColumns } from './yandex-direct.js';

/** How far down a header may sit (the Direct XLSX campaign block takes a dozen rows). */
const HEADER_SCAN_ROWS = 60;

type Shape = 'template' | 'report' | 'google_ads_editor' | 'yandex_direct';

interface Candidate {
  shape: Shape;
  dictionary: Dictionary<string>;
  test: (columns: ColumnMap<string>) => boolean;
  missing: (columns: ColumnMap<string>) => string[];
}

const CANDIDATES: Candidate[] = [
  // A search-query column is in no other shape; the template shares «Кампания» and «Тип соответствия»
  // with Google's Russian search terms report, so the query report goes first.
  {
    shape: 'report',
    dictionary: reportColumns,
    test: (columns) => columns.has('query') && isReportHeader(columns),
    missing: (columns) => missingReportColumns(columns),
  },
  { shape: 'template', dictionary: templateDictionary, test: isTemplateHeader, missing: missingTemplateColumns },
  {
    shape: 'google_ads_editor',
    dictionary: googleAdsEditorColumns,
    test: (columns) => isGoogleAdsEditorHeader(columns, 'strong'),
    missing: missingGoogleAdsEditorColumns,
  },
  { shape: 'report', dictionary: reportColumns, test: (columns) => isReportHeader(columns), missing: (columns) => missingReportColumns(columns) },
  {
    shape: 'google_ads_editor',
    dictionary: googleAdsEditorColumns,
    test: (columns) => isGoogleAdsEditorHeader(columns, 'weak'),
    missing: missingGoogleAdsEditorColumns,
  },
  {
    shape: 'yandex_direct',
    dictionary: yandexDirectColumns,
    test: (columns) => isYandexDirectHeader(columns),
    missing: (columns) => missingYandexDirectColumns(columns),
  },
];

export interface DetectedTable {
  kind: ImportFileKind;
  platform: AdPlatform | null;
  headerRow: number;
  columns: ColumnMap<string>;
  /** Required columns the header lacks (the file is then unusable). */
  missing: string[];
  preamble: Row[];
  rows: Iterable<Row>;
}

/**
 * The row a person would take for the header of an unrecognised table: the first of the widest rows
 * among the first ones (a title line above it has one cell).
 */
export function likelyHeader(head: Row[]): string[] {
  let best: string[] = [];
  for (const row of head) {
    const cells = row.cells.map((cell) => cell.trim()).filter(Boolean);
    if (cells.length > best.length) best = cells;
  }
  return best;
}

/**
 * `projectPlatform` settles the platform of a Russian-titled report, which both platforms can produce.
 * `onUnrecognised` gets the first rows when no header is found (to say which columns the file has).
 */
export function detectTable(table: Table, projectPlatform?: AdPlatform, onUnrecognised?: (head: Row[]) => void): DetectedTable | null {
  const iterator = table.rows[Symbol.iterator]();
  const head: Row[] = [];
  while (head.length < HEADER_SCAN_ROWS) {
    const next = iterator.next();
    if (next.done) break;
    head.push(next.value);
  }
  for (let index = 0; index < head.length; index++) {
    const header = head[index];
    for (const candidate of CANDIDATES) {
      const columns = mapColumns(header.cells, candidate.dictionary);
      if (!candidate.test(columns)) continue;
      const { kind, platform } = kindOf(candidate.shape, columns, projectPlatform);
      return {
        kind,
        platform,
        headerRow: header.number,
        columns,
        missing: candidate.missing(columns),
        preamble: head.slice(0, index),
        rows: concat(head.slice(index + 1), iterator),
      };
    }
  }
  onUnrecognised?.(head);
  return null;
}

function kindOf(shape: Shape, columns: ColumnMap<string>, projectPlatform?: AdPlatform): { kind: ImportFileKind; platform: AdPlatform | null } {
  switch (shape) {
    case 'template':
      return { kind: 'template', platform: null };
    case 'google_ads_editor':
      return { kind: 'google_ads_editor', platform: 'google_ads' };
    case 'yandex_direct':
      return { kind: 'yandex_direct', platform: 'yandex_direct' };
    case 'report': {
      const platform = reportPlatform(columns.titles, projectPlatform);
      const queries = columns.has('query');
      if (platform === 'google_ads') return { kind: queries ? 'google_search_terms' : 'google_stats', platform };
      return { kind: queries ? 'yandex_search_queries' : 'yandex_stats', platform };
    }
  }
}

function* concat(first: Row[], rest: Iterator<Row>): Generator<Row> {
  yield* first;
  for (;;) {
    const next = rest.next();
    if (next.done) return;
    yield next.value;
  }
}

/** Types shared by the importer modules (not part of the public contract, except through index.ts). */
import type { AdPlatform } from '../../../contract/campaigns.js';

export type TextEncodingName = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1251';
export type Delimiter = '\t' | ';' | ',';

export type ImportFileKind =
  | 'yandex_direct'
  | 'google_ads_editor'
  | 'template'
  | 'yandex_stats'
  | 'yandex_search_queries'
  | 'google_stats'
  | 'google_search_terms';

/** What the importer found out about one file (one entry per recognised sheet of an XLSX). */
export interface DetectedFile {
  file: string;
  kind: ImportFileKind | 'unknown';
  encoding: TextEncodingName | 'xlsx';
  delimiter?: Delimiter;
  sheet?: string;
  /** 1-based row of the header line that was recognised. */
  headerRow?: number;
  platform?: AdPlatform;
  /** A statistics or search-query report: the rows of it that were read (totals and blank rows aside). */
  statsRows?: number;
}

/** One non-blank row of a table; `number` is the 1-based row a spreadsheet would show. */
export interface Row {
  number: number;
  cells: string[];
}

/** A table read from a file: a CSV file or one worksheet of an XLSX; rows may be produced lazily. */
export interface Table {
  sheet?: string;
  rows: Iterable<Row>;
}

/** How numbers are written: Russian (`1 234,56`) or English (`1,234.56`) reports. */
export type NumberLocale = 'ru' | 'en';

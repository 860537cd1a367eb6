/**
 * Campaign import from uploaded files: pure (bytes in, data out; no HTTP, no database).
 *
 * Each file is decoded (XLSX through exceljs; CSV/TSV with its encoding and delimiter detected), each table's
 * header row is found and its kind recognised: a Yandex Direct export, a Google Ads Editor export, our CSV
 * template, a statistics report or a search-query report of either platform. Structure files are merged
 * into one campaign tree, then statistics are put on its keywords and ads and search queries are collected.
 *
 * Nothing is half-imported: when any file has an error-severity problem (unreadable, unrecognised, a
 * required column missing, no data), `data` is null and `problems` say why. Rows that can be skipped
 * produce warnings with file, 1-based row and column, and the import goes on.
 *
 * An upload over a limit of `limits.ts` (expanded size, rows, cell length) stops at once: the expanded
 * sizes of all files are checked before any file is parsed, the rest while reading, and the first limit
 * hit ends the whole import with that file's error.
 */
import {
  countCampaignData,
  type AdPlatform,
  type Campaign,
  type CampaignData,
  type ImportCounts,
  type ImportProblem,
} from '../../../contract/campaigns.js';
import { adPlatformLabels } from '../../../contract/campaigns.js';
import { StructureBuilder } from './builder.js';
import type { ColumnMap } from './columns.js';
import { ControlCharacterCheck } from './control-characters.js';
import { detectDelimiter, parseCsvRows } from './csv.js';
import { detectTable, likelyHeader, type DetectedTable } from './detect.js';
import { importGoogleAdsEditor } from './google-ads-editor.js';
import { buildFromStats, mergeStats } from './merge-stats.js';
import { ImportBudget, ImportLimitError } from './limits.js';
import { format, importerMessages } from './messages.js';
import { ProblemLog } from './problems.js';
import { importReport, ReportSink, type ReportField } from './reports.js';
import type { SheetContext } from './sheet.js';
import { importTemplate } from './template.js';
import { decodeText, detectEncoding, looksBinary } from './text.js';
import type { DetectedFile, Table } from './types.js';
import { declaredXlsxSize, isOldXls, isZip, readXlsx } from './xlsx.js';
import { importYandexDirect, type YandexDirectField } from './yandex-direct.js';

export type { DetectedFile } from './types.js';
export { ImportBudget, importLimits } from './limits.js';

export interface ImportFile {
  name: string;
  /** The file's content; read once per use, so it may be a getter that loads the file from disk when its turn comes. */
  readonly bytes: Uint8Array;
}

export interface ImportOptions {
  /** The project's platform: used for the template's notation and to warn about another platform's files. */
  platform?: AdPlatform;
  /** Limits of the upload (tests lower them). */
  budget?: ImportBudget;
}

export interface ImportResult {
  /** null when any file has an error: nothing is half-imported. */
  data: CampaignData | null;
  /** Set when the upload went over a limit of limits.ts: the message to answer with. */
  limit?: string;
  problems: ImportProblem[];
  counts: ImportCounts;
  detected: DetectedFile[];
}

interface ReadTables {
  tables: Table[];
  encoding: DetectedFile['encoding'];
  delimiter?: DetectedFile['delimiter'];
}

const failedResult = (problems: ImportProblem[], detected: DetectedFile[]): ImportResult => ({
  data: null,
  problems,
  counts: { campaigns: 0, groups: 0, ads: 0, keywords: 0, searchQueries: 0 },
  detected,
});

/** What a limit hit needs to turn into the failed import: the problems so far and the file being read. */
interface ReadingState {
  detected: DetectedFile[];
  logs: Map<string, ProblemLog>;
  current?: ProblemLog;
}

export async function importCampaignFiles(files: ImportFile[], options: ImportOptions = {}): Promise<ImportResult> {
  const budget = options.budget ?? new ImportBudget();
  const oversized = await checkExpandedSizes(files, budget);
  if (oversized) return { ...failedResult(oversized, []), limit: oversized[0].message };
  const state: ReadingState = { detected: [], logs: new Map() };
  try {
    return await importWithinBudget(files, options, budget, state);
  } catch (error) {
    if (!(error instanceof ImportLimitError) || !state.current) throw error;
    state.current.error(error.message, error.row, error.column);
    return { ...failedResult([...state.logs.values()].flatMap((log) => log.finish()), state.detected), limit: error.message };
  }
}

async function importWithinBudget(files: ImportFile[], options: ImportOptions, budget: ImportBudget, state: ReadingState): Promise<ImportResult> {
  const { detected, logs } = state;
  const gathered = new Gathered();
  for (const file of files) await readFile(file, options, budget, state, gathered);

  const templatePlatform = options.platform ?? gathered.firstStructurePlatform ?? 'yandex_direct';
  for (const context of gathered.templateTables) {
    state.current = context.log;
    gathered.firstStructurePlatform ??= templatePlatform;
    importTemplate(context, gathered.builderFor(templatePlatform), templatePlatform);
  }

  const platform = options.platform ?? gathered.firstStructurePlatform ?? gathered.firstReportPlatform ?? 'yandex_direct';
  const campaigns = campaignsWithStats(gathered, platform, logs);
  const { sink } = gathered;

  state.current = undefined;
  const problems = [...logs.values()].flatMap((log) => log.finish());
  const hasErrors = problems.some((problem) => problem.severity === 'error');
  if (hasErrors) {
    return { data: null, problems, counts: { campaigns: 0, groups: 0, ads: 0, keywords: 0, searchQueries: 0 }, detected };
  }
  const data: CampaignData = { platform, campaigns, searchQueries: sink.searchQueries };
  if (sink.from && sink.to) data.period = { from: sink.from, to: sink.to };
  const currency = campaigns.find((campaign) => campaign.currency)?.currency ?? sink.currency;
  if (currency) data.currency = currency;
  return { data, problems, counts: countCampaignData(data), detected };
}

/** What the files add up to while they are read: structures by platform, report rows, template tables. */
class Gathered {
  readonly builders = new Map<AdPlatform, StructureBuilder>();
  readonly sink = new ReportSink();
  firstStructurePlatform: AdPlatform | undefined;
  firstReportPlatform: AdPlatform | undefined;
  /** Read once every file is: the template has no platform of its own. */
  readonly templateTables: SheetContext<string>[] = [];
  /** The titles each report file was understood by, for the error when none of its rows matched. */
  readonly reportColumnsByFile = new Map<string, string[]>();

  builderFor(platform: AdPlatform): StructureBuilder {
    let builder = this.builders.get(platform);
    if (!builder) this.builders.set(platform, (builder = new StructureBuilder(platform)));
    return builder;
  }
}

/** One file: each of its tables (sheets) recognised and imported, or the file said to be unrecognised. */
async function readFile(file: ImportFile, options: ImportOptions, budget: ImportBudget, state: ReadingState, gathered: Gathered): Promise<void> {
  const { detected, logs } = state;
  const name = uniqueName(file.name, logs);
  const log = new ProblemLog(name);
  logs.set(name, log);
  state.current = log;
  // Read once per file: `bytes` may be a getter that loads the file only now (import-worker.ts).
  const bytes = file.bytes;
  const read = await readTables(bytes, log, budget);
  if (!read) {
    detected.push({ file: name, kind: 'unknown', encoding: isZip(bytes) || isOldXls(bytes) ? 'xlsx' : detectEncoding(bytes) });
    return;
  }
  let recognised = 0;
  const unrecognisedSheets: string[] = [];
  let unrecognisedColumns: string[] = [];
  const controlCharacters = new ControlCharacterCheck(log);
  for (const table of read.tables) {
    const found = detectTable(table, options.platform, (head) => {
      if (unrecognisedColumns.length === 0) unrecognisedColumns = likelyHeader(head);
    });
    if (!found) {
      if (table.sheet !== undefined) unrecognisedSheets.push(table.sheet);
      continue;
    }
    recognised += 1;
    const entry: DetectedFile = { file: name, kind: found.kind, encoding: read.encoding, headerRow: found.headerRow };
    if (read.delimiter) entry.delimiter = read.delimiter;
    if (table.sheet !== undefined) entry.sheet = table.sheet;
    if (found.platform) entry.platform = found.platform;
    detected.push(entry);
    importTable(found, { name, sheet: table.sheet, entry, log, controlCharacters }, options, gathered);
  }
  if (recognised === 0) log.error(unrecognisedMessage(name, unrecognisedColumns));
  else for (const sheet of unrecognisedSheets) log.warn(format(importerMessages.sheetSkipped, { sheet }));
  if (recognised === 0) detected.push({ file: name, kind: 'unknown', encoding: read.encoding, ...(read.delimiter ? { delimiter: read.delimiter } : {}) });
}

interface TableAt {
  name: string;
  sheet: string | undefined;
  /** The table's line in `detected` (a report's rows are counted on it). */
  entry: DetectedFile;
  log: ProblemLog;
  controlCharacters: ControlCharacterCheck;
}

/** A recognised table through the importer of its kind: a structure, a report, or a template (kept for later). */
function importTable(found: DetectedTable, { name, sheet, entry, log, controlCharacters }: TableAt, options: ImportOptions, gathered: Gathered): void {
  if (found.missing.length > 0) {
    log.error(format(importerMessages.missingColumn, { column: found.missing.join(', ') }), found.headerRow);
    return;
  }
  if (found.platform && options.platform && found.platform !== options.platform) {
    log.warn(format(importerMessages.platformMismatch, { detected: adPlatformLabels[found.platform], expected: adPlatformLabels[options.platform] }));
  }
  for (const row of found.preamble) controlCharacters.check(row);
  controlCharacters.check({ number: found.headerRow, cells: found.columns.titles });
  // The columns were mapped with the dictionary of the detected kind, so the field names match it.
  const context: SheetContext<string> = {
    file: name,
    fileBase: name.replace(/\.[^.]+$/, ''),
    sheet,
    columns: found.columns,
    preamble: found.preamble,
    rows: controlCharacters.rows(found.rows, found.columns.titles),
    log,
    locale: found.platform === 'google_ads' && !/[а-яё]/i.test(found.columns.titles.join('')) ? 'en' : 'ru',
  };
  switch (found.kind) {
    case 'yandex_direct':
      gathered.firstStructurePlatform ??= 'yandex_direct';
      importYandexDirect(context as SheetContext<YandexDirectField>, gathered.builderFor('yandex_direct'));
      break;
    case 'google_ads_editor':
      gathered.firstStructurePlatform ??= 'google_ads';
      importGoogleAdsEditor(context, gathered.builderFor('google_ads'));
      break;
    case 'template':
      // The template has no platform of its own: it takes the project's (or the other files') one.
      gathered.templateTables.push(context);
      break;
    default:
      gathered.firstReportPlatform ??= found.platform ?? undefined;
      gathered.reportColumnsByFile.set(name, recognisedTitles(found.columns));
      entry.statsRows = importReport(context as SheetContext<ReportField>, found.platform ?? 'yandex_direct', gathered.sink);
  }
}

/** The campaigns of every platform (the project's first), with the reports' statistics merged in or, without a structure, built from them. */
function campaignsWithStats(gathered: Gathered, platform: AdPlatform, logs: Map<string, ProblemLog>): Campaign[] {
  const { builders, sink } = gathered;
  // The project's platform first, then the others in the order they appeared.
  const ordered = [...builders.values()].sort((a, b) => Number(b.platform === platform) - Number(a.platform === platform));
  let campaigns: Campaign[] = ordered.flatMap((builder) => builder.campaigns);
  if (sink.records.length > 0) {
    if (campaigns.length === 0) {
      buildFromStats(sink.records, (recordPlatform) => gathered.builderFor(recordPlatform));
      campaigns = [...builders.values()].flatMap((builder) => builder.campaigns);
      if (campaigns.length > 0) {
        const firstReport = sink.records[0].file;
        logs.get(firstReport)?.warn(importerMessages.statsWithoutStructure);
      }
    } else {
      for (const file of mergeStats(campaigns, sink.records, logs)) {
        const columns = (gathered.reportColumnsByFile.get(file) ?? []).join(', ');
        logs.get(file)?.error(format(importerMessages.statsNotUnderstood, { file, columns, expected: importerMessages.expectedColumns }));
      }
    }
  }
  return campaigns;
}

/**
 * The upload's expanded size (an XLSX as its central directory declares, anything else its bytes) against
 * the budget, before any file is parsed: problems naming the biggest files, or null when it fits.
 */
async function checkExpandedSizes(files: ImportFile[], budget: ImportBudget): Promise<ImportProblem[] | null> {
  const sizes: { name: string; size: number }[] = [];
  for (const file of files) {
    const bytes = file.bytes;
    const declared = isZip(bytes) ? await declaredXlsxSize(bytes).catch(() => null) : null;
    sizes.push({ name: file.name, size: declared ?? bytes.length });
  }
  return budget.expandedSizeProblems(sizes);
}

async function readTables(bytes: Uint8Array, log: ProblemLog, budget: ImportBudget): Promise<ReadTables | null> {
  if (bytes.length === 0) {
    log.error(importerMessages.emptyFile);
    return null;
  }
  if (isOldXls(bytes)) {
    log.error(importerMessages.oldXls);
    return null;
  }
  if (isZip(bytes)) {
    try {
      return { tables: await readXlsx(bytes, budget), encoding: 'xlsx' };
    } catch (error) {
      if (error instanceof ImportLimitError) throw error;
      log.error(importerMessages.brokenXlsx);
      return null;
    }
  }
  const { text, encoding } = decodeText(bytes);
  if (text.trim() === '') {
    log.error(importerMessages.emptyFile);
    return null;
  }
  if (looksBinary(text)) {
    log.error(importerMessages.binaryFile);
    return null;
  }
  const delimiter = detectDelimiter(text);
  return { tables: [{ rows: { [Symbol.iterator]: () => parseCsvRows(text, delimiter, budget) } }], encoding, delimiter };
}

/** Which file, that its columns were not recognised (the ones it has), and what was expected. */
function unrecognisedMessage(file: string, columns: string[]): string {
  const expected = importerMessages.expectedColumns;
  if (columns.length < 2) return format(importerMessages.unknownKind, { file, expected });
  const shown = columns.slice(0, 12).map((title) => `«${title}»`).join(', ') + (columns.length > 12 ? ` и ещё ${columns.length - 12}` : '');
  return format(importerMessages.unknownColumns, { file, columns: shown, expected });
}

/** The header titles a column map recognised, in the file's order. */
function recognisedTitles(columns: ColumnMap<string>): string[] {
  return [...columns.positions.values()].flat().sort((a, b) => a - b).map((index) => `«${columns.titles[index]}»`);
}

/** Two uploads named alike must still be told apart in problems. */
function uniqueName(name: string, taken: Map<string, unknown>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const candidate = `${name} (${n})`;
    if (!taken.has(candidate)) return candidate;
  }
}

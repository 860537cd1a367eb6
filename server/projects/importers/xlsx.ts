/**
 * XLSX through exceljs: every worksheet becomes a table of text cells. Numbers keep JavaScript's notation
 * (`12.5`), dates become ISO dates, rich text and hyperlinks their text, formulas their cached result.
 *
 * The zip is opened with yauzl, not by exceljs: exceljs's streaming reader inflates whatever the local
 * headers say, so a 300 KB zip bomb becomes a 300 MB string before anything can look at it. yauzl reads the
 * central directory first (the declared sizes are checked against the upload's budget before a byte is
 * inflated), and while inflating it stops at the first byte past an entry's declared size. exceljs then
 * parses only those checked streams, through its reader's per-part parsers (`_parseWorkbook`,
 * `_parseSharedStrings`, `_parseWorksheet`…), which its public API does not expose separately: they are
 * exceljs 4.4's internals, so an exceljs upgrade must keep the XLSX tests passing. On top, every XML text run
 * longer than the cell limit stops the read, before exceljs builds a string of it.
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type ExcelJS from 'exceljs';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { format, importerMessages } from './messages.js';
import { ImportBudget, ImportLimitError, importLimits, megabytes } from './limits.js';
import type { Row, Table } from './types.js';

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** The OLE2 container of the old binary .xls format. */
export function isOldXls(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The entries of the zip's central directory (nothing is inflated). Throws on a broken zip. */
async function readCentralDirectory(bytes: Uint8Array, limits = importLimits): Promise<{ zip: ZipFile; entries: Entry[] }> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(asBuffer(bytes), { lazyEntries: true, validateEntrySizes: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  if (zip.entryCount > limits.maxZipEntries) {
    zip.close();
    throw new ImportLimitError(format(importerMessages.tooManyZipEntries, { count: zip.entryCount.toLocaleString('ru-RU') }));
  }
  const entries = await new Promise<Entry[]>((resolve, reject) => {
    const found: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      found.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(found));
    zip.once('error', reject);
    zip.readEntry();
  });
  return { zip, entries };
}

/** What the XLSX declares it unpacks to, from its central directory; null when it is not a readable zip. */
export async function declaredXlsxSize(bytes: Uint8Array): Promise<number | null> {
  try {
    const { zip, entries } = await readCentralDirectory(bytes);
    zip.close();
    return entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  } catch (error) {
    if (error instanceof ImportLimitError) throw error;
    return null;
  }
}

/**
 * Fails the stream at the first XML run (text between tags, or a tag) longer than the cell limit; an
 * entity (`&amp;`) counts as one character, a multi-byte UTF-8 character as one.
 */
class LongRunGuard extends Transform {
  private run = 0;
  private inEntity = false;

  constructor(private readonly maxChars: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let run = this.run;
    let inEntity = this.inEntity;
    const max = this.maxChars;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === 0x3c || byte === 0x3e) {
        // < or >
        run = 0;
        inEntity = false;
        continue;
      }
      if (inEntity) {
        if (byte === 0x3b) inEntity = false; // ;
        continue;
      }
      if (byte === 0x26) inEntity = true; // &
      // UTF-8 continuation bytes belong to the character already counted.
      if ((byte & 0xc0) !== 0x80 && ++run > max) {
        callback(new ImportLimitError(format(importerMessages.sheetCellTooLong, { max: max.toLocaleString('ru-RU') })));
        return;
      }
    }
    this.run = run;
    this.inEntity = inEntity;
    callback(null, chunk);
  }
}

/** The parts of exceljs's streaming WorkbookReader that parse one zip entry each (exceljs 4.4). */
interface WorkbookReaderParts {
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(iterator: AsyncIterable<unknown>, sheetNo: string): Generator<{ eventType: string; value: AsyncIterable<ExcelJS.Row> & { name?: string } }>;
}

/**
 * Reads every worksheet into rows of text, within the upload's budget. Uses exceljs's streaming parsers:
 * the whole-workbook model costs gigabytes for a 100 000-row export, the streamed rows only their strings.
 * Throws ImportLimitError over a limit, another error when the workbook cannot be read (truncated or not an XLSX).
 */
export async function readXlsx(bytes: Uint8Array, budget = new ImportBudget()): Promise<Table[]> {
  const { limits } = budget;
  const { zip, entries } = await readCentralDirectory(bytes, limits);
  // Every inflating stream, destroyed at the end: one left paused by a refusal would hold the zip's buffer.
  const opened: Readable[] = [];
  try {
    const declared = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    if (declared > limits.maxExpandedBytes) {
      throw new ImportLimitError(format(importerMessages.xlsxTooLarge, { size: megabytes(declared), max: megabytes(limits.maxExpandedBytes) }));
    }
    const byName = new Map(entries.map((entry) => [entry.fileName, entry]));
    const open = async (entry: Entry): Promise<Readable> => {
      const raw = await new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))));
      const guard = new LongRunGuard(limits.maxCellChars);
      opened.push(raw, guard);
      // yauzl's own check (more bytes than declared) arrives as a plain Error: say what it means.
      raw.once('error', (error: Error) => guard.destroy(/too many bytes|not enough bytes/.test(error.message) ? new ImportLimitError(importerMessages.xlsxSizeMismatch) : error));
      return raw.pipe(guard);
    };

    // Loaded on the first workbook: exceljs takes ~0.25 s to load, which every import thread would pay at its
    // start, before reading the CSV files most uploads are.
    const { default: excel } = await import('exceljs');
    const reader = new excel.stream.xlsx.WorkbookReader(undefined as never, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      // Styles tell date cells from numbers.
      styles: 'cache',
      hyperlinks: 'ignore',
      entries: 'ignore',
    }) as unknown as WorkbookReaderParts;
    const part = (name: string) => byName.get(name);
    const rels = part('xl/_rels/workbook.xml.rels');
    if (rels) await reader._parseRels(await open(rels));
    const workbook = part('xl/workbook.xml');
    if (workbook) await reader._parseWorkbook(await open(workbook));
    // Shared strings before the sheets, whatever the order inside the zip (exceljs would park sheets in temp files).
    const sharedStrings = part('xl/sharedStrings.xml');
    if (sharedStrings) for await (const _ of reader._parseSharedStrings(await open(sharedStrings)));
    const styles = part('xl/styles.xml');
    if (styles) await reader._parseStyles(await open(styles));

    const sheets = entries
      .map((entry) => ({ entry, number: /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(entry.fileName)?.[1] }))
      .filter((sheet): sheet is { entry: Entry; number: string } => sheet.number !== undefined)
      .sort((a, b) => Number(a.number) - Number(b.number));
    if (sheets.length === 0) throw new Error('no worksheets');
    const tables: Table[] = [];
    let sheetCount = 0;
    for (const sheet of sheets) {
      for (const { value: worksheet } of reader._parseWorksheet(await open(sheet.entry), sheet.number)) {
        sheetCount += 1;
        tables.push({ sheet: worksheet.name ?? `Лист ${sheetCount}`, rows: await readRows(worksheet, budget) });
      }
    }
    return tables;
  } finally {
    for (const stream of opened) stream.destroy();
    zip.close();
  }
}

async function readRows(worksheet: AsyncIterable<ExcelJS.Row>, budget: ImportBudget): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const row of worksheet) {
    budget.countRow(row.number);
    const values = row.values as unknown[];
    const cells: string[] = [];
    let blank = true;
    // row.values is 1-based (index 0 is empty).
    for (let index = 1; index < values.length; index++) {
      const text = cellText(values[index]);
      // Rich text runs are checked one by one on the way in; joined they may still be too long.
      budget.checkCell(text.length, row.number, index - 1);
      if (text !== '') blank = false;
      cells.push(text);
    }
    if (!blank) rows.push({ number: row.number, cells });
  }
  return rows;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (Array.isArray(object.richText)) return (object.richText as { text: string }[]).map((part) => part.text).join('');
    if ('result' in object) return cellText(object.result);
    if ('text' in object) return cellText(object.text);
    if ('error' in object) return '';
  }
  return String(value);
}

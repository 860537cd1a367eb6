/**
 * XLSX through exceljs: every worksheet becomes a table of text cells. Numbers keep JavaScript's notation
 * (`12.5`), dates become ISO dates, rich text and hyperlinks their text, formulas their cached result.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Row, Table } from './types.js';

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** The OLE2 container of the old binary .xls format. */
export function isOldXls(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;
}

/**
 * Reads every worksheet into rows of text. Uses exceljs's streaming reader: the whole-workbook model costs
 * gigabytes for a 100 000-row export, the streamed rows only their strings. Throws when the workbook cannot
 * be read (truncated or not an XLSX).
 */
export async function readXlsx(bytes: Uint8Array): Promise<Table[]> {
  const input = Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Styles tell date cells from numbers.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const tables: Table[] = [];
  let sheetCount = 0;
  for await (const worksheet of reader) {
    sheetCount += 1;
    const rows: Row[] = [];
    for await (const row of worksheet) {
      const values = row.values as unknown[];
      const cells: string[] = [];
      let blank = true;
      // row.values is 1-based (index 0 is empty).
      for (let index = 1; index < values.length; index++) {
        const text = cellText(values[index]);
        if (text !== '') blank = false;
        cells.push(text);
      }
      if (!blank) rows.push({ number: row.number, cells });
    }
    const name = (worksheet as unknown as { name?: string }).name;
    tables.push({ sheet: name ?? `Лист ${sheetCount}`, rows });
  }
  if (sheetCount === 0) throw new Error('no worksheets');
  return tables;
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

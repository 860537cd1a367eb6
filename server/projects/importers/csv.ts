/**
 * A quote-aware CSV/TSV reader over an in-memory string (RFC 4180 quoting: `"a ""b"""`, delimiters and line
 * breaks inside quotes). A leading `'` before a formula character (how every CSV the product writes
 * neutralises formula injection, server/lib/csv.ts) is dropped. Rows are produced lazily so a 100 000-row export never exists twice in memory.
 */
import type { ImportBudget } from './limits.js';
import { stripFormulaGuard } from '../../lib/csv.js';
import type { Delimiter, Row } from './types.js';

const QUOTE = 34; // "
const APOSTROPHE = 39; // '
const CR = 13;
const LF = 10;

const CANDIDATES: Delimiter[] = ['\t', ';', ','];

/**
 * The delimiter whose per-line field count is the most consistent over the first lines (quotes respected).
 * Title lines above a report's header and commas inside texts do not fool it: the real delimiter gives the
 * same count on most lines. Ties go to tab, then `;`, then `,`.
 */
export function detectDelimiter(text: string): Delimiter {
  const sample = text.length > 200_000 ? text.slice(0, 200_000) : text;
  let best: Delimiter = '\t';
  let bestScore = -1;
  for (const delimiter of CANDIDATES) {
    const counts = new Map<number, number>();
    let lines = 0;
    for (const row of parseCsvRows(sample, delimiter)) {
      const fields = row.cells.length;
      if (fields > 1) counts.set(fields, (counts.get(fields) ?? 0) + 1);
      if (++lines >= 60) break;
    }
    let score = 0;
    for (const [fields, lineCount] of counts) {
      // Lines agreeing on one field count, weighted a little by how many fields that is.
      const candidate = lineCount * 1000 + fields;
      if (candidate > score) score = candidate;
    }
    if (score > bestScore) {
      bestScore = score;
      best = delimiter;
    }
  }
  return best;
}

/**
 * Non-blank rows of the text, numbered as a spreadsheet would number them (a quoted line break stays in its row).
 * With a budget, every line counts against the upload's row limit and every cell against the cell length
 * limit as it is read, so a 40 MB cell or 50 million empty lines stop the read where they are found.
 */
export function* parseCsvRows(text: string, delimiter: Delimiter, budget?: ImportBudget): Generator<Row> {
  const length = text.length;
  const delimiterCode = delimiter.charCodeAt(0);
  let position = 0;
  let rowNumber = 0;
  while (position < length) {
    rowNumber += 1;
    budget?.countRow(rowNumber);
    const cells: string[] = [];
    let blank = true;
    // One record.
    for (;;) {
      let value: string;
      if (text.charCodeAt(position) === QUOTE) {
        // Quoted field: read up to the closing quote, unescaping doubled quotes.
        let start = position + 1;
        let parts = '';
        for (;;) {
          const close = text.indexOf('"', start);
          // An unclosed quote or a huge quoted value: measured before the slice is made.
          if (budget) budget.checkCell(parts.length + (close === -1 ? length : close) - start, rowNumber, cells.length);
          if (close === -1) {
            // Unterminated quote: take the rest of the file as the value.
            parts += text.slice(start);
            position = length;
            break;
          }
          if (text.charCodeAt(close + 1) === QUOTE) {
            parts += text.slice(start, close + 1);
            start = close + 2;
            continue;
          }
          parts += text.slice(start, close);
          position = close + 1;
          break;
        }
        // Anything between the closing quote and the delimiter is kept, as spreadsheets do.
        let end = position;
        while (end < length) {
          const code = text.charCodeAt(end);
          if (code === delimiterCode || code === LF || code === CR) break;
          end++;
        }
        value = end > position ? parts + text.slice(position, end) : parts;
        position = end;
      } else {
        let end = position;
        while (end < length) {
          const code = text.charCodeAt(end);
          if (code === delimiterCode || code === LF || code === CR) break;
          end++;
        }
        budget?.checkCell(end - position, rowNumber, cells.length);
        value = text.slice(position, end);
        position = end;
      }
      // A cell our own exports neutralised against formula injection (`'=…`, `'-слово`) reads as written.
      if (value.charCodeAt(0) === APOSTROPHE) value = stripFormulaGuard(value);
      if (blank && value.trim() !== '') blank = false;
      cells.push(value);
      if (position >= length) break;
      const code = text.charCodeAt(position);
      if (code === delimiterCode) {
        position++;
        continue;
      }
      // End of line: \r\n, \n or \r.
      if (code === CR && text.charCodeAt(position + 1) === LF) position += 2;
      else position += 1;
      break;
    }
    if (!blank) yield { number: rowNumber, cells };
  }
}

/**
 * Cells with control characters (NUL and the other C0 codes except tab, line feed and carriage return)
 * are refused with the file, row and column: PostgreSQL cannot store NUL at all, and a spreadsheet
 * person never types the others, so such a cell means a damaged or doctored file the user should see,
 * not something to import silently. The character is removed from the cell so the rest of the parse
 * (and its other problems) still runs; the error keeps anything from being imported.
 */
import { CONTROL_CHARACTERS, stripControlCharacters } from '../../../contract/text.js';
import { format, importerMessages } from './messages.js';
import type { ProblemLog } from './problems.js';
import type { Row } from './types.js';

/** Errors listed one by one per file; the rest are counted in one closing line. */
const MAX_LISTED_CELLS = 20;

/** A1-style column letter for cells outside the header (A, B, … Z, AA …). */
function columnLetter(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const codeOf = (cell: string) => {
  const match = CONTROL_CHARACTERS.exec(cell);
  return `0x${match![0].charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`;
};

export class ControlCharacterCheck {
  private found = 0;

  constructor(private readonly log: ProblemLog) {}

  /** Checks (and cleans) one row's cells; `titles` names the columns where the header is known. */
  check(row: Row, titles?: readonly string[]): void {
    for (let index = 0; index < row.cells.length; index++) {
      const cell = row.cells[index];
      if (!cell || !CONTROL_CHARACTERS.test(cell)) continue;
      this.found += 1;
      if (this.found <= MAX_LISTED_CELLS) {
        const column = titles?.[index] || columnLetter(index);
        this.log.error(format(importerMessages.controlCharacter, { code: codeOf(cell) }), row.number, column);
      }
      row.cells[index] = stripControlCharacters(cell);
    }
  }

  /** The rows, each checked as it passes (rows are produced lazily for big files). */
  *rows(rows: Iterable<Row>, titles?: readonly string[]): Iterable<Row> {
    for (const row of rows) {
      this.check(row, titles);
      yield row;
    }
    this.finish();
  }

  private finish(): void {
    if (this.found > MAX_LISTED_CELLS) {
      this.log.error(format(importerMessages.moreControlCharacters, { count: this.found - MAX_LISTED_CELLS }));
      this.found = MAX_LISTED_CELLS;
    }
  }
}

/**
 * The one writer of CSV cells for every CSV the product produces (the Direct and Google Ads Editor
 * exports, the import template), with formula injection (OWASP "CSV Injection") neutralised without
 * spoiling what the ad platforms read: a cell a spreadsheet would run gets a single quote in front
 * (`'=HYPERLINK(…)` is shown as text) and is quoted, with its double quotes doubled.
 *
 * What a spreadsheet runs. Excel, LibreOffice (with «Evaluate formulas» on) and Google Sheets read a cell
 * that starts with `=`, `+`, `-` or `@` as a formula. A formula can *do* something — open a link, fetch a
 * page, start a program — only through a function call (`HYPERLINK(…)`, `WEBSERVICE(…)`, `IMPORTXML(…)`:
 * needs `(`), a DDE link (`cmd|' /C calc'!A0`: needs `|`) or a link to another workbook (`[book]sheet!A1`:
 * needs `[`…`]` and `!`). So the rule is:
 * - a cell starting with `=`, `@`, a tab or a carriage return is always neutralised;
 * - a cell starting with `-` or `+` is neutralised unless it is plain words: letters, digits, spaces and
 *   the Direct operators `! + - " [ ] . ,` (but not `[…]…!`, a workbook link). `-своими руками -вакансии`,
 *   `-!в -оптом`, `+в наличии шуба` are written as they are, because Direct and Editor need exactly that
 *   text; a spreadsheet that evaluates such a cell finds no function and no link in it (at worst it shows
 *   `#NAME?` on screen: open the XLSX for reading in Excel, and do not save the CSV back from Excel);
 * - a cell that is only `-` or `+` (the Direct file's «Доп. объявление группы» marker) or a number such as
 *   `-5`, `+7,5` is left alone.
 * `(`, `|`, `%`, `&`, `'` and anything else after a leading sign get the quote: `-50% на шубы` and
 * `+7 (495) 123-45-67` are escaped (Direct's `(а|б)` operator cannot start a minus-word cell anyway).
 *
 * The product's own importers take the quote off again (`stripFormulaGuard`), so an exported file
 * re-imports to the same campaigns: `'=1+2` reads as `=1+2`.
 */

/** First characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** …except these cells, which are text or a number to every spreadsheet. */
const HARMLESS = /^(?:[-+]|[-+]?\d+(?:[.,]\d+)?)$/;
/** A signed cell of plain words and Direct operators: no function call, DDE link or workbook link can be made of it. */
const PLAIN_WORDS = /^[-+][\p{L}\p{N} !+\-"[\].,]*$/u;
/** `[книга]лист!A1`: a link to another workbook (a `]` with a `!` after it). */
const WORKBOOK_LINK = /\[[^\]]*\][^!]*!/;

/** Whether a spreadsheet opening the file could run the cell (see the rule above). */
function runsAsFormula(value: string): boolean {
  if (!FORMULA_START.test(value) || HARMLESS.test(value)) return false;
  return !(PLAIN_WORDS.test(value) && !WORKBOOK_LINK.test(value));
}

/** The cell with a leading `'` when a spreadsheet would run it as a formula. */
export function neutraliseFormula(value: string): string {
  return runsAsFormula(value) ? `'${value}` : value;
}

/** Undoes `neutraliseFormula` on a cell read back: `'` followed by a formula character is dropped. */
export function stripFormulaGuard(value: string): string {
  return value.charCodeAt(0) === 39 /* ' */ && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** One cell for a line separated by `delimiter`: neutralised, and quoted when it has to be (RFC 4180). */
export function csvCell(value: string, delimiter: string): string {
  const safe = neutraliseFormula(value);
  const mustQuote = safe !== value || safe.includes(delimiter) || /["\n\r]/.test(safe);
  return mustQuote ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One line of cells. */
export function csvLine(cells: readonly string[], delimiter: string): string {
  return cells.map((cell) => csvCell(cell, delimiter)).join(delimiter);
}

/** Lines of a file joined this many at a time: one piece of a streamed file. */
const LINES_PER_PIECE = 1_000;

/**
 * A whole CSV file in pieces, for a reply streamed as the rows are made (they may come asynchronously,
 * read from the database as the file is written): a BOM and the header first, CRLF after every line
 * (what Excel and the ad platforms' uploads read).
 */
export async function* csvPieces(header: readonly string[], lines: Iterable<readonly string[]> | AsyncIterable<readonly string[]>, delimiter: string): AsyncGenerator<string> {
  let piece = [`\uFEFF${csvLine(header, delimiter)}`];
  for await (const cells of lines) {
    piece.push(csvLine(cells, delimiter));
    if (piece.length >= LINES_PER_PIECE) {
      yield `${piece.join('\r\n')}\r\n`;
      piece = [];
    }
  }
  if (piece.length > 0) yield `${piece.join('\r\n')}\r\n`;
}

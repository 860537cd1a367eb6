/**
 * The one writer of CSV cells for every CSV the product produces (the Direct and Google Ads Editor
 * exports, the import template), with formula-injection neutralised as OWASP's "CSV Injection" page
 * recommends: a cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return would be run as a
 * formula by Excel, LibreOffice or Google Sheets when the file is opened, so it gets a single quote in
 * front (`'=HYPERLINK(…)` is shown as text) and is quoted, with its double quotes doubled.
 *
 * Not neutralised, because no spreadsheet runs them as formulas: a cell that is only `-` or only `+`
 * (the Direct file's «Доп. объявление группы» marker, which Direct needs exactly so) and a plain number
 * such as `-5` or `+7,5`.
 *
 * The product's own importers take the quote off again (`stripFormulaGuard`), so an exported file
 * re-imports to the same campaigns: `'-слово` reads as `-слово`. The platforms do not: see the README
 * («Безопасность и эксплуатация») for what a user uploading the CSV to Direct or Editor has to know.
 */

/** First characters that make a spreadsheet read a cell as a formula (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** …except these cells, which are text or a number to every spreadsheet. */
const HARMLESS = /^(?:[-+]|[-+]?\d+(?:[.,]\d+)?)$/;

/** The cell with a leading `'` when a spreadsheet would run it as a formula. */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) && !HARMLESS.test(value) ? `'${value}` : value;
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

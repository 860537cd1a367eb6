/** What every importer gets for one recognised table: its columns, the rows above and below the header. */
import type { ColumnMap } from './columns.js';
import { format, importerMessages } from './messages.js';
import type { ProblemLog } from './problems.js';
import type { NumberLocale, Row } from './types.js';
import { parseNumber } from './values.js';

export interface SheetContext<F extends string> {
  file: string;
  /** The file name without its extension, used when a file names no campaign. */
  fileBase: string;
  sheet?: string;
  columns: ColumnMap<F>;
  /** Rows above the header: the Direct campaign block, a report's title and period. */
  preamble: Row[];
  rows: Iterable<Row>;
  log: ProblemLog;
  locale: NumberLocale;
}

/**
 * A number from a cell: undefined when the cell is empty; on text that is not a non-negative number,
 * a warning with the row and column, and undefined.
 */
export function readNumber<F extends string>(context: SheetContext<F>, row: Row, field: F, occurrence = 0): number | undefined {
  const raw = context.columns.get(row, field, occurrence);
  if (raw === '') return undefined;
  const parsed = parseNumber(raw, context.locale);
  if (parsed === null) return undefined;
  if (!parsed.ok) {
    context.log.warn(format(importerMessages.badNumber, { value: raw }), row.number, context.columns.title(field, occurrence));
    return undefined;
  }
  if (parsed.value < 0) {
    context.log.warn(format(importerMessages.negativeNumber, { value: raw }), row.number, context.columns.title(field, occurrence));
    return undefined;
  }
  return parsed.value;
}

/**
 * Column matching by title: case, spaces, `ё`, dots and a unit in brackets do not matter
 * («Расход (руб.)» = «расход», `Max. CPC` = `max cpc`). A title that repeats («Заголовок 1» in the newest
 * Direct template) keeps all its positions in order, so an importer can read them by position.
 */
import type { Row } from './types.js';

/** Field name → the titles that mean it. */
export type Dictionary<F extends string> = Record<F, readonly string[]>;

export class ColumnMap<F extends string> {
  constructor(
    /** Field → column indexes in the order they appear. */
    readonly positions: Map<F, number[]>,
    /** The header's own titles, for problem messages. */
    readonly titles: string[],
  ) {}

  has(field: F): boolean {
    return this.positions.has(field);
  }

  /** The value of a field in a row (its `occurrence`-th column when the title repeats); '' if absent. */
  get(row: Row, field: F, occurrence = 0): string {
    const index = this.positions.get(field)?.[occurrence];
    if (index === undefined) return '';
    const value = row.cells[index];
    return value === undefined ? '' : value.trim();
  }

  /** The column title as the file writes it, for messages. */
  title(field: F, occurrence = 0): string {
    const index = this.positions.get(field)?.[occurrence];
    return index === undefined ? String(field) : this.titles[index];
  }

  count(field: F): number {
    return this.positions.get(field)?.length ?? 0;
  }

  get size(): number {
    return this.positions.size;
  }
}

export function normalizeTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[\s\u00a0._:*\-–—]+/g, '');
}

/** Looser form: without a bracketed unit or a trailing `, руб.`, for «Расход (руб.)» and the like. */
export function looseTitle(title: string): string {
  return normalizeTitle(title.replace(/\([^)]*\)/g, '').replace(/,.*$/, ''));
}

interface CompiledDictionary<F extends string> {
  exact: Map<string, F>;
  loose: Map<string, F>;
}

const compiled = new WeakMap<object, CompiledDictionary<string>>();

function compile<F extends string>(dictionary: Dictionary<F>): CompiledDictionary<F> {
  const cached = compiled.get(dictionary);
  if (cached) return cached as CompiledDictionary<F>;
  const exact = new Map<string, F>();
  const loose = new Map<string, F>();
  for (const field of Object.keys(dictionary) as F[]) {
    for (const title of dictionary[field]) {
      if (!exact.has(normalizeTitle(title))) exact.set(normalizeTitle(title), field);
      if (!loose.has(looseTitle(title))) loose.set(looseTitle(title), field);
    }
  }
  const result = { exact, loose };
  compiled.set(dictionary, result as CompiledDictionary<string>);
  return result;
}

export function mapColumns<F extends string>(cells: string[], dictionary: Dictionary<F>): ColumnMap<F> {
  const { exact, loose } = compile(dictionary);
  const positions = new Map<F, number[]>();
  cells.forEach((cell, index) => {
    if (!cell || cell.trim() === '') return;
    const field = exact.get(normalizeTitle(cell)) ?? loose.get(looseTitle(cell));
    if (field === undefined) return;
    const list = positions.get(field);
    if (list) list.push(index);
    else positions.set(field, [index]);
  });
  return new ColumnMap(positions, cells.map((cell) => cell.trim()));
}

/**
 * An audit result → the rows it is stored as, and the small summary document stored on the analysis.
 * Pure (data in, data out), used where the result exists: the engine thread (run-audit.ts) and the
 * migration that converts results stored as one blob (0060_analysis_rows).
 *
 * Rows are produced in batches, as the text of a `COPY … FROM STDIN` (the worker) or as column arrays
 * for `INSERT … SELECT FROM unnest(…)` (the migration), each document serialised on its own, so no
 * value the size of the account is ever built: the biggest string is one finding, suggestion or a
 * chunk of at most 100 items. The batches are yielded one at a time; the caller writes one before
 * asking for the next, so at most one batch exists besides the engine's result.
 */
import type {
  AnalysisNotice,
  EntityRef,
  EntityScore,
  Finding,
  FindingItem,
  GroupIntersection,
  GroupRelevance,
  MoneyStory,
  NonTargetQueries,
  Severity,
  Suggestion,
} from '../../contract/analysis-results.js';
import { FINDING_EXAMPLE_ITEMS, type CheckCount, type ResultsSummary, type SemanticSection, type SuggestionCount } from '../../contract/analysis-pages.js';
import type { AuditResult } from '../../contract/analysis.js';
import { EntityRefCompactor } from './entity-refs.js';
import { moneyRanks, SEARCH_BLOCKS_FROM, SearchBloom } from './search-blocks.js';

/** Column types of the row tables, in insert order (after `analysis_id`). */
export const resultTableColumns = {
  analysis_findings: [
    ['id', 'text'],
    ['position', 'int4'],
    ['check_id', 'text'],
    ['severity', 'text'],
    ['family', 'text'],
    ['level', 'text'],
    ['campaign_key', 'text'],
    ['group_key', 'text'],
    ['money_per_month', 'float8'],
    ['count', 'int4'],
    ['search', 'text'],
    ['money_rank', 'int4'],
    ['document', 'json'],
  ],
  analysis_finding_items: [
    ['finding_id', 'text'],
    ['position', 'int4'],
    ['money_per_month', 'float8'],
    ['count', 'int4'],
    ['document', 'json'],
  ],
  analysis_suggestions: [
    ['id', 'text'],
    ['position', 'int4'],
    ['kind', 'text'],
    ['category', 'text'],
    ['status', 'text'],
    ['level', 'text'],
    ['campaign_key', 'text'],
    ['group_key', 'text'],
    ['cost_per_month', 'float8'],
    ['search', 'text'],
    ['money_rank', 'int4'],
    ['document', 'json'],
  ],
  analysis_scores: [
    ['level', 'text'],
    ['key', 'text'],
    ['position', 'int4'],
    ['campaign_key', 'text'],
    ['group_key', 'text'],
    ['score', 'float8'],
    ['money_per_month', 'float8'],
    ['document', 'json'],
  ],
  analysis_semantic: [
    ['section', 'text'],
    ['position', 'int4'],
    ['campaign_key', 'text'],
    ['group_key', 'text'],
    ['count', 'int4'],
    ['document', 'json'],
  ],
  /** Names of the campaigns and groups the compact refs of the documents stand for (entity-refs.ts). */
  analysis_entity_names: [
    ['key', 'text'],
    ['name', 'text'],
  ],
  /** Which blocks of the money order hold which trigrams, per table (`scope`; search-blocks.ts, migration 0185). */
  analysis_search_blooms: [
    ['scope', 'text'],
    ['blocks', 'int4'],
    ['bits', 'bytea'],
  ],
} as const;
export type ResultTable = keyof typeof resultTableColumns;
type Cell = string | number | null;

/**
 * How a batch is encoded, decided by who writes it:
 * - `copy`: the text of `COPY <table> (analysis_id, <columns>) FROM STDIN` (tab-separated, `\N` for
 *   NULL), every line starting with the analysis id. The worker streams it to PostgreSQL as it is.
 * - `arrays`: `columns[i]` is the PostgreSQL array literal (`{"a","b",NULL}`) of column i, for a multi-row
 *   `INSERT … SELECT FROM unnest(…)` on a Kysely connection (migration 0060 converting old blobs has no
 *   raw connection to COPY on).
 * Either is written here, in the engine thread: escaping on the worker's event loop took most of the
 * saving time of a big result.
 */
export type RowEncoding = { kind: 'copy'; analysisId: string } | { kind: 'arrays' };

interface BatchBase {
  table: ResultTable;
  rows: number;
  /** Characters of the serialised documents in the batch. */
  chars: number;
}
/**
 * A `copy` batch is the COPY text's UTF-8 bytes, in a buffer of its own that the engine thread moves
 * (transfers) to the worker: the thread never builds the batch as one string. At 1 000 000 keywords those
 * were 2 GB of 4 MB strings in V8's large-object space, which only a full collection of the thread's
 * 2.4 GB heap frees: as bytes, the thread's CPU in saving went from 52.7 s to 39.9 s (end-to-end bench).
 */
export type ResultRowBatch = (BatchBase & { kind: 'copy'; bytes: Uint8Array }) | (BatchBase & { kind: 'arrays'; columns: string[] });

/** The COPY text of a `copy` batch (tests and benches). */
export const copyText = (batch: ResultRowBatch & { kind: 'copy' }) => new TextDecoder().decode(batch.bytes);

export interface RowBatchOptions {
  /** The caller hands the result over: its lists are emptied as their rows go out (the engine thread). */
  release?: boolean;
  /** How the batches are encoded (default `arrays`; the worker writes `copy`). */
  encoding?: RowEncoding;
  /**
   * Entity refs stored compactly, their names in `analysis_entity_names` (entity-refs.ts; the engine
   * thread). Off by default: migration 0060 converts old results before that table exists.
   */
  compactRefs?: boolean;
}

/** Semantic sections stored as rows, plus the non-target queries breakdown used by the decision counts. */
export type StoredSemanticSection = SemanticSection | 'query_blocks';

/** Limits of what is stored; tests lower them to provoke RESULT_TOO_LARGE. */
export interface StorageLimits {
  /** Rows of a batch (one COPY or INSERT). */
  batchRows: number;
  /** Characters of documents in a batch. */
  batchChars: number;
  /** Characters of one document (PostgreSQL refuses a field over 1 GB; far below that it is noise). */
  maxDocumentChars: number;
  /** Characters of all documents of one result. */
  maxResultChars: number;
  /** Rows of a table from which its rows get money ranks and its blooms are written (search-blocks.ts). */
  searchBlocksFrom: number;
}

export const defaultStorageLimits: StorageLimits = {
  batchRows: 2_000,
  batchChars: 4_000_000,
  maxDocumentChars: 32_000_000,
  maxResultChars: 4_000_000_000,
  searchBlocksFrom: SEARCH_BLOCKS_FROM,
};

/** A result (or one of its documents) is over a storage limit: deterministic, the run fails once with RESULT_TOO_LARGE. */
export class ResultTooLargeError extends Error {
  readonly code = 'RESULT_TOO_LARGE';
  constructor(message: string) {
    super(message);
    this.name = 'ResultTooLargeError';
  }
}

/** The campaign and group keys of an entity key (`c0g1k5` → `c0`, `c0g1`). */
export function entityKeys(ref: EntityRef | undefined): { campaign: string | null; group: string | null } {
  const match = ref ? /^(c\d+)(g\d+)?/.exec(ref.key) : null;
  if (!match) return { campaign: null, group: null };
  return { campaign: match[1]!, group: match[2] ? match[1]! + match[2] : null };
}

const SEARCH_CHARS = 4_000;
const searchText = (...parts: (string | undefined | null)[]) => {
  const text = parts.filter(Boolean).join(' ').toLowerCase();
  // `includes` then `replaceAll`: most texts have no «ё», and a scan is cheaper than a regex replace.
  return (text.includes('ё') ? text.replaceAll('ё', 'е') : text).slice(0, SEARCH_CHARS);
};
const refText = (ref: EntityRef | undefined) => (ref ? [ref.campaignName, ref.groupName, ref.label] : []);

/** Money per month of a suggestion (what accepting it saves); ad and cross-minus fixes have none. */
export const suggestionMoney = (suggestion: Suggestion) => (suggestion.kind === 'negative_keyword' ? suggestion.costPerMonth : 0);

function suggestionSearch(suggestion: Suggestion): string {
  switch (suggestion.kind) {
    case 'negative_keyword':
      return searchText(suggestion.text, suggestion.reason, ...refText(suggestion.target), ...suggestion.queries.slice(0, 20).map((q) => q.query));
    case 'cross_minus':
      return searchText(suggestion.before, suggestion.after, suggestion.reason, ...refText(suggestion.target));
    default:
      return searchText(suggestion.before, suggestion.after, suggestion.reason, ...refText(suggestion.target));
  }
}

/** A PostgreSQL array literal of text or numbers (`{"x","y\\"z",NULL,1.5}`). */
export function arrayLiteral(values: readonly Cell[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    parts[i] = value === null ? 'NULL' : typeof value === 'number' ? (Number.isFinite(value) ? String(value) : 'NULL') : `"${value.replace(/[\\"]/g, '\\$&')}"`;
  }
  return `{${parts.join(',')}}`;
}

/**
 * Text escaped for COPY: backslash, tab and line breaks. Each character is looked for with `includes`
 * and replaced with `replaceAll` (the backslash first, as the others' escapes add backslashes): most
 * values have none of them, and a scan for one character is ~8 times faster than a regex over a
 * document (a `replace` with a callback was a tenth of the encoding's CPU).
 */
function copyEscape(text: string): string {
  let escaped = text;
  if (escaped.includes('\\')) escaped = escaped.replaceAll('\\', '\\\\');
  if (escaped.includes('\t')) escaped = escaped.replaceAll('\t', '\\t');
  if (escaped.includes('\n')) escaped = escaped.replaceAll('\n', '\\n');
  if (escaped.includes('\r')) escaped = escaped.replaceAll('\r', '\\r');
  return escaped;
}

/**
 * A document's JSON escaped for COPY: `JSON.stringify` writes every control character as an escape
 * (`\\n`, `\\t`…), so a backslash is the only character of its text COPY needs escaped (a scan instead
 * of four over the longest values).
 */
const copyJson = (json: string) => (json.includes('\\') ? json.replaceAll('\\', '\\\\') : json);

/** One value of a COPY text line: backslash, tab and line breaks escaped, `\N` for NULL (and for a non-finite number). */
export function copyValue(value: Cell): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '\\N';
  return copyEscape(value);
}

/** The byte that ends a COPY line. */
const NEWLINE = 0x0a;

interface OpenBatch {
  table: ResultTable;
  /** `copy`: bytes of the batch's lines written so far (into the builder's buffer); `arrays`: one list of values per column. */
  length: number;
  columns: Cell[][];
  rows: number;
  chars: number;
}

/** Writes rows into batches and hands full ones out; checks every limit on the way. */
class BatchBuilder {
  private current: OpenBatch | null = null;
  private totalChars = 0;
  rowsWritten = 0;
  private readonly linePrefix: string;
  /** The open `copy` batch's bytes; reused from batch to batch, each batch leaving with a copy of its part. */
  private buffer = new Uint8Array(1 << 20);
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly limits: StorageLimits,
    private readonly encoding: RowEncoding,
  ) {
    this.linePrefix = encoding.kind === 'copy' ? `${copyValue(encoding.analysisId)}\t` : '';
  }

  /** `document` is serialised here (or given as JSON text); returns a full batch to write, if one is ready. */
  add(table: ResultTable, cells: Cell[], document: unknown, json: string = JSON.stringify(document)): ResultRowBatch | null {
    if (json.length > this.limits.maxDocumentChars) {
      throw new ResultTooLargeError(`One ${table} document is ${json.length} characters (limit ${this.limits.maxDocumentChars})`);
    }
    return this.addRow(table, cells, json.length, json);
  }

  /** A row of text and number cells, then the document's JSON if the table has one; `chars` count towards the limits. */
  addRow(table: ResultTable, cells: Cell[], chars: number, json?: string): ResultRowBatch | null {
    this.totalChars += chars;
    if (this.totalChars > this.limits.maxResultChars) {
      throw new ResultTooLargeError(`The result is over ${this.limits.maxResultChars} characters of documents`);
    }
    let ready: ResultRowBatch | null = null;
    if (this.current && (this.current.table !== table || this.current.rows >= this.limits.batchRows || this.current.chars >= this.limits.batchChars)) {
      ready = this.close(this.current);
      this.current = null;
    }
    this.current ??= { table, length: 0, columns: this.encoding.kind === 'arrays' ? resultTableColumns[table].map(() => []) : [], rows: 0, chars: 0 };
    if (this.encoding.kind === 'copy') {
      let line = this.linePrefix;
      for (let i = 0; i < cells.length; i++) line += `${copyValue(cells[i]!)}${i < cells.length - 1 || json !== undefined ? '\t' : '\n'}`;
      this.appendUtf8(this.current, line);
      // The document is encoded on its own: joined to the cells, the (big) string would be copied once
      // more, to flatten it before encoding.
      if (json !== undefined) this.appendUtf8(this.current, copyJson(json), NEWLINE);
    } else {
      for (let i = 0; i < cells.length; i++) this.current.columns[i]!.push(cells[i]!);
      if (json !== undefined) this.current.columns[cells.length]!.push(json);
    }
    this.current.rows++;
    this.current.chars += chars;
    this.rowsWritten++;
    return ready;
  }

  flush(): ResultRowBatch | null {
    const last = this.current;
    this.current = null;
    return last ? this.close(last) : null;
  }

  /** The text's UTF-8 bytes after the batch's, then the byte `end` if given (a character is at most 3 bytes: room is made for that first). */
  private appendUtf8(batch: OpenBatch, text: string, end?: number): void {
    const needed = batch.length + text.length * 3 + 1;
    if (needed > this.buffer.length) {
      const grown = new Uint8Array(Math.max(needed, this.buffer.length * 2));
      grown.set(this.buffer.subarray(0, batch.length));
      this.buffer = grown;
    }
    batch.length += this.encoder.encodeInto(text, this.buffer.subarray(batch.length)).written;
    if (end !== undefined) this.buffer[batch.length++] = end;
  }

  private close(batch: OpenBatch): ResultRowBatch {
    const base = { table: batch.table, rows: batch.rows, chars: batch.chars };
    return this.encoding.kind === 'copy' ? { ...base, kind: 'copy', bytes: this.buffer.slice(0, batch.length) } : { ...base, kind: 'arrays', columns: batch.columns.map(arrayLiteral) };
  }
}

/** Examples a finding keeps in its page form; the full list is in item rows. */
const findingWithoutItems = (finding: Finding): Finding => {
  if (!finding.items) return finding;
  const { items: _items, ...rest } = finding;
  return rest;
};

/** Items stored in one row of `analysis_semantic` or `analysis_finding_items` (a chunk), at most. */
export const CHUNK_ITEMS = 100;
/** Characters of one chunk's document, at most (a single bigger item gets a chunk of its own). */
const CHUNK_CHARS = 1_000_000;

interface Chunk {
  /** Index of the chunk's first item in its list. */
  position: number;
  count: number;
  /** The items' JSON texts, joined as a JSON array. */
  json: string;
  first: unknown;
}

/**
 * Consecutive items → chunks of at most `CHUNK_ITEMS` (and `CHUNK_CHARS`), a new chunk wherever
 * `boundary` changes (the group of a semantic item), so a chunk's keys say where all its items are.
 * A row per chunk instead of per item: a hundred times fewer rows and index entries to write, and a
 * page of 50 reads one or two rows (results-pages.ts unpacks them).
 */
function* chunksOf<T>(items: readonly T[], boundary: (item: T) => string | null = () => null, firstChunkItems = CHUNK_ITEMS, stored: (item: T) => unknown = (item) => item): Generator<Chunk> {
  let start = 0;
  while (start < items.length) {
    const key = boundary(items[start]!);
    const limit = start === 0 ? firstChunkItems : CHUNK_ITEMS;
    const forms = [stored(items[start]!)];
    let end = start + 1;
    for (; end < items.length && forms.length < limit && boundary(items[end]!) === key; end++) forms.push(stored(items[end]!));
    // The item after the chunk is stored (its refs compacted) before the chunk goes out, as when chunks
    // were built item by item: the names it brings go out with the same batch as before.
    if (end < items.length) stored(items[end]!);
    // The chunk serialised in one call: the items' texts, then joined, were a second copy of every chunk.
    const json = JSON.stringify(forms);
    // The array's text is its items' texts, the commas between them and the brackets: past the bound
    // with more than one item, the chunk is cut where the item-by-item rule cuts it.
    const chunk = forms.length > 1 && json.length - 2 > CHUNK_CHARS ? leadingWithin(forms) : { json, count: forms.length };
    yield { position: start, count: chunk.count, json: chunk.json, first: items[start] };
    start += chunk.count;
  }
}

/** The first of `forms` (at least one) whose texts, a comma after each, stay within `CHUNK_CHARS`: as a JSON array. */
function leadingWithin(forms: readonly unknown[]): { json: string; count: number } {
  const jsons = [JSON.stringify(forms[0])];
  let chars = jsons[0]!.length + 1;
  for (let i = 1; i < forms.length; i++) {
    const json = JSON.stringify(forms[i]);
    if (chars + json.length > CHUNK_CHARS) break;
    jsons.push(json);
    chars += json.length + 1;
  }
  return { json: `[${jsons.join(',')}]`, count: jsons.length };
}

/**
 * A score row is kept for every campaign and group, and for an ad or keyword only where something was
 * found on it: the rest score 100 with no money (`/scores` says so), and at 100 000 keywords they were a
 * third of the score rows.
 */
export const scoreIsStored = (level: string, score: EntityScore) =>
  level === 'campaign' || level === 'group' || score.score < 100 || score.findings > 0 || score.moneyPerMonth > 0;

/**
 * The documents as stored: each entity ref compacted by `compactor` (entity-refs.ts), everything else
 * as it is (a copy that only swaps the refs, the fields keeping their order); without a compactor, the
 * documents themselves.
 */
function storedForms(compactor: EntityRefCompactor | null) {
  const same = <T>(item: T): unknown => item;
  if (!compactor) {
    return { finding: same, item: same, suggestion: same, score: same, withTarget: same, withKeywords: same, intersection: same, relevance: same };
  }
  const { compact, compactAll } = compactor;
  const withTarget = <T extends { target: EntityRef }>(item: T): unknown => ({ ...item, target: compact(item.target) });
  return {
    finding: withTarget<Finding>,
    item: withTarget<FindingItem>,
    suggestion: (suggestion: Suggestion): unknown =>
      suggestion.kind === 'cross_minus'
        ? { ...suggestion, target: compact(suggestion.target), because: compactAll(suggestion.because), remove: compactAll(suggestion.remove) }
        : withTarget(suggestion),
    score: withTarget<EntityScore>,
    withTarget: withTarget as (item: { target: EntityRef }) => unknown,
    withKeywords: (item: { keywords: EntityRef[] }): unknown => ({ ...item, keywords: compactAll(item.keywords) }),
    intersection: (item: GroupIntersection): unknown => ({ ...item, broader: compact(item.broader), narrower: compact(item.narrower) }),
    relevance: (item: GroupRelevance): unknown => ({
      ...item,
      target: compact(item.target),
      ads: item.ads.map((ad) => ({ ...ad, target: compact(ad.target) })),
    }),
  };
}

const NO_BATCHES: readonly ResultRowBatch[] = [];

/**
 * Every row of a result, batch by batch. The findings, suggestions, scores and semantic sections are
 * walked in the engine's order (`position` keeps it as the tie-breaker of every sort). A finding's
 * items and the semantic sections (but the non-target queries' blocks, which the decision counts join
 * one by one) are stored in chunks (`chunksOf`).
 */
export function* resultRowBatches(result: AuditResult, limits: StorageLimits = defaultStorageLimits, options: RowBatchOptions = {}): Generator<ResultRowBatch, number> {
  const encoding = options.encoding ?? { kind: 'arrays' };
  const builder = new BatchBuilder(limits, encoding);
  const compactor = options.compactRefs ? new EntityRefCompactor() : null;
  const stored = storedForms(compactor);
  // The engine thread hands its result over: each list is emptied once its rows are out, so the
  // result shrinks while it is written instead of living whole until the last batch.
  const release = (...lists: unknown[][]) => {
    if (options.release) for (const list of lists) list.length = 0;
  };
  // The names a batch's compact refs stand for are written before it (a batch of their own).
  const names = new BatchBuilder(limits, encoding);
  const withNames = function* (batch: ResultRowBatch): Generator<ResultRowBatch> {
    for (const [key, name] of compactor?.takeNewNames() ?? []) {
      const full = names.addRow('analysis_entity_names', [key, name], name.length);
      if (full) yield full;
    }
    const last = names.flush();
    if (last) yield last;
    builder.rowsWritten += names.rowsWritten;
    names.rowsWritten = 0;
    yield batch;
  };
  // Most rows fill no batch: for them, nothing to go through but an empty list (a generator per row was 2-3% of the encoding).
  const emit = (batch: ResultRowBatch | null): Iterable<ResultRowBatch> => (batch ? withNames(batch) : NO_BATCHES);

  const writer: RowWriter = { builder, stored, emit, release, releasing: options.release === true, searchBlocksFrom: limits.searchBlocksFrom };
  yield* findingRows(result, writer);
  yield* suggestionRows(result, writer);
  yield* scoreRows(result, writer);
  yield* semanticRows(result, writer);
  yield* emit(builder.flush());
  return builder.rowsWritten;
}

/** What each kind of row is written with: the batches, the stored forms, and the lists to empty once written. */
interface RowWriter {
  builder: BatchBuilder;
  stored: ReturnType<typeof storedForms>;
  /** A full batch out (after the names its compact refs stand for), or nothing. */
  emit: (batch: ResultRowBatch | null) => Iterable<ResultRowBatch>;
  release: (...lists: unknown[][]) => void;
  releasing: boolean;
  searchBlocksFrom: number;
}

/**
 * The money ranks of a table's rows and the bloom their texts fill (search-blocks.ts), for a table of
 * at least `searchBlocksFrom` rows; else none (its rows' rank is NULL).
 */
function searchBlocksOf<T>(rows: readonly T[], money: (row: T) => number, writer: RowWriter): { ranks: Int32Array; bloom: SearchBloom } | null {
  return rows.length >= writer.searchBlocksFrom ? { ranks: moneyRanks(rows.map(money)), bloom: new SearchBloom(rows.length) } : null;
}

/** The row of a table's bloom, after its rows. */
const bloomRow = (writer: RowWriter, scope: 'findings' | 'suggestions', blocks: { bloom: SearchBloom } | null) =>
  blocks ? writer.emit(writer.builder.addRow('analysis_search_blooms', [scope, blocks.bloom.blocks, blocks.bloom.hex()], 0)) : NO_BATCHES;

/** The findings, a row each, then their items in chunks. */
function* findingRows({ scoring }: AuditResult, writer: RowWriter): Generator<ResultRowBatch> {
  const blocks = searchBlocksOf(scoring.findings, (finding) => finding.moneyPerMonth ?? 0, writer);
  for (let position = 0; position < scoring.findings.length; position++) {
    const finding = scoring.findings[position]!;
    const keys = entityKeys(finding.target);
    const itemLabels = (finding.items ?? []).slice(0, 50).map((item) => item.target.label);
    const search = searchText(finding.title, ...refText(finding.target), ...itemLabels);
    const rank = blocks ? blocks.ranks[position]! : null;
    if (blocks) blocks.bloom.add(search, rank!);
    yield* writer.emit(
      writer.builder.add(
        'analysis_findings',
        [
          finding.id,
          position,
          finding.checkId,
          finding.severity,
          finding.family,
          finding.target.level,
          keys.campaign,
          keys.group,
          finding.moneyPerMonth ?? 0,
          finding.count ?? 1,
          search,
          rank,
        ],
        writer.stored.finding(findingWithoutItems(finding)),
      ),
    );
  }
  yield* bloomRow(writer, 'findings', blocks);
  for (const finding of scoring.findings) {
    // The first chunk is the examples a findings page shows, so that page reads a small row per finding.
    for (const chunk of chunksOf(finding.items ?? [], undefined, FINDING_EXAMPLE_ITEMS, writer.stored.item)) {
      yield* writer.emit(writer.builder.add('analysis_finding_items', [finding.id, chunk.position, (chunk.first as { moneyPerMonth?: number }).moneyPerMonth ?? 0, chunk.count], null, chunk.json));
    }
    if (writer.releasing) delete finding.items;
  }
  writer.release(scoring.findings);
}

/** The suggestions of the checks, the cross-minus and the negatives, in that order. */
function* suggestionRows({ scoring, semantic }: AuditResult, writer: RowWriter): Generator<ResultRowBatch> {
  const suggestions: Suggestion[] = [...scoring.suggestions, ...semantic.crossMinus, ...semantic.negatives];
  const blocks = searchBlocksOf(suggestions, suggestionMoney, writer);
  for (let position = 0; position < suggestions.length; position++) {
    const suggestion = suggestions[position]!;
    const keys = entityKeys(suggestion.target);
    const search = suggestionSearch(suggestion);
    const rank = blocks ? blocks.ranks[position]! : null;
    if (blocks) blocks.bloom.add(search, rank!);
    yield* writer.emit(
      writer.builder.add(
        'analysis_suggestions',
        [
          suggestion.id,
          position,
          suggestion.kind,
          suggestion.kind === 'negative_keyword' ? suggestion.category : null,
          suggestion.kind === 'negative_keyword' ? suggestion.status : null,
          suggestion.kind === 'ad_field' ? 'ad' : suggestion.level,
          keys.campaign,
          keys.group,
          suggestionMoney(suggestion),
          search,
          rank,
        ],
        writer.stored.suggestion(suggestion),
      ),
    );
  }
  yield* bloomRow(writer, 'suggestions', blocks);
  writer.release(suggestions, scoring.suggestions, semantic.crossMinus, semantic.negatives);
}

/** The scores that are stored, level by level. */
function* scoreRows({ scoring }: AuditResult, writer: RowWriter): Generator<ResultRowBatch> {
  const levels: [string, EntityScore[]][] = [
    ['campaign', scoring.campaigns],
    ['group', scoring.groups],
    ['ad', scoring.ads],
    ['keyword', scoring.keywords],
  ];
  for (const [level, scores] of levels) {
    for (let position = 0; position < scores.length; position++) {
      const score = scores[position]!;
      if (!scoreIsStored(level, score)) continue;
      const keys = entityKeys(score.target);
      yield* writer.emit(writer.builder.add('analysis_scores', [level, score.target.key, position, keys.campaign, keys.group, score.score, score.moneyPerMonth], writer.stored.score(score)));
    }
    writer.release(scores);
  }
}

/** The semantic sections in chunks by group, and the non-target queries' blocks a row each. */
function* semanticRows({ scoring, semantic }: AuditResult, writer: RowWriter): Generator<ResultRowBatch> {
  const sections: [StoredSemanticSection, readonly unknown[], (item: never) => EntityRef | undefined, (item: never) => unknown][] = [
    ['clusters', semantic.clusters, (item: { keywords: EntityRef[] }) => item.keywords[0], writer.stored.withKeywords],
    ['duplicates', semantic.duplicates, (item: { keywords: EntityRef[] }) => item.keywords[0], writer.stored.withKeywords],
    ['intersections', semantic.intersections, (item: { narrower: EntityRef }) => item.narrower, writer.stored.intersection],
    ['relevance', semantic.relevance, (item: { target: EntityRef }) => item.target, writer.stored.relevance],
    ['collect_data', semantic.collectData, (item: { target: EntityRef }) => item.target, writer.stored.withTarget],
    ['dropped_negatives', semantic.droppedNegatives, (item: { target: EntityRef }) => item.target, writer.stored.withTarget],
    ['keyword_verdicts', scoring.keywordVerdicts, (item: { target: EntityRef }) => item.target, writer.stored.withTarget],
  ];
  for (const [section, items, refOf, storedForm] of sections) {
    const groupOf = (item: unknown) => {
      const keys = entityKeys(refOf(item as never));
      return keys.group ?? keys.campaign;
    };
    for (const chunk of chunksOf(items, groupOf, undefined, storedForm as (item: unknown) => unknown)) {
      const keys = entityKeys(refOf(chunk.first as never));
      yield* writer.emit(writer.builder.add('analysis_semantic', [section, chunk.position, keys.campaign, keys.group, chunk.count], null, chunk.json));
    }
    writer.release(items as unknown[]);
  }
  // One row per block: the decision counts join each block's suggestion ids with the decisions.
  const blocks = semantic.nonTargetQueries?.blockedBy ?? [];
  for (let position = 0; position < blocks.length; position++) {
    yield* writer.emit(writer.builder.add('analysis_semantic', ['query_blocks', position, null, null, 1], blocks[position]));
  }
}

// ------------------------------------------------------------------------------------ summary

const round2 = (value: number) => Math.round(value * 100) / 100;
/** Campaign scores kept in the summary (the rest are a page of `/scores`). */
export const SUMMARY_CAMPAIGNS = 100;
/** Findings and suggestions of `summary.top`. */
export const SUMMARY_TOP = 10;

/** The engine's money story, wherever the engine puts it (absent on results from before it existed). */
function moneyStoryOf(result: AuditResult): MoneyStory | null {
  const scoring = result.scoring as unknown as { moneyStory?: MoneyStory; money?: MoneyStory };
  const top = result as unknown as { moneyStory?: MoneyStory; money?: MoneyStory };
  return scoring.moneyStory ?? scoring.money ?? top.moneyStory ?? top.money ?? null;
}

/** A suggestion shortened for the summary (a negative's blocked queries: the first 5). */
function shortSuggestion(suggestion: Suggestion): Suggestion {
  if (suggestion.kind === 'negative_keyword') return { ...suggestion, queries: suggestion.queries.slice(0, 5) };
  if (suggestion.kind === 'cross_minus') return { ...suggestion, because: suggestion.because.slice(0, 5), remove: suggestion.remove.slice(0, 5) };
  return suggestion;
}

/**
 * Bytes of JSON the summary may take: under the 100 KB of the issue with room to spare. Everything in it
 * is bounded by count (checks, kinds, causes, 100 campaigns, 10 top items), but not every string is
 * (a campaign's name, a long fix): `fitSummary` trims the lists until it fits.
 */
export const SUMMARY_MAX_BYTES = 80_000;

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** Drops the least important entries (the last top items, then half the campaigns) until the summary fits. */
function fitSummary(summary: ResultsSummary): ResultsSummary {
  while (jsonBytes(summary) > SUMMARY_MAX_BYTES) {
    const { top, scores } = summary;
    if (top.suggestions.length > 3 && top.suggestions.length >= top.findings.length) top.suggestions = top.suggestions.slice(0, -1);
    else if (top.findings.length > 3) top.findings = top.findings.slice(0, -1);
    else if (scores.campaigns.length > 10) scores.campaigns = scores.campaigns.slice(0, Math.ceil(scores.campaigns.length / 2));
    else if (top.suggestions.length > 0 || top.findings.length > 0) summary.top = { findings: top.findings.slice(0, -1), suggestions: top.suggestions.slice(0, -1) };
    else break;
  }
  return summary;
}

/** The summary document of a result: bounded whatever the account's size (see `ResultsSummary`, `SUMMARY_MAX_BYTES`). */
export function buildResultsSummary(result: AuditResult): ResultsSummary {
  return fitSummary(unfittedSummary(result));
}

function unfittedSummary(result: AuditResult): ResultsSummary {
  const { scoring, semantic } = result;
  const { bySeverity, byCheck } = findingCounts(scoring);
  const suggestions: Suggestion[] = [...scoring.suggestions, ...semantic.crossMinus, ...semantic.negatives];
  const worstCampaigns = [...scoring.campaigns].sort((a, b) => a.score - b.score).slice(0, SUMMARY_CAMPAIGNS);
  const nonTarget: NonTargetQueries | undefined = semantic.nonTargetQueries;
  const notices = new Map<string, AnalysisNotice>();
  for (const notice of semantic.notices) notices.set(notice.code, notice);

  return {
    platform: scoring.platform,
    settings: scoring.settings,
    period: scoring.period,
    periodDays: scoring.periodDays,
    monthFactor: scoring.monthFactor,
    notices: scoring.notices,
    counts: scoring.counts,
    scores: { account: scoring.account, campaigns: worstCampaigns, campaignsTotal: scoring.campaigns.length },
    money: moneyStoryOf(result),
    wastedSpend: scoring.wastedSpend,
    bySeverity,
    byCheck,
    checks: scoring.checks,
    findingsTotal: scoring.findings.length,
    suggestions: {
      total: suggestions.length,
      byKind: suggestionCounts(suggestions),
    },
    semantic: {
      notices: [...notices.values()],
      counts: {
        ...semantic.counts,
        collectData: semantic.collectData.length,
        droppedNegatives: semantic.droppedNegatives.length,
        relevance: semantic.relevance.length,
        keywordVerdicts: scoring.keywordVerdicts.length,
      },
    },
    nonTargetQueries: nonTarget
      ? {
          queries: nonTarget.queries,
          clicks: nonTarget.clicks,
          cost: nonTarget.cost,
          costPerMonth: nonTarget.costPerMonth,
          period: nonTarget.period,
          periodDays: nonTarget.periodDays,
          monthFactor: nonTarget.monthFactor,
        }
      : null,
    top: {
      findings: topByMoney(scoring.findings, (f) => f.moneyPerMonth ?? 0, SUMMARY_TOP).map((finding) => ({
        ...findingWithoutItems(finding),
        ...(finding.items ? { items: finding.items.slice(0, 3) } : {}),
      })),
      suggestions: topByMoney(suggestions, suggestionMoney, SUMMARY_TOP).map(shortSuggestion),
    },
  };
}

/** The findings counted by severity and by check (the most money first), with their entities and money. */
function findingCounts(scoring: AuditResult['scoring']): Pick<ResultsSummary, 'bySeverity' | 'byCheck'> {
  const checkTitles = new Map(scoring.checks.map((check) => [check.id, check]));
  const byCheck = new Map<string, CheckCount>();
  const bySeverity: ResultsSummary['bySeverity'] = {
    high: { findings: 0, entities: 0, moneyPerMonth: 0 },
    medium: { findings: 0, entities: 0, moneyPerMonth: 0 },
    low: { findings: 0, entities: 0, moneyPerMonth: 0 },
  };
  for (const finding of scoring.findings) {
    const entities = finding.count ?? 1;
    const money = finding.moneyPerMonth ?? 0;
    const check = byCheck.get(finding.checkId) ?? {
      checkId: finding.checkId,
      title: checkTitles.get(finding.checkId)?.title ?? finding.title,
      family: finding.family,
      severity: finding.severity,
      findings: 0,
      entities: 0,
      moneyPerMonth: 0,
    };
    check.findings++;
    check.entities += entities;
    check.moneyPerMonth += money;
    byCheck.set(finding.checkId, check);
    const severity = bySeverity[finding.severity as Severity];
    severity.findings++;
    severity.entities += entities;
    severity.moneyPerMonth += money;
  }
  for (const severity of Object.values(bySeverity)) severity.moneyPerMonth = round2(severity.moneyPerMonth);
  return {
    bySeverity,
    byCheck: [...byCheck.values()].map((check) => ({ ...check, moneyPerMonth: round2(check.moneyPerMonth) })).sort((a, b) => b.moneyPerMonth - a.moneyPerMonth || b.entities - a.entities),
  };
}

/** The suggestions counted by kind, category and status, with their money. */
function suggestionCounts(suggestions: readonly Suggestion[]): ResultsSummary['suggestions']['byKind'] {
  const suggestionCounts = new Map<string, SuggestionCount>();
  for (const suggestion of suggestions) {
    const category = suggestion.kind === 'negative_keyword' ? suggestion.category : null;
    const status = suggestion.kind === 'negative_keyword' ? suggestion.status : null;
    const key = `${suggestion.kind}/${category}/${status}`;
    const entry = suggestionCounts.get(key) ?? { kind: suggestion.kind, category, status, count: 0, costPerMonth: 0 };
    entry.count++;
    entry.costPerMonth += suggestionMoney(suggestion);
    suggestionCounts.set(key, entry);
  }
  return [...suggestionCounts.values()].map((entry) => ({ ...entry, costPerMonth: round2(entry.costPerMonth) }));
}

/** The `take` items of the most money, most first. */
function topByMoney<T>(items: readonly T[], money: (item: T) => number, take: number): T[] {
  // A bounded selection without sorting the whole list (it may hold a million entries).
  const top: T[] = [];
  for (const item of items) {
    if (top.length < take) {
      top.push(item);
      top.sort((a, b) => money(b) - money(a));
    } else if (money(item) > money(top[take - 1]!)) {
      top[take - 1] = item;
      top.sort((a, b) => money(b) - money(a));
    }
  }
  return top;
}

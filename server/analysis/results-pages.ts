/**
 * Reading the results of a completed analysis page by page from the row tables (see result-rows.ts and
 * migration 0060), and the user's decisions on its suggestions as rows. Every function takes an
 * analysis already found in the caller's organization (`findCompletedAnalysis`), so another
 * organization's analysis is 404 before any of these runs.
 *
 * Each page is one indexed query plus a count; no function ever reads the whole result.
 */
import { sql, type RawBuilder } from 'kysely';
import {
  FINDING_EXAMPLE_ITEMS,
  RESULTS_PAGE_SIZE_DEFAULT,
  RESULTS_TOTAL_CAP,
  type BulkDecisionResponse,
  type DecisionChange,
  type DecisionChangesResponse,
  type DecisionCounts,
  type FindingItemsPage,
  type FindingsFilter,
  type FindingsPage,
  type PagedResults,
  type ResultsSummary,
  type ScoreLevel,
  type ScoresPage,
  type SemanticPage,
  type SemanticSection,
  type SuggestionsFilter,
  type SuggestionsPage,
  type SuggestionWithDecision,
} from '../../contract/analysis-pages.js';
import type { EntityScore, Finding, FindingItem, Severity, Suggestion } from '../../contract/analysis-results.js';
import type { AnalysisDecisions } from '../../contract/analysis.js';
import { analysisMessages as m, analysisPageMessages as pm } from '../../contract/messages.js';
import type { DB } from '../db/database.js';
import { conflict, notFound, validationError } from '../lib/errors.js';
import { expandStoredRefs } from './entity-names.js';
import { CHUNK_ITEMS } from './result-rows.js';
import { blocksHoldingAll, SEARCH_BLOCK_ROWS, SEARCH_BLOCK_SHIFT, trigramSlots } from './search-blocks.js';
import { findAnalysisRow, toAnalysis } from './service.js';

type AnalysisRow = Awaited<ReturnType<typeof findAnalysisRow>>;

/** The analysis (in the caller's organization, or any for `null`), completed. */
export async function findCompletedAnalysis(db: DB, organizationId: string | null, analysisId: string): Promise<AnalysisRow> {
  const row = await findAnalysisRow(db, organizationId, analysisId);
  if (row.status !== 'completed') throw conflict(m.notCompleted, 'ANALYSIS_NOT_COMPLETED');
  return row;
}

interface PageRequest {
  page: number;
  page_size: number;
}
const offsetOf = (request: PageRequest) => (request.page - 1) * request.page_size;

/** `text` matched literally by LIKE (its `\\`, `%` and `_` escaped). */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** A typed text as the `search` columns hold theirs: lower case, ё as е. */
const searchForm = (text: string) => text.toLowerCase().replace(/ё/g, 'е');
/** `LIKE` pattern for a search in the `search` columns. */
const likePattern = (text: string) => `%${likeEscaped(searchForm(text))}%`;

/**
 * The blocks of a table's money order that can hold a text (search-blocks.ts): their bits (numbered as
 * `get_bit` numbers them) and the first and last. `null`: no narrowing (the analysis has no blooms for
 * the table, the text is under three characters, or every block may hold it); `none`: no block can, so
 * nothing matches.
 */
interface TextBlocks {
  bits: Buffer;
  first: number;
  last: number;
}

export async function textBlocks(db: DB, analysisId: string, scope: 'findings' | 'suggestions', text: string): Promise<TextBlocks | 'none' | null> {
  const slots = trigramSlots(searchForm(text));
  if (slots.length === 0) return null;
  const stored = await sql<{ blocks: number; slices: Buffer[] }>`
    SELECT b.blocks, array_agg(substring(b.bits FROM h.slot * ((b.blocks + 7) / 8) + 1 FOR (b.blocks + 7) / 8)) AS slices
      FROM analysis_search_blooms b CROSS JOIN unnest(${slots}::int[]) AS h(slot)
     WHERE b.analysis_id = ${analysisId} AND b.scope = ${scope}
     GROUP BY b.blocks`.execute(db);
  const row = stored.rows[0];
  if (!row) return null;
  const held = blocksHoldingAll(row.slices, row.blocks);
  if (!held) return 'none';
  return held.count === row.blocks ? null : held;
}

/**
 * Rows of the blocks `blocks` only (alias `alias`): a range of the money rank (its index, read in the
 * pages' order), and within it the blocks' bits.
 */
const inTextBlocks = (alias: string, blocks: TextBlocks) => {
  const rank = sql.ref(`${alias}.money_rank`);
  return sql`${rank} >= ${blocks.first * SEARCH_BLOCK_ROWS} AND ${rank} < ${(blocks.last + 1) * SEARCH_BLOCK_ROWS} AND get_bit(${blocks.bits}::bytea, ${rank} >> ${sql.lit(SEARCH_BLOCK_SHIFT)}) <> 0`;
};

/** An empty page (a text no block of the table holds). */
const emptyPage = (request: PageRequest) => ({ items: [], total: 0, total_capped: false, page: request.page, page_size: request.page_size });

const and = (conditions: RawBuilder<unknown>[]) => (conditions.length === 0 ? sql`TRUE` : sql.join(conditions, sql` AND `));

/**
 * `column` is one of `values`: a plain `=` for one value (the filters of the screens send one), which
 * the planner matches to an index column as well as an ordered index scan; `= ANY` for several.
 */
const oneOf = (column: RawBuilder<unknown>, values: string[]) => (values.length === 1 ? sql`${column} = ${values[0]}` : sql`${column} = ANY(${values}::text[])`);

/**
 * The total of a page of `FROM … WHERE …` (`fromWhere`) that holds `rowsOnPage` rows. The last page
 * (not full, and not an empty one past the first) tells it without a count. Otherwise the matches are
 * counted up to `RESULTS_TOTAL_CAP` and no further: the count of a filter matching 500 000 suggestions
 * stops after 10 001 index entries. (Asked after the page, not beside it: a filter matching nothing,
 * which reads as much as its page, is counted once.)
 */
async function pageTotal(db: DB, fromWhere: RawBuilder<unknown>, request: PageRequest, rowsOnPage: number): Promise<{ total: number; total_capped: boolean }> {
  if (rowsOnPage < request.page_size && (rowsOnPage > 0 || request.page === 1)) return { total: offsetOf(request) + rowsOnPage, total_capped: false };
  const counted = await sql<{ total: number }>`SELECT count(*)::int AS total FROM (SELECT 1 FROM ${fromWhere} LIMIT ${RESULTS_TOTAL_CAP + 1}) matched`.execute(db);
  const total = counted.rows[0]!.total;
  return total > RESULTS_TOTAL_CAP ? { total: RESULTS_TOTAL_CAP, total_capped: true } : { total, total_capped: false };
}

/**
 * The items of chunk rows `r` (analysis_finding_items, analysis_semantic; see result-rows.ts `chunksOf`)
 * as `e.item`, the n-th of its row as `e.n`: item index `r.position + e.n - 1`. A chunk's document is an
 * array; a row written before chunks (0070) is one item.
 */
const chunkItems = sql.raw(`CROSS JOIN LATERAL json_array_elements(CASE WHEN json_typeof(r.document) = 'array' THEN r.document ELSE json_build_array(r.document) END) WITH ORDINALITY AS e(item, n)`);

/**
 * Conditions on chunk rows `r` and their items `e` for the items [from, to): a row holding one of them
 * starts less than `CHUNK_ITEMS` before `from`, so the position index is a range scan at any depth.
 */
const itemRange = (from: number, to: number) =>
  sql`r.position > ${from - CHUNK_ITEMS} AND r.position < ${to} AND r.position + e.n - 1 >= ${from} AND r.position + e.n - 1 < ${to}`;

// ------------------------------------------------------------------------------------ findings

/**
 * A finding's severity as its rank in `sort=severity` (high first). The same expression as the index
 * analysis_findings_severity_idx (migration 0107), so the severity filter and sort read that index.
 */
const severityRank = (alias: string) => sql.raw(`(CASE ${alias}.severity WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END)`);
const severityRanks: Record<Severity, number> = { high: 0, medium: 1, low: 2 };

function findingConditions(analysisId: string, filter: Omit<FindingsFilter, 'page' | 'page_size' | 'sort'>, blocks?: TextBlocks | null): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [sql`f.analysis_id = ${analysisId}`];
  if (filter.severity?.length) {
    const ranks = filter.severity.map((severity) => severityRanks[severity as Severity]);
    conditions.push(ranks.length === 1 ? sql`${severityRank('f')} = ${ranks[0]}` : sql`${severityRank('f')} = ANY(${ranks}::int[])`);
  }
  if (filter.check?.length) conditions.push(oneOf(sql`f.check_id`, filter.check));
  if (filter.campaign?.length) conditions.push(oneOf(sql`f.campaign_key`, filter.campaign));
  if (filter.group?.length) conditions.push(oneOf(sql`f.group_key`, filter.group));
  if (filter.text) conditions.push(sql`f.search LIKE ${likePattern(filter.text)}`);
  if (blocks) conditions.push(inTextBlocks('f', blocks));
  return and(conditions);
}

/** A page of findings, each with at most `FINDING_EXAMPLE_ITEMS` items (worst first) when it has any. */
export async function findingsPage(db: DB, analysisId: string, filter: FindingsFilter): Promise<FindingsPage> {
  // A text alone, by money: walked along the money rank, in the blocks that can hold it (search-blocks.ts).
  const byTextAlone = filter.text && filter.sort !== 'severity' && !filter.severity?.length && !filter.check?.length && !filter.campaign?.length && !filter.group?.length;
  const blocks = byTextAlone ? await textBlocks(db, analysisId, 'findings', filter.text!) : null;
  if (blocks === 'none') return emptyPage(filter);
  const where = findingConditions(analysisId, filter, blocks);
  // With the blocks, the rank is the money order (money highest first, then position), so its index walks it.
  const order = (alias: string) =>
    filter.sort === 'severity'
      ? sql`${severityRank(alias)}, ${sql.raw(`${alias}.money_per_month DESC, ${alias}.position`)}`
      : sql.raw(blocks && alias === 'f' ? 'f.money_rank' : `${alias}.money_per_month DESC, ${alias}.position`);
  const rows = await sql<{ document: Finding; examples: FindingItem[] | null }>`
      SELECT page.document,
             (SELECT json_agg(e.item ORDER BY r.position, e.n)
                FROM analysis_finding_items r ${chunkItems}
               WHERE r.analysis_id = ${analysisId} AND r.finding_id = page.id AND ${itemRange(0, FINDING_EXAMPLE_ITEMS)}) AS examples
        FROM (SELECT f.id, f.document, f.money_per_month, f.position, f.severity
                FROM analysis_findings f WHERE ${where} ORDER BY ${order('f')} LIMIT ${filter.page_size} OFFSET ${offsetOf(filter)}) page
       ORDER BY ${order('page')}`.execute(db);
  // With the blocks, counted along the rank too: the trigram index would hand over every match (50 000
  // findings for «много фраз», 30–55 ms) where the walk stops at the cap.
  const total = await pageTotal(db, sql`analysis_findings f WHERE ${where}${blocks ? sql` ORDER BY f.money_rank` : sql``}`, filter, rows.rows.length);
  return {
    items: await expandStoredRefs(
      db,
      analysisId,
      rows.rows.map(({ document, examples }) => (examples ? { ...document, items: examples } : document)),
    ),
    ...total,
    page: filter.page,
    page_size: filter.page_size,
  };
}

export async function findingItemsPage(db: DB, analysisId: string, findingId: string, request: PageRequest): Promise<FindingItemsPage> {
  const finding = await db.selectFrom('analysis_findings').select('count').where('analysis_id', '=', analysisId).where('id', '=', findingId).executeTakeFirst();
  if (!finding) throw notFound(pm.findingNotFound, 'FINDING_NOT_FOUND');
  const from = offsetOf(request);
  const [rows, total] = await Promise.all([
    sql<{ document: FindingItem }>`
      SELECT e.item AS document FROM analysis_finding_items r ${chunkItems}
       WHERE r.analysis_id = ${analysisId} AND r.finding_id = ${findingId} AND ${itemRange(from, from + request.page_size)}
       ORDER BY r.position, e.n`.execute(db),
    sql<{ total: number }>`SELECT coalesce(sum(count), 0)::int AS total FROM analysis_finding_items WHERE analysis_id = ${analysisId} AND finding_id = ${findingId}`.execute(db),
  ]);
  return { items: await expandStoredRefs(db, analysisId, rows.rows.map((row) => row.document)), total: total.rows[0]!.total, page: request.page, page_size: request.page_size };
}

// ------------------------------------------------------------------------------------ suggestions

/**
 * Conditions on `s` (analysis_suggestions). The decision filter looks the suggestion's decision up by
 * its key (an anti-join for `undecided`, or its bit when the decided positions are given), so the page
 * and its count need no join with the decisions.
 */
function suggestionConditions(analysisId: string, filter: SuggestionsFilter, bits?: DecisionBits, blocks?: TextBlocks | null): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [sql`s.analysis_id = ${analysisId}`];
  // Only negatives have a category and a status (result-rows.ts): with either filter, «negatives» is
  // already implied, and left out the page and its count read the category or status index alone.
  const negativesOnly = Boolean(filter.category?.length || filter.status?.length);
  const kinds = negativesOnly && filter.kind?.includes('negative_keyword') ? undefined : filter.kind;
  if (kinds?.length) conditions.push(oneOf(sql`s.kind`, kinds));
  if (filter.category?.length) conditions.push(oneOf(sql`s.category`, filter.category));
  if (filter.status?.length) conditions.push(oneOf(sql`s.status`, filter.status));
  if (filter.campaign?.length) conditions.push(oneOf(sql`s.campaign_key`, filter.campaign));
  if (filter.group?.length) conditions.push(oneOf(sql`s.group_key`, filter.group));
  if (filter.text) conditions.push(sql`s.search LIKE ${likePattern(filter.text)}`);
  if (blocks) conditions.push(inTextBlocks('s', blocks));
  if (filter.decision?.length) {
    const decided = filter.decision.filter((decision) => decision !== 'undecided');
    const parts: RawBuilder<unknown>[] = [];
    if (bits) {
      // With the decision bits known, every decision filter is a bit of the query's parameters: the walk
      // in the filter's order reads its index alone instead of one decision per row (migrations 0112, 0175).
      // Written as «<>»: the planner's guess for an expression it has no statistics of is then that
      // nearly every row matches (for «=», one in 200), so it walks the filter's index in order and
      // stops, where for a count of 10 001 it planned a parallel scan of everything (50–70 ms for 57
      // index pages on a busy machine).
      const isDecided = sql`get_bit(${bits.decided}::bytea, s.position)`;
      const isAccepted = sql`get_bit(${bits.accepted}::bytea, s.position)`;
      if (decided.length === 2) parts.push(sql`${isDecided} <> 0`);
      else if (decided[0] === 'accepted') parts.push(sql`${isAccepted} <> 0`);
      else if (decided[0] === 'rejected') parts.push(sql`(${isDecided} <> 0 AND ${isAccepted} <> 1)`);
      if (filter.decision.includes('undecided')) parts.push(sql`${isDecided} <> 1`);
    } else {
      const decision = sql`SELECT 1 FROM analysis_decisions x WHERE x.analysis_id = s.analysis_id AND x.suggestion_id = s.id`;
      if (decided.length === 1) parts.push(sql`EXISTS (${decision} AND x.decision = ${decided[0]})`);
      // Both decisions: decided at all.
      if (decided.length === 2) parts.push(sql`EXISTS (${decision})`);
      if (filter.decision.includes('undecided')) parts.push(sql`NOT EXISTS (${decision})`);
    }
    conditions.push(parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` OR `)})`);
  }
  return and(conditions);
}

/** Below this many decided suggestions a filter of decided ones starts from the decisions (`suggestionsPage`). */
const FEW_DECISIONS = 5_000;

const storedDecisionCounts = async (db: DB, analysisId: string) =>
  (await sql<{ counts: DecisionCounts | null }>`SELECT decision_counts AS counts FROM analyses WHERE id = ${analysisId}`.execute(db)).rows[0]?.counts ?? null;

/** A page of suggestions with their decisions, by money (cost per month saved) then the engine's order. */
export async function suggestionsPage(db: DB, analysisId: string, filter: SuggestionsFilter & PageRequest): Promise<SuggestionsPage> {
  let bits: DecisionBits | undefined;
  if (filter.decision?.length) {
    // A filter of decided suggestions only, of which the stored counts say there are few: the planner
    // starts from the decisions (their index by decision), where the bits would walk the whole list to
    // find them (60 ms at 750 000 for «rejected» when none is); none at all is an empty page.
    const counts = filter.decision.includes('undecided') ? null : await storedDecisionCounts(db, analysisId);
    const decided = counts ? filter.decision.reduce((sum, decision) => sum + (decision === 'accepted' ? counts.accepted : counts.rejected), 0) : null;
    if (decided === 0) return { items: [], total: 0, total_capped: false, page: filter.page, page_size: filter.page_size };
    if (decided === null || decided >= FEW_DECISIONS) bits = await decisionBitsOf(db, analysisId);
  }
  // A text with no other filter but a decision: walked along the money rank, in the blocks that can hold it (search-blocks.ts).
  const byTextAlone = filter.text && !filter.kind?.length && !filter.category?.length && !filter.status?.length && !filter.campaign?.length && !filter.group?.length;
  const blocks = byTextAlone ? await textBlocks(db, analysisId, 'suggestions', filter.text!) : null;
  if (blocks === 'none') return emptyPage(filter);
  const where = suggestionConditions(analysisId, filter, bits, blocks);
  // With the blocks, the rank is the money order (money highest first, then position), so its index walks it.
  const order = blocks ? sql`s.money_rank` : sql`s.cost_per_month DESC, s.position`;
  // The page's positions first, from the filter's index alone where its conditions are all in it (an
  // index-only scan: the undecided filter after a bulk accept walks 250 000 entries of it), then each
  // row by its position, and its decision by its key (LIMIT 1 keeps the lookup per row).
  const rows = await sql<{ document: Suggestion; decision: 'accepted' | 'rejected' | null; value: string | null }>`
      SELECT row.document, d.decision, d.value
        FROM (SELECT s.cost_per_month, s.position FROM analysis_suggestions s
               WHERE ${where} ORDER BY ${order} LIMIT ${filter.page_size} OFFSET ${offsetOf(filter)}) page
        JOIN analysis_suggestions row ON row.analysis_id = ${analysisId} AND row.position = page.position
        LEFT JOIN LATERAL (SELECT x.decision, x.value FROM analysis_decisions x WHERE x.analysis_id = ${analysisId} AND x.suggestion_id = row.id LIMIT 1) d ON TRUE
       ORDER BY page.cost_per_month DESC, page.position`.execute(db);
  // Decided ones only, read along the bits: counted in the page's order, over the entries its walk has
  // just read (in another order, the count of the 250 000 accepted dearest walked 500 000 cheaper ones).
  // A text in its blocks too: along the rank, where the trigram index would hand over every match.
  const inOrder = (bits && !filter.decision?.includes('undecided')) || blocks;
  const total = await pageTotal(db, sql`analysis_suggestions s WHERE ${where}${inOrder ? sql` ORDER BY ${order}` : sql``}`, filter, rows.rows.length);
  return {
    items: await expandStoredRefs(
      db,
      analysisId,
      rows.rows.map(({ document, decision, value }) => ({ ...document, decision, ...(value !== null ? { value } : {}) }) as SuggestionWithDecision),
    ),
    ...total,
    page: filter.page,
    page_size: filter.page_size,
  };
}

// ------------------------------------------------------------------------------------ decisions

/** Counts of the decisions, and what the accepted negatives block of the non-target queries. */
export async function decisionCounts(db: DB, analysisId: string, report: ResultsSummary | null): Promise<DecisionCounts> {
  if (!report) return countDecisions(db, analysisId, null);
  return keptOnAnalysis(db, analysisId, 'decision_counts', (trx) => countDecisions(trx, analysisId, report), storeDecisionCounts);
}

/**
 * A value the analysis row keeps, which every write of decisions keeps up to date in its own
 * transaction (`lockDecisions`, then `keepDecisionState` or a click's own moves): the decision counts,
 * the decided positions. Read as stored; computed and stored under the decision lock only where it is
 * not known yet (an analysis no page has read yet, or one converted from a legacy result).
 */
async function keptOnAnalysis<T>(
  db: DB,
  analysisId: string,
  column: 'decision_counts',
  compute: (trx: DB) => Promise<T>,
  store: (trx: DB, analysisId: string, value: T) => Promise<unknown>,
): Promise<T> {
  const read = async (from: DB, lock: boolean) =>
    (await sql<{ value: T | null }>`SELECT ${sql.ref(column)} AS value FROM analyses WHERE id = ${analysisId} ${lock ? sql`FOR NO KEY UPDATE` : sql``}`.execute(from)).rows[0]?.value ?? null;
  const stored = await read(db, false);
  if (stored !== null) return stored;
  return db.transaction().execute(async (trx) => {
    const locked = await read(trx, true);
    if (locked !== null) return locked;
    const value = await compute(trx);
    await store(trx, analysisId, value);
    return value;
  });
}

/**
 * Which suggestions are decided and which accepted, one bit per position each (numbered as PostgreSQL's
 * `get_bit` numbers them): `analyses.decided_positions` (migration 0112) and `accepted_positions` (0175).
 */
interface DecisionBits {
  decided: Buffer;
  accepted: Buffer;
}

/** The decision state the analysis row keeps (null: not known yet). */
interface DecisionState {
  counts: DecisionCounts | null;
  bits: DecisionBits | null;
}

/**
 * Takes the analysis's decision lock for the rest of the transaction and answers the decision state it
 * keeps. Every write of decisions starts with it, so writes of one analysis's decisions run one after
 * another, and each leaves the state right for what it wrote before it commits: a read never finds it
 * stale or missing after a write, so after any write (a bulk accept of 250 000 included) the counts and
 * the undecided filter read it as stored instead of counting (1.4 s and 0.7 s at 1 000 000 keywords,
 * paid by the first read after each bulk decision while the writes cleared it).
 */
async function lockDecisions(db: DB, analysisId: string): Promise<DecisionState> {
  const locked = await sql<{ counts: DecisionCounts | null; decided: Buffer | null; accepted: Buffer | null }>`
    SELECT decision_counts AS counts, decided_positions AS decided, accepted_positions AS accepted FROM analyses WHERE id = ${analysisId} FOR NO KEY UPDATE`.execute(db);
  const row = locked.rows[0];
  return { counts: row?.counts ?? null, bits: row?.decided && row.accepted ? { decided: row.decided, accepted: row.accepted } : null };
}

/**
 * The decision state after a write of many decisions, stored in the write's transaction: the decided
 * and accepted positions moved by the positions it wrote (`marked`, all now with one decision) where
 * they were known, else computed from the decisions; the counts as the write moved them (`moved`), else
 * counted again (one pass over the blocks).
 */
async function keepDecisionState(
  trx: DB,
  analysisId: string,
  report: ResultsSummary | null,
  stored: DecisionState,
  marked: { positions: number[]; decision: Decision } | null,
  moved: DecisionCounts | null = null,
): Promise<DecisionCounts> {
  let bits: DecisionBits;
  if (stored.bits && marked) {
    bits = { decided: Buffer.from(stored.bits.decided), accepted: Buffer.from(stored.bits.accepted) };
    for (const position of marked.positions) markDecision(bits, position, marked.decision);
  } else bits = await computeDecisionBits(trx, analysisId);
  await storeDecisionBits(trx, analysisId, bits);
  const counts = moved ?? (await countDecisions(trx, analysisId, report));
  // Without a summary (a completed analysis always has one) there are no blocked queries to keep.
  if (report) await storeDecisionCounts(trx, analysisId, counts);
  return counts;
}

const storeDecisionCounts = (db: DB, analysisId: string, counts: DecisionCounts) =>
  sql`UPDATE analyses SET decision_counts = ${JSON.stringify(counts)}::jsonb WHERE id = ${analysisId}`.execute(db);
const storeDecisionBits = (db: DB, analysisId: string, bits: DecisionBits) =>
  sql`UPDATE analyses SET decided_positions = ${bits.decided}, accepted_positions = ${bits.accepted} WHERE id = ${analysisId}`.execute(db);

/** Sets or clears the bit of `position`, numbered as PostgreSQL's `get_bit` numbers them (bit 0: the lowest of byte 0). */
function markPosition(bits: Buffer, position: number, set: boolean): void {
  const mask = 1 << (position & 7);
  bits[position >> 3] = set ? bits[position >> 3]! | mask : bits[position >> 3]! & ~mask;
}

function markDecision(bits: DecisionBits, position: number, decision: Decision): void {
  markPosition(bits.decided, position, decision !== 'undecided');
  markPosition(bits.accepted, position, decision === 'accepted');
}

/**
 * The decision bits of the analysis, kept by every write of decisions; computed from the decisions and
 * stored under the decision lock where not known yet.
 */
async function decisionBitsOf(db: DB, analysisId: string): Promise<DecisionBits> {
  const read = async (from: DB, lock: boolean) => {
    const row = (
      await sql<{ decided: Buffer | null; accepted: Buffer | null }>`
        SELECT decided_positions AS decided, accepted_positions AS accepted FROM analyses WHERE id = ${analysisId} ${lock ? sql`FOR NO KEY UPDATE` : sql``}`.execute(from)
    ).rows[0];
    return row?.decided && row.accepted ? { decided: row.decided, accepted: row.accepted } : null;
  };
  const stored = await read(db, false);
  if (stored) return stored;
  return db.transaction().execute(async (trx) => {
    const locked = await read(trx, true);
    if (locked) return locked;
    const bits = await computeDecisionBits(trx, analysisId);
    await storeDecisionBits(trx, analysisId, bits);
    return bits;
  });
}

async function computeDecisionBits(db: DB, analysisId: string): Promise<DecisionBits> {
  const size = await sql<{ positions: number }>`SELECT coalesce(max(position) + 1, 0)::int AS positions FROM analysis_suggestions WHERE analysis_id = ${analysisId}`.execute(db);
  const bytes = Math.ceil(size.rows[0]!.positions / 8);
  const bits = { decided: Buffer.alloc(bytes), accepted: Buffer.alloc(bytes) };
  const decided = await sql<{ position: number; decision: Decision }>`
    SELECT s.position, d.decision FROM analysis_decisions d JOIN analysis_suggestions s ON s.analysis_id = d.analysis_id AND s.id = d.suggestion_id
     WHERE d.analysis_id = ${analysisId}`.execute(db);
  for (const { position, decision } of decided.rows) markDecision(bits, position, decision);
  return bits;
}

async function countDecisions(db: DB, analysisId: string, report: ResultsSummary | null): Promise<DecisionCounts> {
  const counts = await sql<{ accepted: number; rejected: number }>`
    SELECT count(*) FILTER (WHERE decision = 'accepted')::int AS accepted, count(*) FILTER (WHERE decision = 'rejected')::int AS rejected
      FROM analysis_decisions WHERE analysis_id = ${analysisId}`.execute(db);
  const nonTarget = report?.nonTargetQueries ?? null;
  let blockedQueries: DecisionCounts['blockedQueries'] = null;
  if (nonTarget) {
    // A row of the report counts once however many accepted negatives block it (entries are disjoint).
    // Each id of a block is looked up by the decisions' key (a scalar subquery, which the planner keeps
    // per id): as a join it hashed every accepted decision once per block, quadratic past thousands.
    const blocked =
      counts.rows[0]!.accepted === 0
        ? { rows: [{ queries: 0, clicks: 0, cost: 0 }] }
        : await sql<{ queries: number; clicks: number; cost: number }>`
      SELECT coalesce(sum((b.document ->> 'queries')::float8), 0) AS queries,
             coalesce(sum((b.document ->> 'clicks')::float8), 0) AS clicks,
             coalesce(sum((b.document ->> 'cost')::float8), 0) AS cost
        FROM analysis_semantic b
       WHERE b.analysis_id = ${analysisId} AND b.section = 'query_blocks'
         AND EXISTS (SELECT 1 FROM json_array_elements_text(b.document -> 'suggestionIds') AS sid(id)
                      WHERE (SELECT d.decision FROM analysis_decisions d WHERE d.analysis_id = b.analysis_id AND d.suggestion_id = sid.id) = 'accepted')`.execute(db);
    const row = blocked.rows[0]!;
    blockedQueries = blockedFigure(Number(row.queries), Number(row.clicks), Number(row.cost), nonTarget.monthFactor);
  }
  return { ...counts.rows[0]!, blockedQueries };
}

/**
 * The blocked queries' figure from its sums: the cost in kopecks, and the month's figure from those
 * kopecks (not from the float sum), so counting again and moving the counts by a click
 * (`countsAfterChanges`) give the same kopeck even at a half.
 */
function blockedFigure(queries: number, clicks: number, cost: number, monthFactor: number): NonNullable<DecisionCounts['blockedQueries']> {
  const kopecks = Math.round(cost * 100);
  return { queries, clicks, cost: kopecks / 100, costPerMonth: Math.round(kopecks * monthFactor) / 100 };
}

type Decision = DecisionChange['decision'];

/**
 * The decision counts after a few changes, from the counts before them: what a click costs stays
 * what the click touches, where counting again read every block of the non-target queries (1.4 s at
 * 1 000 000 keywords with 250 000 blocks and 250 000 accepted, on the next GET /results). `before` is
 * the decision of each changed id before the write, `changes` what it is now. Null when the blocked
 * figure cannot be moved (no month factor in the report): the next read counts again.
 */
async function countsAfterChanges(
  db: DB,
  analysisId: string,
  stored: DecisionCounts,
  before: ReadonlyMap<string, Decision>,
  changes: ReadonlyMap<string, Decision>,
  kindOf: ReadonlyMap<string, string>,
): Promise<DecisionCounts | null> {
  let { accepted, rejected } = stored;
  // Negatives whose being accepted changes: only they move the blocked queries.
  const flipped = new Map<string, boolean>();
  for (const [id, now] of changes) {
    const was = before.get(id) ?? 'undecided';
    if (was === now) continue;
    if (was === 'accepted') accepted--;
    if (was === 'rejected') rejected--;
    if (now === 'accepted') accepted++;
    if (now === 'rejected') rejected++;
    if ((was === 'accepted') !== (now === 'accepted') && kindOf.get(id) === 'negative_keyword') flipped.set(id, now === 'accepted');
  }
  const blocked = stored.blockedQueries;
  if (!blocked || flipped.size === 0) return { accepted, rejected, blockedQueries: blocked };

  const report = await sql<{ month_factor: number | null }>`
    SELECT (report -> 'nonTargetQueries' ->> 'monthFactor')::float8 AS month_factor FROM analyses WHERE id = ${analysisId}`.execute(db);
  const monthFactor = report.rows[0]?.month_factor;
  if (monthFactor === null || monthFactor === undefined) return null;
  // The blocks that list a flipped id: found by the id's JSON text in the block's (a scan of the block
  // rows' text, no JSON taken apart), then checked exactly.
  const needles = [...flipped.keys()].map((id) => `%${likeEscaped(JSON.stringify(id))}%`);
  const blocks = await sql<{ ids: string[]; queries: number; clicks: number; cost: number }>`
    SELECT ARRAY(SELECT json_array_elements_text(b.document -> 'suggestionIds')) AS ids,
           (b.document ->> 'queries')::float8 AS queries, (b.document ->> 'clicks')::float8 AS clicks, (b.document ->> 'cost')::float8 AS cost
      FROM analysis_semantic b
     WHERE b.analysis_id = ${analysisId} AND b.section = 'query_blocks' AND b.document::text LIKE ANY(${needles}::text[])`.execute(db);
  const touched = blocks.rows.filter((block) => block.ids.some((id) => flipped.has(id)));
  // The other negatives of those blocks that are accepted (they block the rows whatever the click did).
  const others = [...new Set(touched.flatMap((block) => block.ids.filter((id) => !flipped.has(id))))];
  const acceptedOthers =
    others.length === 0
      ? new Set<string>()
      : new Set(
          (
            await sql<{ id: string }>`
              SELECT suggestion_id AS id FROM analysis_decisions
               WHERE analysis_id = ${analysisId} AND decision = 'accepted' AND suggestion_id = ANY(${others}::text[])`.execute(db)
          ).rows.map((row) => row.id),
        );
  let { queries, clicks, cost } = blocked;
  for (const block of touched) {
    const byOthers = block.ids.some((id) => acceptedOthers.has(id));
    const wasBlocked = byOthers || block.ids.some((id) => flipped.get(id) === false);
    const isBlocked = byOthers || block.ids.some((id) => flipped.get(id) === true);
    if (wasBlocked === isBlocked) continue;
    const sign = isBlocked ? 1 : -1;
    queries += sign * Number(block.queries);
    clicks += sign * Number(block.clicks);
    cost += sign * Number(block.cost);
  }
  return { accepted, rejected, blockedQueries: blockedFigure(queries, clicks, cost, monthFactor) };
}

/**
 * One statement for any number of suggestions: the filter selects them, their decision is set (or
 * removed for `undecided`). Idempotent: the same request again leaves the same rows. An edited value
 * survives only while the decision stays the same.
 */
export async function bulkDecide(
  db: DB,
  analysisId: string,
  userId: string,
  filter: SuggestionsFilter,
  decision: 'accepted' | 'rejected' | 'undecided',
  report: ResultsSummary | null,
): Promise<BulkDecisionResponse> {
  const answer = await db.transaction().execute(async (trx) => {
    const stored = await lockDecisions(trx, analysisId);
    // Under the lock the decision bits are current: a decision in the filter reads them too.
    const where = suggestionConditions(analysisId, filter, stored.bits ?? undefined);
    // A few suggestions (a group's, a campaign's negatives): the counts move by what changed, as a
    // click's do, instead of counting every block again (1.4 s at 1 000 000 keywords once many are
    // accepted). Their ids, kinds and decisions before are read first (no other write runs under the lock).
    const few = stored.counts
      ? (
          await sql<{ id: string; kind: string; was: Decision | null }>`
            SELECT m.id, m.kind, x.decision AS was
              FROM (SELECT s.id, s.kind FROM analysis_suggestions s WHERE ${where} LIMIT ${FEW_BULK + 1}) m
              LEFT JOIN analysis_decisions x ON x.analysis_id = ${analysisId} AND x.suggestion_id = m.id`.execute(trx)
        ).rows
      : null;
    // The positions written come back with the count, to mark them in the decided positions.
    const written =
      decision === 'undecided'
        ? await sql<{ updated: number; positions: number[] | null }>`
          WITH matched AS (SELECT s.id, s.position FROM analysis_suggestions s WHERE ${where}),
               removed AS (DELETE FROM analysis_decisions x WHERE x.analysis_id = ${analysisId} AND x.suggestion_id IN (SELECT id FROM matched))
          SELECT count(*)::int AS updated, array_agg(position) AS positions FROM matched`.execute(trx)
        : await sql<{ updated: number; positions: number[] | null }>`
          WITH matched AS (SELECT s.id, s.position FROM analysis_suggestions s WHERE ${where}),
               written AS (
                 INSERT INTO analysis_decisions AS x (analysis_id, suggestion_id, decision, decided_by, decided_at)
                 SELECT ${analysisId}::uuid, id, ${decision}, ${userId}::uuid, now() FROM matched
                 ON CONFLICT (analysis_id, suggestion_id) DO UPDATE
                   SET decision = excluded.decision,
                       value = CASE WHEN x.decision = excluded.decision THEN x.value END,
                       decided_by = excluded.decided_by,
                       decided_at = excluded.decided_at)
          SELECT count(*)::int AS updated, array_agg(position) AS positions FROM matched`.execute(trx);
    const { updated, positions } = written.rows[0]!;
    const moved =
      stored.counts && few && few.length <= FEW_BULK
        ? await countsAfterChanges(
            trx,
            analysisId,
            stored.counts,
            new Map(few.flatMap((row) => (row.was ? [[row.id, row.was] as const] : []))),
            new Map(few.map((row) => [row.id, decision])),
            new Map(few.map((row) => [row.id, row.kind])),
          )
        : null;
    const counts = await keepDecisionState(trx, analysisId, report, stored, { positions: positions ?? [], decision }, moved);
    return { updated, counts };
  });
  // Thousands of new decisions at once: fresh statistics keep the planner's joins on them sane. With
  // the analysis's decisions unknown to the statistics (5 000 accepted at once), the undecided filter's
  // anti-join was planned as a scan of all of them per suggestion: 0.6 s on a 15 000-suggestion analysis.
  if (answer.updated >= 1_000) await sql`ANALYZE analysis_decisions`.execute(db);
  return { updated: answer.updated, accepted: answer.counts.accepted, rejected: answer.counts.rejected };
}

/** Up to this many suggestions a bulk decision moves the stored counts instead of counting them again. */
const FEW_BULK = 500;

/** The ids (at most 10, then «и ещё N») that are not suggestions of the analysis, as a 422. */
function unknownSuggestionsError(unknown: string[], field: string) {
  const shown = unknown.slice(0, 10).join(', ') + (unknown.length > 10 ? ` и ещё ${unknown.length - 10}` : '');
  return validationError([{ loc: ['body', field], msg: m.unknownSuggestions.replace('{ids}', shown) }]);
}

/**
 * PATCH /decisions: these suggestions' decisions change, every other decision stays. One transaction,
 * one upsert for the decided and one delete for `undecided`, so a click costs the same after a bulk
 * accept of 100 000 as before it; the same request again leaves the same rows. An id given twice: the
 * last change wins. `value` is kept only on an accepted ad fix; without one, an edited value survives
 * while the ad fix stays accepted (as in the bulk decision).
 */
export async function changeDecisions(db: DB, analysisId: string, userId: string, changes: DecisionChange[]): Promise<DecisionChangesResponse> {
  const latest = new Map<string, DecisionChange>();
  for (const change of changes) {
    latest.delete(change.id);
    latest.set(change.id, change);
  }
  const ids = [...latest.keys()];
  return db.transaction().execute(async (trx) => {
    const stored = await lockDecisions(trx, analysisId);
    const known = await sql<{ id: string; kind: string; position: number }>`
      SELECT id, kind, position FROM analysis_suggestions WHERE analysis_id = ${analysisId} AND id = ANY(${ids}::text[])`.execute(trx);
    const kindOf = new Map(known.rows.map((row) => [row.id, row.kind]));
    const unknown = ids.filter((id) => !kindOf.has(id));
    if (unknown.length > 0) throw unknownSuggestionsError(unknown, 'changes');
    // With the counts known, what these ids were decides how the counts move (countsAfterChanges).
    const before = stored.counts
      ? new Map(
          (
            await sql<{ id: string; decision: Decision }>`
              SELECT suggestion_id AS id, decision FROM analysis_decisions WHERE analysis_id = ${analysisId} AND suggestion_id = ANY(${ids}::text[])`.execute(trx)
          ).rows.map((row) => [row.id, row.decision]),
        )
      : null;

    const decided = [...latest.values()].filter((change) => change.decision !== 'undecided');
    const cleared = [...latest.values()].filter((change) => change.decision === 'undecided').map((change) => change.id);
    if (decided.length > 0) {
      const valueOf = (change: DecisionChange) => (change.decision === 'accepted' && kindOf.get(change.id) === 'ad_field' ? (change.value ?? null) : null);
      await sql`
        INSERT INTO analysis_decisions AS x (analysis_id, suggestion_id, decision, value, decided_by, decided_at)
        SELECT ${analysisId}::uuid, u.id, u.decision, u.value, ${userId}::uuid, now()
          FROM unnest(${decided.map((change) => change.id)}::text[], ${decided.map((change) => change.decision)}::text[],
                      ${decided.map(valueOf)}::text[]) AS u(id, decision, value)
        ON CONFLICT (analysis_id, suggestion_id) DO UPDATE
          SET value = CASE WHEN excluded.decision <> 'accepted' THEN NULL
                           WHEN excluded.value IS NOT NULL THEN excluded.value
                           WHEN x.decision = excluded.decision
                                AND EXISTS (SELECT 1 FROM analysis_suggestions s WHERE s.analysis_id = x.analysis_id AND s.id = x.suggestion_id AND s.kind = 'ad_field')
                             THEN x.value END,
              decision = excluded.decision,
              decided_by = excluded.decided_by,
              decided_at = excluded.decided_at`.execute(trx);
    }
    if (cleared.length > 0) {
      await sql`DELETE FROM analysis_decisions WHERE analysis_id = ${analysisId} AND suggestion_id = ANY(${cleared}::text[])`.execute(trx);
    }
    if (stored.bits) {
      // The click's suggestions marked with their decision: the decision filters stay bit lookups.
      const bits = { decided: Buffer.from(stored.bits.decided), accepted: Buffer.from(stored.bits.accepted) };
      for (const row of known.rows) markDecision(bits, row.position, latest.get(row.id)!.decision);
      await storeDecisionBits(trx, analysisId, bits);
    }
    const moved =
      stored.counts && before ? await countsAfterChanges(trx, analysisId, stored.counts, before, new Map(ids.map((id) => [id, latest.get(id)!.decision])), kindOf) : null;
    if (moved) {
      await storeDecisionCounts(trx, analysisId, moved);
      return { accepted: moved.accepted, rejected: moved.rejected };
    }
    // Not movable (not known, or no month factor to move the blocked figure by): the next read counts.
    if (stored.counts) await sql`UPDATE analyses SET decision_counts = NULL WHERE id = ${analysisId}`.execute(trx);
    const counts = await decisionCounts(trx, analysisId, null);
    return { accepted: counts.accepted, rejected: counts.rejected };
  });
}

/** PUT /decisions: replaces the whole choice with these lists (small edits; the bulk endpoint is for many). */
export async function replaceDecisions(db: DB, analysisId: string, userId: string, decisions: AnalysisDecisions): Promise<AnalysisDecisions> {
  const clean: AnalysisDecisions = { accepted: [...new Set(decisions.accepted)], rejected: [...new Set(decisions.rejected)] };
  const values = Object.entries(decisions.values ?? {}).filter(([id]) => clean.accepted.includes(id));
  if (values.length > 0) clean.values = Object.fromEntries(values);
  const ids = [...clean.accepted, ...clean.rejected];
  await db.transaction().execute(async (trx) => {
    const stored = await lockDecisions(trx, analysisId);
    if (ids.length > 0) {
      const known = await sql<{ id: string }>`SELECT id FROM analysis_suggestions WHERE analysis_id = ${analysisId} AND id = ANY(${ids}::text[])`.execute(trx);
      const found = new Set(known.rows.map((row) => row.id));
      const unknown = ids.filter((id) => !found.has(id));
      if (unknown.length > 0) throw unknownSuggestionsError(unknown, 'accepted');
    }
    await sql`DELETE FROM analysis_decisions WHERE analysis_id = ${analysisId}`.execute(trx);
    if (ids.length > 0) {
      const valueOf = clean.values ?? {};
      await sql`
        INSERT INTO analysis_decisions (analysis_id, suggestion_id, decision, value, decided_by)
        SELECT ${analysisId}::uuid, u.id, u.decision, u.value, ${userId}::uuid
          FROM unnest(${ids}::text[], ${ids.map((_, i) => (i < clean.accepted.length ? 'accepted' : 'rejected'))}::text[], ${ids.map((id) => valueOf[id] ?? null)}::text[]) AS u(id, decision, value)`.execute(trx);
    }
    // The whole choice replaced: the state is computed from it (the decided positions of these ids alone).
    await keepDecisionState(trx, analysisId, await storedReport(trx, analysisId), { counts: stored.counts, bits: null }, null);
  });
  return clean;
}

// ------------------------------------------------------------------------------------ semantic, scores

export async function semanticPage<S extends SemanticSection>(db: DB, analysisId: string, section: S, request: PageRequest): Promise<SemanticPage<S>> {
  const from = offsetOf(request);
  const [rows, total] = await Promise.all([
    sql<{ document: SemanticPage<S>['items'][number] }>`
      SELECT e.item AS document FROM analysis_semantic r ${chunkItems}
       WHERE r.analysis_id = ${analysisId} AND r.section = ${section} AND ${itemRange(from, from + request.page_size)}
       ORDER BY r.position, e.n`.execute(db),
    sql<{ total: number }>`SELECT coalesce(sum(count), 0)::int AS total FROM analysis_semantic WHERE analysis_id = ${analysisId} AND section = ${section}`.execute(db),
  ]);
  return { items: await expandStoredRefs(db, analysisId, rows.rows.map((row) => row.document)), total: total.rows[0]!.total, page: request.page, page_size: request.page_size };
}

export interface ScoresRequest extends PageRequest {
  level: ScoreLevel;
  sort: 'score' | 'money';
  campaign?: string[];
  group?: string[];
}

export async function scoresPage(db: DB, analysisId: string, request: ScoresRequest): Promise<ScoresPage> {
  const conditions: RawBuilder<unknown>[] = [sql`analysis_id = ${analysisId}`, sql`level = ${request.level}`];
  if (request.campaign?.length) conditions.push(oneOf(sql`campaign_key`, request.campaign));
  if (request.group?.length) conditions.push(oneOf(sql`group_key`, request.group));
  const where = and(conditions);
  const order = request.sort === 'money' ? sql`money_per_month DESC, position` : sql`score, position`;
  const rows = await sql<{ document: EntityScore }>`SELECT document FROM analysis_scores WHERE ${where} ORDER BY ${order} LIMIT ${request.page_size} OFFSET ${offsetOf(request)}`.execute(db);
  const total = await pageTotal(db, sql`analysis_scores WHERE ${where}`, request, rows.rows.length);
  return { items: await expandStoredRefs(db, analysisId, rows.rows.map((row) => row.document)), ...total, page: request.page, page_size: request.page_size };
}

// ------------------------------------------------------------------------------------ results

/** GET /results: the summary, the first page of findings by money and the decision counts. */
export async function pagedResults(db: DB, organizationId: string | null, analysisId: string): Promise<PagedResults> {
  const row = await findCompletedAnalysis(db, organizationId, analysisId);
  const stored = await db.selectFrom('analyses').select('report').where('id', '=', analysisId).executeTakeFirstOrThrow();
  const report = stored.report as ResultsSummary;
  const [findings, decisions] = await Promise.all([
    findingsPage(db, analysisId, { page: 1, page_size: RESULTS_PAGE_SIZE_DEFAULT, sort: 'money' }),
    decisionCounts(db, analysisId, report),
  ]);
  return { analysis: toAnalysis(row), summary: report, findings, decisions };
}

/** The stored summary document of a completed analysis (for the bulk decisions' counts). */
export async function storedReport(db: DB, analysisId: string): Promise<ResultsSummary | null> {
  const stored = await db.selectFrom('analyses').select('report').where('id', '=', analysisId).executeTakeFirst();
  return (stored?.report as ResultsSummary | null) ?? null;
}

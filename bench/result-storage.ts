/**
 * Bench of storing a completed audit as rows (server/analysis/result-rows.ts, row-writer.ts): the
 * analysis bench's account of 100 000 keywords (bench/analysis.ts) through the engines once, then its
 * rows written into the embedded PostgreSQL the way the worker's saving transaction does (`COPY … FROM
 * STDIN`, one committed transaction on one connection), in the same run in several ways (variants,
 * `BENCH_STORAGE_VARIANTS`, default `old,new`): entity refs whole (before issue 9) or compact
 * (entity-refs.ts, now), and for comparison other cluster settings or uncompressed TOAST storage. One
 * uncounted warm-up round, then two rounds of each, alternating; the best of two is printed. The time
 * includes turning the result into batches (the engine thread's share) and writing them (the worker's);
 * PostgreSQL's own CPU time (its backend process, from /proc) and the WAL the transaction wrote are
 * printed beside it, with the ratios to the first variant. Prints rows per table (and what one row per
 * item would have been), the bytes sent, and the summary document's size raw and compressed.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import type { AuditResult } from '../contract/analysis.js';
import { buildResultsSummary, resultRowBatches, type ResultRowBatch } from '../server/analysis/result-rows.js';
import { copyRowBatch } from '../server/analysis/row-writer.js';
import { findingsPage, semanticPage, suggestionsPage } from '../server/analysis/results-pages.js';
import { RESULTS_PAGE_SIZE_DEFAULT } from '../contract/analysis-pages.js';
import { runCampaignAnalysis } from '../server/engines/scoring/run-analysis.js';
import { openDatabase } from '../server/db/connect.js';
import { poolOf, type DB } from '../server/db/database.js';
import { generateAccount } from './analysis.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const count = (n: number) => n.toLocaleString('ru-RU');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * One way of storing the result: the embedded cluster's settings (`ALTER SYSTEM`, then a restart), the
 * documents' TOAST storage, and whether entity references are written compactly (result-rows.ts).
 */
interface Variant {
  name: string;
  settings: Record<string, string>;
  /** TOAST storage of the documents: compressed (pglz, PostgreSQL's default) or not (the embedded build has no lz4). */
  storage: 'extended' | 'external';
  compactRefs: boolean;
  /** Indexes of the row tables dropped before writing (what their maintenance costs): every one but the primary keys, or the text search's (trigram). */
  withoutIndexes?: 'secondary' | 'trigram';
  /** The trigram indexes' pending list (kB; PostgreSQL's default 4 096): new entries wait there and are merged into the index in bulk when it is full. */
  ginPendingListKb?: number;
  /** The row tables' foreign keys to `analyses` dropped before writing (what their per-row check costs). */
  withoutForeignKeys?: boolean;
  /** The documents' column type: `json` (validated on input) or `text` (a measurement only: the pages' SQL reads json, so the reads are skipped). */
  documentType?: 'json' | 'text';
  /** The tables' `toast_tuple_target` (bytes; PostgreSQL's default 2 032): a row under it is stored as it is, not compressed (pglz) or moved out of line. */
  toastTupleTarget?: number;
  /** `analysis_scores` with its primary key (analysis_id, level, key), as before migration 0190 (which drops it: no reader looks a score up by it). */
  scoresPrimaryKey?: boolean;
}
const documentTables = ['analysis_findings', 'analysis_finding_items', 'analysis_suggestions', 'analysis_scores', 'analysis_semantic'];

interface Round {
  variant: Variant;
  encodeMs: number;
  totalMs: number;
  /** CPU time of the PostgreSQL backend serving the transaction. */
  postgresCpuMs: number;
  walBytes: number;
  rows: number;
  bytes: number;
  /** Best of 5 of the first findings page and the first suggestions page, together. */
  firstAnswerMs?: number;
  /** Best of 5 of a semantic page deep in the clusters. */
  semanticPageMs?: number;
}

/** PostgreSQL's defaults: what a `DATABASE_URL` deployment may have, and the embedded cluster before issue 9. */
const defaultSettings: Record<string, string> = {};
/**
 * Bigger buffers and fewer checkpoints for the saving transaction: measured on 2026-11-24 at 100 000
 * keywords, no gain (saving 13.0 s against 13.0 s, PostgreSQL CPU 6.4 s against 6.2 s), so the embedded
 * cluster keeps PostgreSQL's defaults; kept here to measure again (`BENCH_STORAGE_VARIANTS=old,settings`).
 */
const tuned = { shared_buffers: '1GB', wal_buffers: '64MB', max_wal_size: '2GB', checkpoint_timeout: '30min' };
const variantsByName: Record<string, Variant> = {
  old: { name: 'old: full refs', settings: defaultSettings, storage: 'extended', compactRefs: false },
  new: { name: 'new: compact refs', settings: defaultSettings, storage: 'extended', compactRefs: true },
  settings: { name: 'full refs, cluster settings', settings: tuned, storage: 'extended', compactRefs: false },
  external: { name: 'full refs, STORAGE EXTERNAL', settings: defaultSettings, storage: 'external', compactRefs: false },
  newExternal: { name: 'compact refs, STORAGE EXTERNAL', settings: defaultSettings, storage: 'external', compactRefs: true },
  noIndexes: { name: 'compact refs, no secondary indexes', settings: defaultSettings, storage: 'extended', compactRefs: true, withoutIndexes: 'secondary' },
  noTrigram: { name: 'compact refs, no trigram indexes', settings: defaultSettings, storage: 'extended', compactRefs: true, withoutIndexes: 'trigram' },
  noForeignKeys: { name: 'compact refs, no foreign keys to analyses', settings: defaultSettings, storage: 'extended', compactRefs: true, withoutForeignKeys: true },
  textDocuments: { name: 'compact refs, documents as text', settings: defaultSettings, storage: 'extended', compactRefs: true, documentType: 'text' },
  inline8k: { name: 'compact refs, rows under 8 KB not compressed', settings: defaultSettings, storage: 'extended', compactRefs: true, toastTupleTarget: 8_160 },
  ginPending64: { name: 'compact refs, trigram pending list 64 MB', settings: defaultSettings, storage: 'extended', compactRefs: true, ginPendingListKb: 65_536 },
  scoresKey: { name: 'compact refs, scores with their primary key (before 0190)', settings: defaultSettings, storage: 'extended', compactRefs: true, scoresPrimaryKey: true },
};
/** The variants to compare (`BENCH_STORAGE_VARIANTS=old,external,…`; the first is the baseline of the ratios). */
function benchVariants(): Variant[] {
  const names = (process.env.BENCH_STORAGE_VARIANTS ?? 'old,new').split(',');
  return names.map((name) => {
    const variant = variantsByName[name];
    if (!variant) throw new Error(`Unknown variant ${name}: ${Object.keys(variantsByName).join(', ')}`);
    return variant;
  });
}

const ms = (value: number | undefined) => (value === undefined ? '–' : `${value.toFixed(0)} ms`);

const bestOf = async (times: number, read: () => Promise<unknown>) => {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await read();
    best = Math.min(best, performance.now() - started);
  }
  return best;
};

/** Reads of the results screen on the stored rows (the pages that expand the documents' refs). */
async function measureReads(db: DB, analysisId: string, round: Round): Promise<void> {
  await sql`VACUUM (ANALYZE) analysis_findings, analysis_finding_items, analysis_suggestions, analysis_scores, analysis_semantic, analysis_entity_names`.execute(db);
  round.firstAnswerMs = await bestOf(5, () =>
    Promise.all([
      findingsPage(db, analysisId, { page: 1, page_size: RESULTS_PAGE_SIZE_DEFAULT, sort: 'money' }),
      suggestionsPage(db, analysisId, { page: 1, page_size: RESULTS_PAGE_SIZE_DEFAULT }),
    ]),
  );
  round.semanticPageMs = await bestOf(5, () => semanticPage(db, analysisId, 'clusters', { page: 100, page_size: 50 }));
}

/** User + system CPU time of a local process, in milliseconds (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** An analysis row to hang the result's rows on (the tables reference it). */
async function newAnalysis(db: DB, projectId: string, organizationId: string): Promise<string> {
  const id = randomUUID();
  await sql`INSERT INTO analyses (id, organization_id, project_id, status, options, cost, idempotency_key)
            VALUES (${id}, ${organizationId}, ${projectId}, 'running', ${JSON.stringify({ campaign_ids: [], settings: {}, target_cpa: null })}::jsonb, 0, ${randomUUID()})`.execute(db);
  return id;
}

/** Every batch of the result written in one transaction on one connection, as the worker's saving transaction does. */
async function writeResult(db: DB, analysisId: string, result: AuditResult, variant: Variant): Promise<Round> {
  const client = await poolOf(db).connect();
  let encodeMs = 0;
  let rows = 0;
  let bytes = 0;
  try {
    const { pid, lsn } = (await client.query<{ pid: number; lsn: string }>('SELECT pg_backend_pid() AS pid, pg_current_wal_lsn()::text AS lsn')).rows[0]!;
    const cpuBefore = cpuMsOf(pid);
    const started = performance.now();
    await client.query('BEGIN');
    const batches = resultRowBatches(result, undefined, { encoding: { kind: 'copy', analysisId }, compactRefs: variant.compactRefs });
    for (;;) {
      const encodeStarted = performance.now();
      const next = batches.next();
      encodeMs += performance.now() - encodeStarted;
      if (next.done) break;
      const batch: ResultRowBatch = next.value;
      rows += batch.rows;
      bytes += batch.kind === 'copy' ? batch.bytes.byteLength : 0;
      await copyRowBatch(client, batch);
    }
    await client.query('COMMIT');
    const totalMs = performance.now() - started;
    const postgresCpuMs = cpuMsOf(pid) - cpuBefore;
    const wal = (await client.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::text AS bytes', [lsn])).rows[0]!;
    return { variant, encodeMs, totalMs, postgresCpuMs, walBytes: Number(wal.bytes), rows, bytes };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The documents' TOAST storage of a variant (the tables are empty between rounds, so this is instant). */
async function setStorage(db: DB, storage: Variant['storage'], documentType: Variant['documentType'] = 'json', toastTupleTarget = 2_032): Promise<void> {
  for (const table of documentTables) {
    await sql`ALTER TABLE ${sql.table(table)} SET (toast_tuple_target = ${sql.raw(String(toastTupleTarget))})`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN document TYPE ${sql.raw(documentType)} USING document::${sql.raw(documentType)}`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN document SET STORAGE ${sql.raw(storage === 'external' ? 'EXTERNAL' : 'EXTENDED')}`.execute(db);
  }
}

/** Definitions of the row tables' indexes while they are dropped (the variants measuring index maintenance). */
let droppedIndexes: string[] = [];
async function setSecondaryIndexes(db: DB, dropped: Variant['withoutIndexes']): Promise<void> {
  for (const definition of droppedIndexes) await sql.raw(definition).execute(db);
  droppedIndexes = [];
  if (!dropped) return;
  const indexes = await sql<{ name: string; definition: string }>`
    SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition FROM pg_index i
     WHERE i.indrelid::regclass::text = ANY(${documentTables}) AND NOT i.indisprimary`.execute(db);
  for (const { name, definition } of indexes.rows) {
    if (dropped === 'trigram' && !definition.includes('gin_trgm_ops')) continue;
    await sql`DROP INDEX ${sql.raw(name)}`.execute(db);
    droppedIndexes.push(definition);
  }
}

/** Definitions of the row tables' foreign keys to `analyses` while they are dropped. */
let droppedForeignKeys: string[] = [];
async function setForeignKeys(db: DB, dropped: boolean | undefined): Promise<void> {
  // Rows of the analyses deleted meanwhile (no cascade without the keys) go first.
  for (const table of documentTables) await sql`DELETE FROM ${sql.table(table)} t WHERE NOT EXISTS (SELECT 1 FROM analyses a WHERE a.id = t.analysis_id)`.execute(db);
  for (const definition of droppedForeignKeys) await sql.raw(definition).execute(db);
  droppedForeignKeys = [];
  if (!dropped) return;
  const keys = await sql<{ table: string; name: string; definition: string }>`
    SELECT c.conrelid::regclass::text AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c
     WHERE c.contype = 'f' AND c.conrelid::regclass::text = ANY(${documentTables}) AND c.confrelid = 'analyses'::regclass`.execute(db);
  for (const { table, name, definition } of keys.rows) {
    await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.ref(name)}`.execute(db);
    droppedForeignKeys.push(`ALTER TABLE ${table} ADD CONSTRAINT ${name} ${definition}`);
  }
}

/** Rows per table of a stored result, and what one row per item (main before chunks) would have been. */
async function rowsPerTable(db: DB, analysisId: string, result: AuditResult) {
  const stored = await sql<{ table: string; rows: number }>`
    SELECT 'analysis_findings' AS table, count(*)::int AS rows FROM analysis_findings WHERE analysis_id = ${analysisId}
    UNION ALL SELECT 'analysis_finding_items', count(*)::int FROM analysis_finding_items WHERE analysis_id = ${analysisId}
    UNION ALL SELECT 'analysis_suggestions', count(*)::int FROM analysis_suggestions WHERE analysis_id = ${analysisId}
    UNION ALL SELECT 'analysis_scores', count(*)::int FROM analysis_scores WHERE analysis_id = ${analysisId}
    UNION ALL SELECT 'analysis_semantic', count(*)::int FROM analysis_semantic WHERE analysis_id = ${analysisId}`.execute(db);
  const { scoring, semantic } = result;
  const perItem: Record<string, number> = {
    analysis_findings: scoring.findings.length,
    analysis_finding_items: scoring.findings.reduce((sum, finding) => sum + (finding.items?.length ?? 0), 0),
    analysis_suggestions: scoring.suggestions.length + semantic.crossMinus.length + semantic.negatives.length,
    analysis_scores: scoring.campaigns.length + scoring.groups.length + scoring.ads.length + scoring.keywords.length,
    analysis_semantic:
      semantic.clusters.length +
      semantic.duplicates.length +
      semantic.intersections.length +
      semantic.relevance.length +
      semantic.collectData.length +
      semantic.droppedNegatives.length +
      scoring.keywordVerdicts.length +
      (semantic.nonTargetQueries?.blockedBy.length ?? 0),
  };
  return stored.rows.map((row) => ({ ...row, perItem: perItem[row.table]! }));
}

export async function runResultStorageBench(): Promise<void> {
  const data = generateAccount();
  const started = performance.now();
  const output = await runCampaignAnalysis(data);
  const result: AuditResult = { scoring: output.scoring, semantic: output.semantic, money: output.money };
  console.log(`engines: ${seconds(performance.now() - started)} (100 000 keywords, 20 000 ads, 50 000 search queries)`);

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-bench-storage-'));
  await chmod(dataDir, 0o755);
  let database = await openDatabase({ dataDir });
  try {
    let db = database.db;
    const org = await db.insertInto('organizations').values({ name: 'Бенчмарк', invitation_code: randomBytes(5).toString('hex').toUpperCase() }).returning('id').executeTakeFirstOrThrow();
    const project = await db
      .insertInto('projects')
      .values({ organization_id: org.id, name: 'Бенч', name_key: 'бенч', site_url: 'https://example.ru', platform: 'yandex_direct' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();

    const report = buildResultsSummary(result);
    const variants = benchVariants();
    const rounds: Round[] = [];
    let lastId = '';
    let settingsNow = JSON.stringify(defaultSettings);
    // A first round of the baseline warms the engine thread's code up (its encoding took 6.5 s cold, 4 s warm); it is not counted.
    const plan = [variants[0]!, ...variants, ...variants];
    for (const [index, variant] of plan.entries()) {
      if (lastId) {
        // The previous round's rows go, so each round writes into tables of the same size.
        await sql`DELETE FROM analyses WHERE id = ${lastId}`.execute(db);
        await sql`VACUUM analysis_findings, analysis_finding_items, analysis_suggestions, analysis_scores, analysis_semantic, analysis_entity_names`.execute(db);
      }
      if (JSON.stringify(variant.settings) !== settingsNow) {
        // The variant's settings (ALTER SYSTEM: the embedded cluster passes none of these on its command line), then a restart; the data stays.
        await sql`ALTER SYSTEM RESET ALL`.execute(db);
        for (const [name, value] of Object.entries(variant.settings)) await sql`ALTER SYSTEM SET ${sql.raw(name)} = ${sql.lit(value)}`.execute(db);
        await database.close();
        database = await openDatabase({ dataDir });
        db = database.db;
        settingsNow = JSON.stringify(variant.settings);
      }
      await setStorage(db, variant.storage, variant.documentType, variant.toastTupleTarget);
      await setSecondaryIndexes(db, variant.withoutIndexes);
      await setForeignKeys(db, variant.withoutForeignKeys);
      await sql`ALTER TABLE analysis_scores DROP CONSTRAINT IF EXISTS analysis_scores_pkey`.execute(db);
      if (variant.scoresPrimaryKey) await sql`ALTER TABLE analysis_scores ADD PRIMARY KEY (analysis_id, level, key)`.execute(db);
      for (const index of ['analysis_suggestions_search_idx', 'analysis_findings_search_idx']) {
        await sql`ALTER INDEX IF EXISTS ${sql.raw(index)} SET (gin_pending_list_limit = ${sql.raw(String(variant.ginPendingListKb ?? 4_096))})`.execute(db);
      }
      await sql`CHECKPOINT`.execute(db);
      lastId = await newAnalysis(db, project.id, org.id);
      const round = await writeResult(db, lastId, result, variant);
      if (variant.documentType !== 'text') await measureReads(db, lastId, round);
      if (index > 0) rounds.push(round);
      console.log(
        `  ${index === 0 ? '(warm-up) ' : ''}${variant.name}: ${seconds(round.totalMs)} (encoding ${seconds(round.encodeMs)}, PostgreSQL CPU ${seconds(round.postgresCpuMs)}), ${count(round.rows)} rows, ${(round.bytes / 1024 / 1024).toFixed(0)} MB sent, WAL ${(round.walBytes / 1024 / 1024).toFixed(0)} MB; reads: findings + suggestions page 1 ${ms(round.firstAnswerMs)}, clusters page 100 ${ms(round.semanticPageMs)}`,
      );
    }
    const best = (variant: Variant) => rounds.filter((round) => round.variant === variant).sort((a, b) => a.totalMs - b.totalMs)[0]!;
    const before = best(variants[0]!);
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    const ratio = (old: number, now: number) => `${(old / now).toFixed(2)}×`;
    console.log('\n| variant (COPY, best of 2, one transaction) | sent | saving | of it encoding | PostgreSQL CPU | WAL | vs first: sent / saving / encoding / CPU / WAL | findings + suggestions page 1 | clusters page 100 |');
    console.log('|:--|--:|--:|--:|--:|--:|--:|--:|--:|');
    for (const round of variants.map(best)) {
      console.log(
        `| ${round.variant.name} | ${mb(round.bytes)} | ${seconds(round.totalMs)} | ${seconds(round.encodeMs)} | ${seconds(round.postgresCpuMs)} | ${mb(round.walBytes)} | ${ratio(before.bytes, round.bytes)} / ${ratio(before.totalMs, round.totalMs)} / ${ratio(before.encodeMs, round.encodeMs)} / ${ratio(before.postgresCpuMs, round.postgresCpuMs)} / ${ratio(before.walBytes, round.walBytes)} | ${ms(round.firstAnswerMs)} | ${ms(round.semanticPageMs)} |`,
      );
    }

    console.log('\n| table | rows now | one row per item |');
    console.log('|:--|--:|--:|');
    let stored = 0;
    let perItem = 0;
    for (const row of await rowsPerTable(db, lastId, result)) {
      stored += row.rows;
      perItem += row.perItem;
      console.log(`| ${row.table} | ${count(row.rows)} | ${count(row.perItem)} |`);
    }
    console.log(`| **all** | **${count(stored)}** | **${count(perItem)}** |`);

    const summary = Buffer.from(JSON.stringify(report));
    console.log(`\nsummary document: ${kb(summary.length)} raw, ${kb(brotliCompressSync(summary).length)} brotli, ${kb(gzipSync(summary).length)} gzip`);
  } finally {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export const run = runResultStorageBench;

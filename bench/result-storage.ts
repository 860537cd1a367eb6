/**
 * Bench of storing a completed audit as rows (server/analysis/result-rows.ts, row-writer.ts): the
 * analysis bench's account of 100 000 keywords (bench/analysis.ts) through the engines once, then its
 * rows written into the embedded PostgreSQL the way the worker's saving transaction does, in the same
 * run with the two writers: multi-row `INSERT … SELECT FROM unnest` (what main used) and `COPY … FROM
 * STDIN` (what the worker uses now), each in one committed transaction, two rounds alternating. The time
 * includes turning the result into batches (the engine thread's share) and writing them (the worker's).
 * Prints rows per table (and what one row per item would have been), the bytes sent, and the summary
 * document's size raw and compressed.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import type { AuditResult } from '../src/contract/analysis.js';
import { buildResultsSummary, resultRowBatches, type ResultRowBatch, type RowEncoding } from '../server/analysis/result-rows.js';
import { copyRowBatch, insertRowBatch } from '../server/analysis/row-writer.js';
import { runCampaignAnalysis } from '../server/analysis/scoring/run-analysis.js';
import { openDatabase } from '../server/db/connect.js';
import { onConnection, poolOf, type DB } from '../server/db/database.js';
import { generateAccount } from './analysis.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const count = (n: number) => n.toLocaleString('ru-RU');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

interface Round {
  writer: 'INSERT' | 'COPY';
  encodeMs: number;
  totalMs: number;
  rows: number;
  bytes: number;
}

/** An analysis row to hang the result's rows on (the tables reference it). */
async function newAnalysis(db: DB, projectId: string, organizationId: string): Promise<string> {
  const id = randomUUID();
  await sql`INSERT INTO analyses (id, organization_id, project_id, status, options, cost, idempotency_key)
            VALUES (${id}, ${organizationId}, ${projectId}, 'running', ${JSON.stringify({ campaign_ids: [], settings: {}, target_cpa: null })}::jsonb, 0, ${randomUUID()})`.execute(db);
  return id;
}

/** Every batch of the result written in one transaction on one connection, as the worker's saving transaction does. */
async function writeResult(db: DB, analysisId: string, result: AuditResult, writer: Round['writer']): Promise<Round> {
  const encoding: RowEncoding = writer === 'COPY' ? { kind: 'copy', analysisId } : { kind: 'arrays' };
  const client = await poolOf(db).connect();
  const trx = onConnection(client);
  let encodeMs = 0;
  let rows = 0;
  let bytes = 0;
  const started = performance.now();
  try {
    await client.query('BEGIN');
    const batches = resultRowBatches(result, undefined, { encoding });
    for (;;) {
      const encodeStarted = performance.now();
      const next = batches.next();
      encodeMs += performance.now() - encodeStarted;
      if (next.done) break;
      const batch: ResultRowBatch = next.value;
      rows += batch.rows;
      bytes += batch.kind === 'copy' ? Buffer.byteLength(batch.text) : batch.columns.reduce((sum, column) => sum + Buffer.byteLength(column), 0);
      if (batch.kind === 'copy') await copyRowBatch(client, batch);
      else await insertRowBatch(trx, analysisId, batch);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return { writer, encodeMs, totalMs: performance.now() - started, rows, bytes };
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
  let started = performance.now();
  const output = await runCampaignAnalysis(data);
  const result: AuditResult = { scoring: output.scoring, semantic: output.semantic, money: output.money };
  console.log(`engines: ${seconds(performance.now() - started)} (100 000 keywords, 20 000 ads, 50 000 search queries)`);

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-bench-storage-'));
  await chmod(dataDir, 0o755);
  const database = await openDatabase({ dataDir });
  try {
    const db = database.db;
    const org = await db.insertInto('organizations').values({ name: 'Бенчмарк', invitation_code: randomBytes(5).toString('hex').toUpperCase() }).returning('id').executeTakeFirstOrThrow();
    const project = await db
      .insertInto('projects')
      .values({ organization_id: org.id, name: 'Бенч', name_key: 'бенч', site_url: 'https://example.ru', platform: 'yandex_direct' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();

    const rounds: Round[] = [];
    let lastId = '';
    for (const writer of ['INSERT', 'COPY', 'INSERT', 'COPY'] as const) {
      if (lastId) {
        // The previous round's rows go, so each round writes into tables of the same size.
        await sql`DELETE FROM analyses WHERE id = ${lastId}`.execute(db);
        await sql`VACUUM analysis_findings, analysis_finding_items, analysis_suggestions, analysis_scores, analysis_semantic`.execute(db);
      }
      lastId = await newAnalysis(db, project.id, org.id);
      started = performance.now();
      const round = await writeResult(db, lastId, result, writer);
      rounds.push(round);
      console.log(`  ${writer}: ${seconds(round.totalMs)} (encoding ${seconds(round.encodeMs)}), ${count(round.rows)} rows, ${(round.bytes / 1024 / 1024).toFixed(0)} MB sent`);
    }
    const best = (writer: Round['writer']) => rounds.filter((round) => round.writer === writer).sort((a, b) => a.totalMs - b.totalMs)[0]!;
    const insert = best('INSERT');
    const copy = best('COPY');
    console.log('\n| writer (best of 2, one transaction) | saving | of it encoding | rows/s | vs INSERT |');
    console.log('|:--|--:|--:|--:|--:|');
    for (const round of [insert, copy]) {
      console.log(`| ${round.writer} | ${seconds(round.totalMs)} | ${seconds(round.encodeMs)} | ${count(Math.round(round.rows / (round.totalMs / 1000)))} | ${(insert.totalMs / round.totalMs).toFixed(2)}× |`);
    }

    console.log('\n| table | rows now | one row per item |');
    console.log('|:--|--:|--:|');
    let now = 0;
    let before = 0;
    for (const row of await rowsPerTable(db, lastId, result)) {
      now += row.rows;
      before += row.perItem;
      console.log(`| ${row.table} | ${count(row.rows)} | ${count(row.perItem)} |`);
    }
    console.log(`| **all** | **${count(now)}** | **${count(before)}** |`);

    const summary = Buffer.from(JSON.stringify(buildResultsSummary(result)));
    console.log(`\nsummary document: ${kb(summary.length)} raw, ${kb(brotliCompressSync(summary).length)} brotli, ${kb(gzipSync(summary).length)} gzip`);
  } finally {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export const run = runResultStorageBench;

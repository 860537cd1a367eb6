/**
 * What copying one result's rows costs PostgreSQL, table by table and index by index (issue 26,
 * docs/benchmarks.md «What saving the rows costs PostgreSQL»). The analysis bench's account of 100 000
 * keywords through the engines once, its COPY batches kept in memory (compact refs, as the worker
 * writes them), then copied into `BENCH_DATABASE_URL` (required: a PostgreSQL of one's own, migrated
 * here; its tables are emptied) one table at a time in one transaction per round, with every index,
 * then (`BENCH_COPY_INDEXES=1`) with each secondary index of each table dropped alone. Prints per table
 * the CPU of the backend (from /proc: the server must run on this machine) and the WAL written.
 * `BENCH_COPY_ROUNDS` rounds of each (default 2), alternating.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { AuditResult } from '../contract/analysis.js';
import { resultRowBatches, resultTableColumns, type ResultRowBatch, type ResultTable } from '../server/analysis/result-rows.js';
import { copyRowBatch } from '../server/analysis/row-writer.js';
import { runCampaignAnalysis } from '../server/engines/scoring/run-analysis.js';
import { openDatabase } from '../server/db/connect.js';
import { poolOf, type DB } from '../server/db/database.js';
import { generateAccount } from './analysis.js';

const ANALYSIS_ID = '00000000-0000-4000-8000-000000000001';
const tables = Object.keys(resultTableColumns) as ResultTable[];

const cpuMsOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

interface Variant {
  name: string;
  /** Statements before the round (dropping an index) and after it (creating it again). */
  before: string[];
  after: string[];
  only?: ResultTable;
}

/** One round: the tables emptied, a checkpoint, then each table's batches copied; CPU ms and WAL bytes per table. */
async function copyRound(db: DB, batches: Map<ResultTable, ResultRowBatch[]>, variant: Variant): Promise<Map<ResultTable, { cpuMs: number; walBytes: number }>> {
  await sql`TRUNCATE ${sql.raw(tables.join(', '))}, analysis_decisions`.execute(db);
  for (const statement of variant.before) await sql.raw(statement).execute(db);
  await sql`CHECKPOINT`.execute(db);
  const client = await poolOf(db).connect();
  const costs = new Map<ResultTable, { cpuMs: number; walBytes: number }>();
  try {
    const { pid } = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!;
    await client.query('BEGIN');
    for (const table of variant.only ? ['analysis_findings' as const, variant.only] : tables) {
      const { lsn } = (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!;
      const cpuBefore = cpuMsOf(pid);
      for (const batch of batches.get(table) ?? []) await copyRowBatch(client, batch);
      const cpuMs = cpuMsOf(pid) - cpuBefore;
      const wal = (await client.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::text AS bytes', [lsn])).rows[0]!;
      costs.set(table, { cpuMs, walBytes: Number(wal.bytes) });
    }
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  for (const statement of variant.after) await sql.raw(statement).execute(db);
  return costs;
}

async function indexVariants(db: DB): Promise<Variant[]> {
  const indexes = await sql<{ table: ResultTable; name: string; definition: string }>`
    SELECT i.indrelid::regclass::text AS table, i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
      FROM pg_index i WHERE i.indrelid::regclass::text = ANY(${tables}::text[]) AND NOT i.indisprimary ORDER BY 1, 2`.execute(db);
  return indexes.rows.map(({ table, name, definition }) => ({ name: `${table} without ${name}`, before: [`DROP INDEX ${name}`], after: [definition], only: table }));
}

export async function runResultCopyCostsBench(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('BENCH_DATABASE_URL: a PostgreSQL of your own on this machine (its result tables are emptied)');
  const output = await runCampaignAnalysis(generateAccount());
  const result: AuditResult = { scoring: output.scoring, semantic: output.semantic, money: output.money };
  const batches = new Map<ResultTable, ResultRowBatch[]>();
  for (const batch of resultRowBatches(result, undefined, { encoding: { kind: 'copy', analysisId: ANALYSIS_ID }, compactRefs: true })) {
    batches.set(batch.table, [...(batches.get(batch.table) ?? []), batch]);
  }
  for (const table of tables) {
    const list = batches.get(table) ?? [];
    const bytes = list.reduce((sum, batch) => sum + (batch.kind === 'copy' ? batch.bytes.byteLength : 0), 0);
    console.log(`${table}: ${list.reduce((sum, batch) => sum + batch.rows, 0)} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB of COPY text`);
  }
  const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp' });
  try {
    const variants: Variant[] = [{ name: 'every index', before: [], after: [] }, ...(process.env.BENCH_COPY_INDEXES === '1' ? await indexVariants(database.db) : [])];
    for (let round = 0; round < Number(process.env.BENCH_COPY_ROUNDS ?? 2); round++) {
      for (const variant of variants) {
        const costs = await copyRound(database.db, batches, variant);
        const parts = [...costs].map(([table, { cpuMs, walBytes }]) => `${table} ${(cpuMs / 1000).toFixed(2)} s, WAL ${(walBytes / 1024 / 1024).toFixed(0)} MB`);
        const total = [...costs.values()].reduce((sum, cost) => sum + cost.cpuMs, 0);
        console.log(`${variant.name}: PostgreSQL CPU ${(total / 1000).toFixed(2)} s (${parts.join('; ')})`);
      }
    }
  } finally {
    await database.close();
  }
}

export const run = runResultCopyCostsBench;

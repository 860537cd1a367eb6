/**
 * Writes one batch of result rows (result-rows.ts). A `copy` batch is streamed as it is into
 * `COPY <table> (analysis_id, …) FROM STDIN` on the given connection (the saving transaction's);
 * an `arrays` batch is one multi-row INSERT whose columns travel as PostgreSQL arrays that `unnest`
 * turns back into rows (the migration that converts old blobs, which has only a Kysely connection).
 * COPY skips the planner and the array parsing: at 100 000 keywords it writes the rows several times
 * faster than the INSERTs (`npm run bench -- result-storage`).
 */
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { resultTableColumns, type ResultRowBatch } from './result-rows.js';

export async function insertRowBatch(db: Kysely<any>, analysisId: string, batch: ResultRowBatch): Promise<void> {
  if (batch.kind !== 'arrays') throw new Error('insertRowBatch takes an arrays batch; a copy batch goes to copyRowBatch');
  const columns = resultTableColumns[batch.table];
  const names = columns.map(([name]) => name);
  // A document travels as text[] (it is already JSON text) and is cast per row (to json; migration 0060,
  // which runs before its columns became json in 0100, stores it into jsonb by the assignment cast).
  const arrays = columns.map(([, type], index) => sql`${batch.columns[index]}::${sql.raw(type === 'json' ? 'text' : type)}[]`);
  const selected = columns.map(([name, type]) => sql.raw(type === 'json' ? `u.${name}::json` : `u.${name}`));
  await sql`INSERT INTO ${sql.table(batch.table)} (analysis_id, ${sql.join(names.map((name) => sql.ref(name)))})
            SELECT ${analysisId}::uuid, ${sql.join(selected)}
              FROM unnest(${sql.join(arrays)}) AS u(${sql.join(names.map((name) => sql.ref(name)))})`.execute(db);
}

/** The COPY statement of a table: its columns in `resultTableColumns` order after `analysis_id`. */
const copyStatement = (table: keyof typeof resultTableColumns) =>
  `COPY ${table} (analysis_id, ${resultTableColumns[table].map(([name]) => `"${name}"`).join(', ')}) FROM STDIN`;

/** Streams a `copy` batch (its lines already carry the analysis id) on `client`, inside its open transaction. */
export async function copyRowBatch(client: pg.ClientBase, batch: ResultRowBatch): Promise<void> {
  if (batch.kind !== 'copy') throw new Error('copyRowBatch takes a copy batch');
  // The bytes go out in slices of about 1 MB (views, no copies), each ending after a line: a newline byte
  // is never inside a UTF-8 character.
  await pipeline(Readable.from(lineSlices(batch.bytes, 1 << 20), { objectMode: false }), client.query(copyFrom(copyStatement(batch.table))));
}

function* lineSlices(bytes: Uint8Array, size: number): Generator<Buffer> {
  let from = 0;
  while (from < bytes.length) {
    const newline = bytes.indexOf(0x0a, Math.min(bytes.length - 1, from + size));
    const to = newline === -1 ? bytes.length : newline + 1;
    yield Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from);
    from = to;
  }
}

/**
 * Writes one batch of result rows (result-rows.ts) with a single multi-row INSERT: the columns travel
 * as PostgreSQL arrays and `unnest` turns them back into rows, so a batch of 2 000 rows is one
 * statement and one round trip, whatever its width.
 */
import { sql, type Kysely } from 'kysely';
import { resultTableColumns, type ResultRowBatch } from './result-rows.js';

export async function insertRowBatch(db: Kysely<any>, analysisId: string, batch: ResultRowBatch): Promise<void> {
  const columns = resultTableColumns[batch.table];
  const names = columns.map(([name]) => name);
  // jsonb travels as text[] (the documents are already JSON text) and is cast per row.
  const arrays = columns.map(([, type], index) => sql`${batch.columns[index]}::${sql.raw(type === 'jsonb' ? 'text' : type)}[]`);
  const selected = columns.map(([name, type]) => sql.raw(type === 'jsonb' ? `u.${name}::jsonb` : `u.${name}`));
  await sql`INSERT INTO ${sql.table(batch.table)} (analysis_id, ${sql.join(names.map((name) => sql.ref(name)))})
            SELECT ${analysisId}::uuid, ${sql.join(selected)}
              FROM unnest(${sql.join(arrays)}) AS u(${sql.join(names.map((name) => sql.ref(name)))})`.execute(db);
}

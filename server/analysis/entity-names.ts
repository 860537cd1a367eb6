/**
 * Reading side of the compact entity refs (entity-refs.ts): the names their documents need, from
 * `analysis_entity_names`, put back into the documents before anyone else sees them.
 */
import { sql } from 'kysely';
import type { DB } from '../db/database.js';
import { expandInPlace, namesNeeded } from './entity-refs.js';

/** Names of these campaign and group keys of an analysis (all of them without `keys`). */
export async function entityNames(db: DB, analysisId: string, keys?: string[]): Promise<Map<string, string>> {
  const rows = await sql<{ key: string; name: string }>`
    SELECT key, name FROM analysis_entity_names
     WHERE analysis_id = ${analysisId} ${keys ? sql`AND key = ANY(${keys}::text[])` : sql``}`.execute(db);
  return new Map(rows.rows.map((row) => [row.key, row.name]));
}

/**
 * The documents (parsed, of one analysis) with full refs in place of compact ones, changed in place:
 * one indexed read of the names they need, none for documents without compact refs (results stored
 * before them).
 */
export async function expandStoredRefs<T>(db: DB, analysisId: string, documents: T[]): Promise<T[]> {
  const keys = namesNeeded(documents);
  if (keys.length === 0) return documents;
  const names = await entityNames(db, analysisId, keys);
  for (const document of documents) expandInPlace(document, names);
  return documents;
}

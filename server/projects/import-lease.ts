/**
 * One running file-import parse per user, across every server process: a lease row in `rate_limits`
 * (the table of expiring counters every process already shares), key `import-running:<user id>`, taken by
 * one atomic upsert that only succeeds when no live lease exists, and deleted when the parse ends.
 *
 * Not a PostgreSQL advisory lock: a session lock pins one pooled connection for the whole parse (up to the
 * import time limit), so a few dozen users importing at once would hold the pool's 20 connections and stall
 * every other request. A lease holds nothing; if its process dies, the lease simply expires (`ttlMs`).
 */
import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import type { DB } from '../db/database.js';

const leaseKey = (userId: string) => `import-running:${userId}`;

/** Takes the user's import lease for at most `ttlMs`; returns its release, or null while another import of the user runs. */
export async function takeImportLease(db: DB, userId: string, ttlMs: number): Promise<(() => Promise<void>) | null> {
  const key = leaseKey(userId);
  // The `hits` column holds a random owner token, so a release never deletes a lease taken over after expiry.
  const token = randomInt(1, 2 ** 31 - 1);
  const taken = await sql<{ key: string }>`
    INSERT INTO rate_limits (key, hits, reset_at) VALUES (${key}, ${token}, now() + ${ttlMs} * interval '1 millisecond')
    ON CONFLICT (key) DO UPDATE SET hits = excluded.hits, reset_at = excluded.reset_at WHERE rate_limits.reset_at <= now()
    RETURNING key`.execute(db);
  if (taken.rows.length === 0) return null;
  return async () => {
    await db.deleteFrom('rate_limits').where('key', '=', key).where('hits', '=', token).execute();
  };
}

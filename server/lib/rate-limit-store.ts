import type { DB } from '../db/database.js';

// Placeholder until the PostgreSQL-backed store lands: undefined selects the plugin's in-memory store.
export function createRateLimitStore(_db: DB, _redisUrl?: string): undefined {
  return undefined;
}

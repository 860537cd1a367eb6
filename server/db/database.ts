import { Kysely, Migrator, PostgresDialect, type MigrationProvider } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { watchAvailability, type DatabaseAvailability } from './availability.js';

// bigint (int8) columns hold token amounts far below 2^53: read them as numbers, not strings.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export type DB = Kysely<Database>;

/** The pg pool under each database handle: for what Kysely cannot say (COPY, see analysis/row-writer.ts). */
const pools = new WeakMap<Kysely<any>, pg.Pool>();

/** The pg pool of a handle made by `createDatabase`; undefined for another handle (a transaction). */
export function poolIfAny(db: Kysely<any>): pg.Pool | undefined {
  return pools.get(db);
}

/** The pg pool of a handle made by `createDatabase`. */
export function poolOf(db: Kysely<any>): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('Not a database handle of createDatabase');
  return pool;
}

const availabilities = new WeakMap<pg.Pool, DatabaseAvailability>();

/** Handles of the embedded PostgreSQL this machine runs (db/connect.ts): its backends are processes here. */
const embedded = new WeakSet<Kysely<any>>();

export function markEmbedded(db: Kysely<any>): void {
  embedded.add(db);
}

/** Whether the handle's PostgreSQL is the embedded one, so a backend's pid names a process of this machine. */
export function isEmbedded(db: Kysely<any>): boolean {
  return embedded.has(db);
}

/** Whether the database of a handle made by `createDatabase` answers (see availability.ts). */
export function availabilityOf(db: Kysely<any>): DatabaseAvailability {
  return availabilities.get(poolOf(db))!;
}

/**
 * How long a new connection may take before the query that needed it fails (pg waits for ever by
 * default): an unreachable external PostgreSQL must end in a 503, not in requests that hang.
 */
const CONNECT_TIMEOUT_MS = 10_000;

export function createDatabase(connectionString: string, options: { max?: number } = {}): DB {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 20, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle connection the server drops (restart, admin kill, a dropped test database) must not crash
  // the process: without a listener pg re-throws it as an uncaught error. The pool replaces the client.
  pool.on('error', () => undefined);
  // …and the same for checked-out clients; a lost connection also marks the database down.
  availabilities.set(pool, watchAvailability(pool));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; throws (and leaves the last good state) when a migration fails. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

import { createDatabase, migrateToLatest, type DB } from './database.js';
import { attachRunningEmbeddedPostgres, startEmbeddedPostgres } from './embedded.js';

export interface DatabaseHandle {
  db: DB;
  url: string;
  /** Closes the pool and, for the embedded server, stops PostgreSQL. */
  close: () => Promise<void>;
}

const APP_DATABASE = 'reklama';

/**
 * `DATABASE_URL` when given (any PostgreSQL, nothing is started); otherwise the embedded PostgreSQL in
 * `<dataDir>/pg`. Either way the schema is migrated before the handle is returned.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  log?: (line: string) => void;
  /**
   * Use the embedded PostgreSQL a running server already has on `dataDir` when there is one (the admin
   * CLI next to a running server); closing the handle then leaves it running. Otherwise start it.
   */
  shareRunning?: boolean;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const db = createDatabase(options.databaseUrl);
    await migrateToLatest(db);
    return { db, url: options.databaseUrl, close: () => db.destroy() };
  }
  const running = options.shareRunning ? await attachRunningEmbeddedPostgres(options.dataDir) : null;
  if (running) {
    const url = running.url(APP_DATABASE);
    const db = createDatabase(url);
    // The server migrated it at its start; a CLI newer than the server brings the schema up to date (kysely locks).
    await migrateToLatest(db);
    return { db, url, close: () => db.destroy() };
  }
  const embedded = await startEmbeddedPostgres(options.dataDir, options.log);
  try {
    try {
      await embedded.createDatabase(APP_DATABASE);
    } catch (error) {
      if (!String((error as Error).message).includes('already exists')) throw error;
    }
    const url = embedded.url(APP_DATABASE);
    const db = createDatabase(url);
    try {
      await migrateToLatest(db);
    } catch (error) {
      await db.destroy().catch(() => undefined);
      throw error;
    }
    return {
      db,
      url,
      close: async () => {
        await db.destroy();
        await embedded.stop();
      },
    };
  } catch (error) {
    // A failed start must not leave the embedded PostgreSQL running behind the exiting process.
    await embedded.stop().catch(() => undefined);
    throw error;
  }
}

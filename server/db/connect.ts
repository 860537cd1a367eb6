import { setTimeout as delay } from 'node:timers/promises';
import { availabilityOf, createDatabase, markEmbedded, migrateToLatest, type DB } from './database.js';
import { attachRunningEmbeddedPostgres, startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.js';

export interface DatabaseHandle {
  db: DB;
  url: string;
  /** Closes the pool and, for the embedded server, stops PostgreSQL. */
  close: () => Promise<void>;
}

export const APP_DATABASE = 'reklama';

/** Pause between two attempts to start a killed embedded PostgreSQL again (its old backends may still be exiting). */
const RESTART_RETRY_MS = 500;

/** Closes the handle's pool, its outage watch first: a database that stops because the server stops is no outage. */
function closeDatabase(db: DB): Promise<void> {
  availabilityOf(db).close();
  return db.destroy();
}

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
  /** Bring the schema up to date (default); the backup reads the database as it is. */
  migrate?: boolean;
}): Promise<DatabaseHandle> {
  const migrate = options.migrate === false ? async () => [] : migrateToLatest;
  if (options.databaseUrl) {
    const db = createDatabase(options.databaseUrl);
    await migrate(db);
    return { db, url: options.databaseUrl, close: () => closeDatabase(db) };
  }
  const running = options.shareRunning ? await attachRunningEmbeddedPostgres(options.dataDir) : null;
  if (running) {
    const url = running.url(APP_DATABASE);
    const db = createDatabase(url);
    markEmbedded(db);
    // The server migrated it at its start; a CLI newer than the server brings the schema up to date (kysely locks).
    await migrate(db);
    return { db, url, close: () => closeDatabase(db) };
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
    markEmbedded(db);
    try {
      await migrate(db);
    } catch (error) {
      await db.destroy().catch(() => undefined);
      throw error;
    }
    const supervisor = superviseEmbeddedPostgres(embedded, db, options.log ?? (() => {}));
    return {
      db,
      url,
      close: async () => {
        await supervisor.stop();
        await closeDatabase(db);
        await embedded.stop();
      },
    };
  } catch (error) {
    // A failed start must not leave the embedded PostgreSQL running behind the exiting process.
    await embedded.stop().catch(() => undefined);
    throw error;
  }
}

/**
 * The embedded PostgreSQL belongs to this process: when it dies (killed, crashed, out of memory) it is
 * started again, on the same port, until it runs, while the API answers 503 (the database is marked
 * down at once, and found up again by its probe). PostgreSQL recovers from its WAL: only committed
 * transactions are there.
 */
function superviseEmbeddedPostgres(embedded: EmbeddedDatabase, db: DB, log: (line: string) => void): { stop: () => Promise<void> } {
  let stopped = false;
  let restarting: Promise<void> | null = null;
  embedded.onUnexpectedExit(({ how, clean }) => {
    if (stopped) return;
    availabilityOf(db).markDown();
    if (clean) {
      // Someone asked it to stop (Ctrl-C reaches the whole process group; the server's own shutdown follows).
      log(`embedded PostgreSQL: shut down from outside the server (${how}); not starting it again`);
      return;
    }
    log(`embedded PostgreSQL: exited unexpectedly (${how}); starting it again`);
    restarting ??= (async () => {
      for (let attempt = 1; !stopped; attempt++) {
        try {
          await embedded.restart();
          log(`embedded PostgreSQL: started again (attempt ${attempt})`);
          return;
        } catch (error) {
          // Its old backends may hold the shared memory for a moment; a lasting failure is said now and then.
          if (attempt % 20 === 1) log(`embedded PostgreSQL: could not start it again yet (attempt ${attempt}): ${(error as Error)?.message ?? String(error)}`);
          await delay(RESTART_RETRY_MS);
        }
      }
    })().finally(() => {
      restarting = null;
    });
  });
  return {
    stop: async () => {
      stopped = true;
      await restarting;
    },
  };
}

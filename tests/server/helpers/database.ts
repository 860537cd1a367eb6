import { randomBytes } from 'node:crypto';
import { Migrator } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, migrateToLatest, type DB } from '../../../server/db/database.js';
import { migrations } from '../../../server/db/migrations/index.js';

export interface TestDatabase {
  db: DB;
  url: string;
  drop: () => Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A fresh, migrated, throw-away database on the run's PostgreSQL server. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(adminUrl, name);
  const db = createDatabase(url, { max: 30 });
  await migrateToLatest(db);
  return {
    db,
    url,
    drop: async () => {
      await db.destroy();
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * Waits, without polling, until the row `id` of `table` satisfies `ready`: re-read on every NOTIFY on `channel`
 * whose payload is the id. One read at a time; once answered, late notifications read nothing (the client closes).
 */
export async function waitForNotifiedRow<T extends Record<string, unknown>>(
  url: string,
  watch: { channel: string; table: string; id: string },
  ready: (row: T) => boolean,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let done = false;
  let checking: Promise<void> = Promise.resolve();
  try {
    await client.query(`LISTEN ${watch.channel}`);
    return await new Promise<T>((resolve, reject) => {
      const check = () => {
        checking = checking
          .then(async () => {
            if (done) return;
            const row = (await client.query(`SELECT * FROM ${watch.table} WHERE id = $1`, [watch.id])).rows[0] as T | undefined;
            if (row && ready(row)) {
              done = true;
              resolve(row);
            }
          })
          .catch(reject);
      };
      client.on('notification', (message) => message.payload === watch.id && check());
      check();
    });
  } finally {
    done = true;
    await checking.catch(() => undefined);
    await client.end();
  }
}

/** Takes the schema back to just before `migration`: a migration's test stores data the old way there, then migrates to the latest. */
export async function migrateToJustBefore(db: DB, migration: string): Promise<void> {
  const names = Object.keys(migrations).sort();
  const index = names.indexOf(migration);
  if (index < 1) throw new Error(`No migration before ${migration}`);
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(names[index - 1]!);
  if (error) throw error;
}

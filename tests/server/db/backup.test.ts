import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { restoreBackup, writeBackup } from '../../../server/db/backup.js';
import { openDatabase } from '../../../server/db/connect.js';
import { createDatabase, type DB } from '../../../server/db/database.js';
import { call, createTestApp, memoryMailer, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/fixtures.js';
import { register } from '../auth/helpers.js';

/**
 * `npm run backup` / `npm run restore`: a backup taken from a live database comes back table for table,
 * and the restored database serves the same accounts (a user logs in, balances are the same).
 */

/** Every table of `public` with its row count and a digest of its rows (order-independent). */
async function contents(db: DB): Promise<Record<string, { rows: number; digest: string }>> {
  const tables = (await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`.execute(db)).rows.map((row) => row.name);
  const result: Record<string, { rows: number; digest: string }> = {};
  for (const table of tables) {
    const { rows } = await sql<{ rows: number; digest: string | null }>`SELECT count(*)::int AS rows, md5(coalesce(string_agg(t::text, E'\n' ORDER BY t::text), '')) AS digest FROM ${sql.table(table)} t`.execute(db);
    result[table] = { rows: rows[0]!.rows, digest: rows[0]!.digest ?? '' };
  }
  return result;
}

/** A new, empty database on the tests' PostgreSQL server. */
async function emptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `restore_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Runs the CLI as `npm run backup`/`restore` does, in its own process. */
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of ['DATABASE_URL', 'JWT_SECRET', 'SECRETS_KEY']) if (!(name in env)) delete childEnv[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/backup-cli.ts', ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('backup and restore', () => {
  let t: TestApp;
  let folder: string;
  let user: { email: string; password: string; tokens: { access_token: string } };
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    folder = await mkdtemp(path.join(os.tmpdir(), 'reklama-backup-'));
    await chmod(folder, 0o755);
    // Accounts, organizations, refresh tokens, a credit in the ledger and the audit log.
    user = await register(t.app);
    const admin = await createUser(t.app, { role: 'admin' });
    const credit = await call(t.app, 'POST', '/api/v1/admin/tokens/credit', { token: admin.token, body: { email: user.email, amount: 250, reason: 'Проверка резервной копии' } });
    expect(credit.status).toBe(200);
    await register(t.app);
  });
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
    await t.close();
    await rm(folder, { recursive: true, force: true });
  }, 60_000);

  it('restores every table row for row into an empty database, where the user logs in with the same balance', { timeout: 60_000 }, async () => {
    const file = path.join(folder, 'live.backup');
    const summary = await writeBackup(t.database.url, file, { secrets: { 'secrets-key': 'ab'.repeat(32) } });
    expect(summary.rows).toBeGreaterThan(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const target = await emptyDatabase();
    cleanup.push(target.drop);
    await restoreBackup(target.url, file);
    const restored = createDatabase(target.url);
    cleanup.push(() => restored.destroy());
    const source = await contents(t.database.db);
    expect(Object.keys(source)).toContain('token_ledger');
    expect(source.token_ledger!.rows).toBeGreaterThan(0);
    expect(await contents(restored)).toEqual(source);

    // The same server (same secrets) on the restored database.
    const app: FastifyInstance = await buildApp({ config: t.config, db: restored, mailer: memoryMailer([]), databaseUrl: target.url });
    cleanup.push(() => app.close());
    await app.ready();
    const login = await call(app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
    const balanceThere = await call(app, 'GET', '/api/v1/tokens/balance', { token: login.body.tokens.access_token });
    const balanceHere = await call(t.app, 'GET', '/api/v1/tokens/balance', { token: user.tokens.access_token });
    expect(balanceThere.body).toEqual(balanceHere.body);
    expect(balanceHere.body.balance).toBeGreaterThanOrEqual(250);

    // A database that is not empty any more is refused, and left as it was.
    const beforeRefusal = await contents(restored);
    await expect(restoreBackup(target.url, file)).rejects.toThrow('the target database is not empty');
    expect(await contents(restored)).toEqual(beforeRefusal);
  });

  it('takes one instant of a database being written: the restored balances agree with the restored ledger', { timeout: 60_000 }, async () => {
    const admin = await createUser(t.app, { role: 'admin' });
    const payee = await register(t.app);
    // Credits keep committing (ledger row and balance in one transaction each) while the backup reads.
    let writing = true;
    let credited = 0;
    const writer = (async () => {
      while (writing) {
        const answer = await call(t.app, 'POST', '/api/v1/admin/tokens/credit', { token: admin.token, body: { email: payee.email, amount: 1, reason: 'Во время копирования' } });
        expect(answer.status).toBe(200);
        credited++;
      }
    })();
    await expect.poll(() => credited, { timeout: 10_000, interval: 10 }).toBeGreaterThan(3);
    const file = path.join(folder, 'busy.backup');
    await writeBackup(t.database.url, file);
    const creditedDuringBackup = credited;
    writing = false;
    await writer;

    const target = await emptyDatabase();
    cleanup.push(target.drop);
    await restoreBackup(target.url, file);
    const restored = createDatabase(target.url);
    cleanup.push(() => restored.destroy());
    const { rows } = await sql<{ balance: number; ledger: number; last: number }>`SELECT b.balance,
        (SELECT sum(amount)::int FROM token_ledger l WHERE l.user_id = b.user_id) AS ledger,
        (SELECT balance_after FROM token_ledger l WHERE l.user_id = b.user_id ORDER BY created_at DESC, balance_after DESC LIMIT 1) AS last
      FROM token_balances b JOIN users u ON u.id = b.user_id WHERE u.email = ${payee.email}`.execute(restored);
    expect(rows[0]!.balance).toBe(rows[0]!.ledger);
    expect(rows[0]!.balance).toBe(rows[0]!.last);
    expect(creditedDuringBackup).toBeGreaterThan(3);
  });

  it('npm run restore brings a backup into an empty DATA_DIR (and refuses a non-empty one); npm run backup reads it back', { timeout: 240_000 }, async () => {
    const file = path.join(folder, 'cli.backup');
    await mkdir(path.join(folder, 'source-data'));
    await writeFile(path.join(folder, 'source-data', 'secrets-key'), randomBytes(32).toString('hex'), { mode: 0o600 });
    const backup = await cli(['backup', file], { DATABASE_URL: t.database.url, DATA_DIR: path.join(folder, 'source-data') });
    expect(backup.output).toContain(`Backup written: ${file}`);
    expect(backup.code).toBe(0);

    const occupied = path.join(folder, 'occupied');
    await mkdir(occupied);
    await writeFile(path.join(occupied, 'something'), 'x');
    const refused = await cli(['restore', file], { DATA_DIR: occupied });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`DATA_DIR ${occupied} is not empty`);

    const dataDir = path.join(folder, 'restored-data');
    const restore = await cli(['restore', file], { DATA_DIR: dataDir });
    expect(restore.output).toContain(`Restored ${file} into ${dataDir}`);
    expect(restore.code).toBe(0);
    // The secrets the data needs came along with it.
    expect((await readFile(path.join(dataDir, 'secrets-key'), 'utf8')).trim()).toBe((await readFile(path.join(folder, 'source-data', 'secrets-key'), 'utf8')).trim());

    // A backup of that folder (no server runs on it: the CLI starts its PostgreSQL and stops it after)
    // restores into a database equal to the first.
    const again = path.join(folder, 'again.backup');
    const second = await cli(['backup', again], { DATA_DIR: dataDir });
    expect(second.code, second.output).toBe(0);
    const target = await emptyDatabase();
    cleanup.push(target.drop);
    await restoreBackup(target.url, again);
    const restored = createDatabase(target.url);
    cleanup.push(() => restored.destroy());
    expect(await contents(restored)).toEqual(await contents(t.database.db));

    // And the embedded database itself, opened as the server opens it, holds the same rows.
    const embedded = await openDatabase({ dataDir });
    cleanup.push(embedded.close);
    expect(await contents(embedded.db)).toEqual(await contents(t.database.db));
  });
});

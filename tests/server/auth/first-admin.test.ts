import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../server/auth/admin-commands.js';
import { ensureFirstAdmin } from '../../../server/auth/first-admin.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { PASSWORD, register, uniqueEmail } from './helpers.js';

describe('first platform admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { welcomeCredit: 100 } });
  });
  afterAll(() => t.close());

  it('is created on the first start and printed once; the printed password logs in', async () => {
    const printed: string[] = [];
    const print = (text: string) => printed.push(text);
    await ensureFirstAdmin({ db: t.app.db, config: t.config, print, env: {} });
    expect(printed).toHaveLength(1);
    const text = printed[0]!;
    expect(text).toContain('http://localhost:5173/auth');
    expect(text).toContain('admin@reklama-lab.local');
    const password = text.match(/Пароль: (\S+)/)![1]!;

    const login = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: 'admin@reklama-lab.local', password } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ role: 'admin', is_verified: true });
    expect(login.body.organization).toMatchObject({ name: 'Администрация', role: 'owner' });
    const balance = await t.app.db.selectFrom('token_balances').select('balance').where('user_id', '=', login.body.user.id).executeTakeFirstOrThrow();
    expect(balance.balance).toBe(100);

    // Second start: an admin exists, nothing is created or printed.
    await ensureFirstAdmin({ db: t.app.db, config: t.config, print, env: {} });
    expect(printed).toHaveLength(1);
    const admins = await t.app.db.selectFrom('users').select('id').where('role', '=', 'admin').execute();
    expect(admins).toHaveLength(1);
  });
});

describe('first platform admin from ADMIN_EMAIL and ADMIN_PASSWORD', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('uses the configured credentials and does not print the password', async () => {
    const printed: string[] = [];
    const env = { ADMIN_EMAIL: 'Boss@Example.test', ADMIN_PASSWORD: 'Configured1' };
    // Two processes starting at once still make one admin.
    await Promise.all([1, 2].map(() => ensureFirstAdmin({ db: t.app.db, config: t.config, print: (x) => printed.push(x), env })));
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('boss@example.test');
    expect(printed[0]).not.toContain('Configured1');
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: 'boss@example.test', password: 'Configured1' } })).status).toBe(200);
  });

  it('refuses an ADMIN_PASSWORD that breaks the password rules', async () => {
    await t.app.db.updateTable('users').set({ role: 'user' }).execute();
    await expect(ensureFirstAdmin({ db: t.app.db, config: t.config, print: () => {}, env: { ADMIN_PASSWORD: 'weak' } })).rejects.toThrow(/Пароль должен содержать минимум 8 символов/);
  });
});

describe('npm run admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    await runCommand(argv, { db: t.app.db, config: t.config, print: (line) => lines.push(line) });
    return lines.join('\n');
  };

  it('create-admin makes a new verified admin who can log in', async () => {
    const email = uniqueEmail('ops');
    expect(await run('create-admin', '--email', email, '--password', 'OpsPass123', '--first-name', 'Пётр', '--last-name', 'Иванов')).toContain('создан');
    const login = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password: 'OpsPass123' } });
    expect(login.body.user).toMatchObject({ role: 'admin', is_verified: true, full_name: 'Пётр Иванов' });
  });

  it('create-admin promotes an existing user and sets the password', async () => {
    const user = await register(t.app);
    expect(await run('create-admin', '--email', user.email, '--password', 'Promoted123')).toContain('теперь администратор');
    const login = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: 'Promoted123' } });
    expect(login.body.user.role).toBe('admin');
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: PASSWORD } })).status).toBe(401);
  });

  it('create-admin refuses a weak password with the form message', async () => {
    await expect(run('create-admin', '--email', uniqueEmail(), '--password', 'alllowercase1')).rejects.toThrow('Пароль должен содержать заглавные латинские буквы');
  });

  it('credit adds tokens through the ledger and writes an audit record', async () => {
    // Registered, not yet verified: no welcome credit (it comes with the verification), so the balance is the credit alone.
    const user = await register(t.app);
    expect(await run('credit', '--email', user.email, '--amount', '250', '--reason', 'Компенсация')).toContain('Баланс: 250');
    const entry = await t.app.db.selectFrom('token_ledger').selectAll().where('user_id', '=', user.user.id).where('type', '=', 'admin_credit').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ amount: 250, balance_after: 250, reason: 'Компенсация' });
    const audit = await t.app.db.selectFrom('audit_log').selectAll().where('target_user_id', '=', user.user.id).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: 'tokens.admin_credit', payload: { amount: 250, reason: 'Компенсация', entry_id: entry.id, source: 'cli' } });

    // The same idempotency key twice credits once.
    await run('credit', '--email', user.email, '--amount', '5', '--reason', 'Повтор', '--idempotency-key', 'ticket-42');
    expect(await run('credit', '--email', user.email, '--amount', '5', '--reason', 'Повтор', '--idempotency-key', 'ticket-42')).toContain('уже было');
    const balance = await t.app.db.selectFrom('token_balances').select('balance').where('user_id', '=', user.user.id).executeTakeFirstOrThrow();
    expect(balance.balance).toBe(255);
  });

  it('credit refuses a non-positive amount and an unknown user', async () => {
    const user = await register(t.app);
    await expect(run('credit', '--email', user.email, '--amount=-5', '--reason', 'x')).rejects.toThrow('целым положительным');
    await expect(run('credit', '--email', user.email, '--amount', '0', '--reason', 'x')).rejects.toThrow('целым положительным');
    await expect(run('credit', '--email', user.email, '--amount', '2.5', '--reason', 'x')).rejects.toThrow('целым положительным');
    await expect(run('credit', '--email', uniqueEmail('ghost'), '--amount', '5', '--reason', 'x')).rejects.toThrow('не найден');
  });

  it('runs as a program on DATABASE_URL (npm run admin)', async () => {
    const user = await register(t.app);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-cli-'));
    try {
      const tsx = path.resolve('node_modules/.bin/tsx');
      const { stdout } = await promisify(execFile)(tsx, ['server/cli.ts', 'credit', '--email', user.email, '--amount', '7', '--reason', 'Из консоли'], {
        env: { ...process.env, DATABASE_URL: t.database.url, DATA_DIR: dataDir, NODE_ENV: 'test' },
      });
      expect(stdout).toContain('Баланс: 7');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../server/db/embedded.js';

/**
 * `npm start` as a user runs it: the real server process (server/main.ts) on the embedded PostgreSQL of
 * its DATA_DIR, spoken to over real HTTP on 127.0.0.1. The first start prints the first admin's login;
 * SIGTERM stops it cleanly, finishing the request in flight; a second start on the same DATA_DIR keeps
 * every account and prints nothing new.
 */

interface RunningServer {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Resolves once a line matching the pattern has been printed. */
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<string>;
}

let dataDir: string;
let webRoot: string;

async function startServer(): Promise<RunningServer> {
  const port = await findFreePort();
  const tsx = path.resolve('node_modules/.bin/tsx');
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, WEB_ROOT: webRoot, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'debug' };
  for (const name of ['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'SMTP_URL', 'REDIS_URL', 'JWT_SECRET']) delete env[name];
  const child = spawn(tsx, ['server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const waiters = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const check of [...waiters]) check();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitForOutput = (pattern: RegExp, timeoutMs = 90_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${pattern} in:\n${output}`));
      }, timeoutMs);
      const check = () => {
        const match = output.match(pattern);
        if (!match) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(match[0]);
      };
      waiters.add(check);
      check();
      void exited.then(() => {
        if (!waiters.has(check)) return;
        clearTimeout(timer);
        waiters.delete(check);
        reject(new Error(`server exited before printing ${pattern}:\n${output}`));
      });
    });
  const server = { child, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited, waitForOutput };
  await waitForOutput(/Reklama Lab: http/);
  return server;
}

async function stop(server: RunningServer): Promise<number | null> {
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
  return server.exited;
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-process-'));
  // PostgreSQL runs as the `postgres` user when the tests run as root: it must be able to enter the folder.
  await chmod(dataDir, 0o755);
  webRoot = path.join(dataDir, 'web');
  await mkdir(path.join(webRoot, 'assets'), { recursive: true });
  await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><html lang="ru"><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>');
  await writeFile(path.join(webRoot, 'assets', 'app.js'), 'console.log("shell")');
});
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the server process (npm start)', () => {
  let first: RunningServer | undefined;
  let second: RunningServer | undefined;
  afterAll(async () => {
    for (const server of [first, second]) if (server) await stop(server);
  });

  let adminEmail = '';
  let adminPassword = '';

  it('starts on the embedded PostgreSQL of DATA_DIR and prints how to log in as the first admin', async () => {
    first = await startServer();
    const printed = first.output();
    expect(printed).toContain('Создан первый администратор платформы');
    expect(printed).toMatch(new RegExp(`Вход:\\s+http://localhost:${new URL(first.baseUrl).port}/auth`));
    adminEmail = printed.match(/Email:\s+(\S+)/)![1]!;
    adminPassword = printed.match(/Пароль:\s+(\S+)/)![1]!;
    expect(adminEmail).toBe('admin@reklama-lab.local');

    const health = await fetch(`${first.baseUrl}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', database: 'up' });
    // One port serves the PWA too: a client route gets the shell.
    const page = await fetch(`${first.baseUrl}/projects/some-id`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    // Without SMTP_URL the verification link goes to the server log, and following it works.
    const email = `process-${Date.now()}@example.test`;
    const registered = await fetch(`${first.baseUrl}/api/v1/auth/register`, json({ first_name: 'Лев', last_name: 'Логов', email, password: 'Kosmolab427', organization_name: 'Журнал' }));
    expect(registered.status).toBe(202);
    const link = await first.waitForOutput(/http:\/\/localhost:\d+\/auth\/verify-email\?token=[A-Za-z0-9_-]+/);
    const verified = await fetch(`${first.baseUrl}/api/v1/auth/verify-email`, json({ token: new URL(link).searchParams.get('token') }));
    expect(verified.status).toBe(200);
    expect((await verified.json()).user).toMatchObject({ email, is_verified: true });
    // The JWT secret was generated in the data folder.
    expect((await stat(path.join(dataDir, 'jwt-secret'))).mode & 0o777).toBe(0o600);
  });

  it('runs the admin CLI against the running server: credits without stopping it', async () => {
    const server = first!;
    const login = await fetch(`${server.baseUrl}/api/v1/auth/login`, json({ email: adminEmail, password: adminPassword }));
    const token = (await login.json()).tokens.access_token as string;
    const balanceOf = async () => (await (await fetch(`${server.baseUrl}/api/v1/tokens/balance`, { headers: { authorization: `Bearer ${token}` } })).json()).balance as number;
    const before = await balanceOf();

    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    const cli = spawn(path.resolve('node_modules/.bin/tsx'), ['server/cli.ts', 'credit', '--email', adminEmail, '--amount', '250', '--reason', 'Оплата по счёту 17', '--idempotency-key', 'invoice-17'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    cli.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    cli.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => cli.once('exit', resolve));
    expect(code, printed).toBe(0);
    expect(printed).toContain(`Начислено 250 токенов пользователю ${adminEmail}. Баланс: ${before + 250}.`);

    // The server never stopped: the same process, its database still up, the credit visible at once.
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    expect(await balanceOf()).toBe(before + 250);
    const history = await (await fetch(`${server.baseUrl}/api/v1/tokens/history?type=admin_credit`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(history.items[0]).toMatchObject({ type: 'admin_credit', amount: 250, reason: 'Оплата по счёту 17' });
    expect(server.output()).not.toMatch(/could not start|terminating connection/);
  });

  it('stops on SIGTERM, finishing the request in flight, and exits with 0', async () => {
    const server = first!;
    // A login whose body arrives in two halves: the server has started it when SIGTERM comes, and the
    // rest of the body is sent only once the server is shutting down, so the request is surely in flight.
    const body = Buffer.from(JSON.stringify({ email: adminEmail, password: adminPassword }));
    const { port } = new URL(server.baseUrl);
    const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/auth/login', headers: { 'content-type': 'application/json', 'content-length': body.length } });
    const answer = new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection, text }));
      });
      request.on('error', reject);
    });
    request.write(body.subarray(0, 10));
    await server.waitForOutput(/"url":"\/api\/v1\/auth\/login"[^\n]*"msg":"incoming request"/);
    server.child.kill('SIGTERM');
    await server.waitForOutput(/"msg":"shutting down"/);
    request.end(body.subarray(10));

    const { status, connection, text } = await answer;
    expect(status).toBe(200);
    expect(JSON.parse(text).user.email).toBe(adminEmail);
    // Its keep-alive socket ends with it, so close() does not wait for an idle client.
    expect(connection).toBe('close');

    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"shutting down"');
    expect(server.output()).toContain('"msg":"stopped"');
    await expect(fetch(`${server.baseUrl}/api/health`)).rejects.toThrow();
  });

  it('starts again on the same DATA_DIR with the data kept, and prints no new admin', async () => {
    second = await startServer();
    expect(second.output()).not.toContain('Создан первый администратор платформы');
    const login = await fetch(`${second.baseUrl}/api/v1/auth/login`, json({ email: adminEmail, password: adminPassword }));
    expect(login.status).toBe(200);
    const body = await login.json();
    expect(body.user).toMatchObject({ email: adminEmail, role: 'admin' });
    const balance = await fetch(`${second.baseUrl}/api/v1/tokens/balance`, { headers: { authorization: `Bearer ${body.tokens.access_token}` } });
    expect(await balance.json()).toEqual({ balance: 350 }); // the welcome credit and the CLI credit made while the first server ran
    expect(await stop(second)).toBe(0);
  });
});

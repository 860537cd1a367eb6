import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../server/db/embedded.js';

/**
 * `kill -9` of the server (or the OOM killer) leaves its embedded PostgreSQL running. The next `npm
 * start` on the same DATA_DIR must shut that one down and come up with every account kept. The server
 * runs as one node process (`node --import tsx`, no tsx wrapper that would outlive the kill), spoken
 * to over real HTTP on 127.0.0.1.
 */

interface Server {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  exited: Promise<number | null>;
}

let dataDir: string;
/** Every server this file started, so none outlives it (even when a test times out half-way). */
const started: ChildProcess[] = [];

function run(extraEnv: NodeJS.ProcessEnv = {}): Promise<Server> {
  return findFreePort().then((freePort) => {
    const port = extraEnv.PORT ?? String(freePort);
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, WEB_ROOT: path.join(dataDir, 'no-web'), PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...extraEnv };
    for (const name of ['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'SMTP_URL', 'REDIS_URL', 'JWT_SECRET']) if (!(name in extraEnv)) delete env[name];
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited };
  });
}

/** Starts the server and waits for its ready line (or its exit). */
async function start(): Promise<Server> {
  const server = await run();
  await expect
    .poll(() => (server.child.exitCode !== null ? `exited: ${server.output()}` : /Reklama Lab: http/.test(server.output())), { timeout: 90_000, interval: 50 })
    .toBe(true);
  return server;
}

const login = (server: Server, email: string, password: string) =>
  fetch(`${server.baseUrl}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });

/** The pid of the PostgreSQL that holds the data folder, from its lock file. */
async function postmasterPid(folder = dataDir): Promise<number | null> {
  try {
    return Number.parseInt((await readFile(path.join(folder, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]!, 10);
  } catch {
    return null;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-crash-'));
  await chmod(dataDir, 0o755);
});
afterAll(async () => {
  for (const child of started) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  // Whatever this test started and left running goes too (by its own pid, from its own lock file).
  const pid = await postmasterPid();
  if (pid && alive(pid)) process.kill(pid, 'SIGINT');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('start-up after a crash (kill -9) on the same DATA_DIR', () => {
  let second: Server | undefined;
  afterAll(async () => {
    if (second && second.child.exitCode === null) {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  // Two server starts: generous on a busy machine.
  it('shuts the left-over PostgreSQL down, starts, and logs in with the accounts kept', { timeout: 240_000 }, async () => {
    const first = await start();
    const email = first.output().match(/Email:\s+(\S+)/)![1]!;
    const password = first.output().match(/Пароль:\s+(\S+)/)![1]!;
    expect((await login(first, email, password)).status).toBe(200);
    const leftOver = await postmasterPid();
    expect(leftOver).toBeGreaterThan(0);

    first.child.kill('SIGKILL');
    await first.exited;
    // The server is gone, its PostgreSQL is not: the situation a crash leaves behind.
    expect(alive(leftOver!)).toBe(true);

    second = await start();
    expect(second.output()).toContain(`a left-over server (pid ${leftOver})`);
    expect(alive(leftOver!)).toBe(false);
    const again = await login(second, email, password);
    expect(again.status).toBe(200);
    expect((await again.json()).user.email).toBe(email);
    expect(second.output()).not.toContain('Создан первый администратор платформы');
  });

  it('refuses a second server on a DATA_DIR in use, saying what to do instead of printing undefined', { timeout: 120_000 }, async () => {
    const running = second!;
    const other = await run();
    expect(await other.exited).toBe(1);
    const printed = other.output();
    expect(printed).toContain('Reklama Lab could not start: starting the embedded PostgreSQL in');
    expect(printed).toContain(`belongs to another running process (pid ${running.child.pid}`);
    expect(printed).toMatch(/What to do: stop that process first/);
    expect(printed).not.toMatch(/^undefined$/m);
    // The running server was left alone.
    expect((await fetch(`${running.baseUrl}/api/health`)).status).toBe(200);
  });

  it('explains a bad setting instead of crashing with a stack', { timeout: 120_000 }, async () => {
    const bad = await run({ TRUST_PROXY: 'true' });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain('Reklama Lab could not start: reading the configuration (environment variables) failed.');
    expect(bad.output()).toContain('TRUST_PROXY=true would let any client forge its address');
  });

  it('explains a taken port, and stops the embedded PostgreSQL it had started', { timeout: 180_000 }, async () => {
    const otherData = await mkdtemp(path.join(os.tmpdir(), 'reklama-crash-port-'));
    await chmod(otherData, 0o755);
    try {
      const clash = await run({ DATA_DIR: otherData, PORT: new URL(second!.baseUrl).port });
      expect(await clash.exited).toBe(1);
      expect(clash.output()).toContain('Reklama Lab could not start: listening on 127.0.0.1:');
      expect(clash.output()).toContain('What to do: another program listens on this port: stop it or choose another port with PORT=…');
      // Nothing is left running on the other folder.
      expect(await postmasterPid(otherData)).toBeNull();
    } finally {
      await rm(otherData, { recursive: true, force: true });
    }
  });
});

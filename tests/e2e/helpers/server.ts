import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../../server/db/embedded.js';

export interface RunningServer {
  url: string;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

const root = path.resolve(new URL('../../..', import.meta.url).pathname);

/**
 * Starts the production build (`build/`, made by `npm run build` before the e2e run) exactly as
 * `npm start` does, on a fresh data folder with the embedded PostgreSQL, and waits until it answers.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-e2e-'));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(process.execPath, ['build/server/server/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      WEB_ROOT: path.join(root, 'build/web'),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      // Every browser of the run registers from 127.0.0.1: the production limit (5 an hour) would stop a file's flows.
      REGISTER_RATE_LIMIT_MAX: '100',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (log += chunk));
  child.stderr?.on('data', (chunk) => (log += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const stop = async () => {
    try {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  };

  // Wait for the health check, or fail fast with the server's output if it dies.
  const deadline = Date.now() + 90_000;
  for (;;) {
    const status = await Promise.race([
      fetch(`${url}/api/health`).then((r) => r.status).catch(() => 0),
      exited.then(() => -1),
    ]);
    if (status === 200) break;
    if (status === -1 || Date.now() > deadline) {
      // A server that did not come up leaves neither a process nor its data folder behind.
      await stop();
      throw new Error(`Server did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    dataDir,
    output: () => log,
    stop,
  };
}

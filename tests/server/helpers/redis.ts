import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';

export interface TestRedis {
  url: string;
  stop: () => Promise<void>;
}

async function answersPing(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A real Redis for the tests that need one: TEST_REDIS_URL, else the machine's own on 127.0.0.1:6379
 * (CI machines run one), else a throw-away `redis-server` started here and stopped by `stop`.
 */
export async function startTestRedis(): Promise<TestRedis> {
  const configured = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (await answersPing(configured)) return { url: configured, stop: async () => undefined };

  const dir = await mkdtemp(path.join(os.tmpdir(), 'reklama-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  const spawnFailed = new Promise<never>((_, reject) => child.once('error', (error) => reject(new Error(`No Redis at ${configured} and redis-server could not start: ${error.message}`))));
  const url = `redis://127.0.0.1:${port}`;
  const ready = (async () => {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if (await answersPing(url)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('redis-server did not answer');
  })();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    try {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        child.kill('SIGTERM');
        await exited;
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  try {
    await Promise.race([ready, spawnFailed]);
  } catch (error) {
    // A Redis that never answered leaves neither a process nor its folder behind.
    await stop();
    throw error;
  }
  return { url, stop };
}

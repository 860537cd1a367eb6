/**
 * The server process of the end-to-end bench (bench/end-to-end.ts starts it): the production app with
 * its job workers in one process, as `npm start` runs it, on an embedded PostgreSQL in a temporary
 * folder. Prints one JSON line `{url, token, databaseUrl}` when it listens; stops on SIGTERM.
 */
import { appendFileSync } from 'node:fs';
import { startBenchApp } from './bench-app.js';

// BENCH_MEMORY_TRACE=<file>: every second, the process's RSS and the main thread's heap, a line each
// (what the threads hold is the difference; a thread that exits shows as a drop in RSS).
const traceFile = process.env.BENCH_MEMORY_TRACE;
if (traceFile) {
  const started = Date.now();
  setInterval(() => {
    const memory = process.memoryUsage();
    const mb = (bytes: number) => Math.round(bytes / 1048576);
    appendFileSync(traceFile, `${((Date.now() - started) / 1000).toFixed(0)} s: rss ${mb(memory.rss)} MB, main heap ${mb(memory.heapUsed)}/${mb(memory.heapTotal)} MB, external ${mb(memory.external)} MB (array buffers ${mb(memory.arrayBuffers)})\n`);
  }, 1000).unref();
}

const bench = await startBenchApp({ jobs: true, balance: 1_000_000_000 });
console.log(JSON.stringify({ ready: true, url: bench.url, token: bench.accessToken, databaseUrl: bench.databaseUrl, source: bench.source }));
const stop = async () => {
  await bench.close();
  process.exit(0);
};
bench.takeOverShutdownSignals();
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

/**
 * The server process of the results-at-scale bench: bench/end-to-end-server.ts's app (no job workers:
 * the bench writes the analysis itself), which also takes one command on stdin, `{"wholeExport":
 * analysisId}`: the export the way it was before (bench/export-whole.ts) in this process, so its peak
 * RSS is measured on the same process as the route's.
 */
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { startBenchApp } from './bench-app.js';
import { runWholeExport } from './export-whole.js';

// Sources, not a build: the old path's thread module is a bench file, and both paths then run the same code the same way.
process.env.BENCH_BUILD_DIR ??= 'no-build';
const bench = await startBenchApp({ balance: 1_000_000 });
console.log(JSON.stringify({ ready: true, url: bench.url, token: bench.accessToken, databaseUrl: bench.databaseUrl, source: bench.source }));
createInterface({ input: process.stdin }).on('line', (line) => {
  const command = JSON.parse(line) as { wholeExport?: string };
  if (!command.wholeExport) return;
  const started = performance.now();
  runWholeExport(bench.app.db, command.wholeExport).then(
    (file) => console.log(JSON.stringify({ reply: true, ms: performance.now() - started, ...file })),
    (error: unknown) => console.log(JSON.stringify({ reply: true, error: String(error) })),
  );
});
const stop = async () => {
  await bench.close();
  process.exit(0);
};
bench.takeOverShutdownSignals();
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

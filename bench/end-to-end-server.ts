/**
 * The server process of the end-to-end bench (bench/end-to-end.ts starts it): the production app with
 * its job workers in one process, as `npm start` runs it, on an embedded PostgreSQL in a temporary
 * folder. Prints one JSON line `{url, token, databaseUrl}` when it listens; stops on SIGTERM.
 */
import { startBenchApp } from './bench-app.js';

const bench = await startBenchApp({ jobs: true, balance: 1_000_000_000 });
console.log(JSON.stringify({ ready: true, url: bench.url, token: bench.accessToken, databaseUrl: bench.databaseUrl, source: bench.source }));
const stop = async () => {
  await bench.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

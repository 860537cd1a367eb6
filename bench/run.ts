import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench [-- name …]`: runs every bench module of the project in turn (or only the named ones).
 * Each area adds its own module here; a module that does not exist yet is skipped.
 */
export interface BenchModule {
  /** Runs the measurements and prints its own table; resolves when everything it started has stopped. */
  run: () => Promise<void>;
}

const registry: { name: string; file: string }[] = [
  { name: 'server', file: './server.js' },
  { name: 'server-during-audit', file: './server-during-audit.js' },
  { name: 'import', file: './import.js' },
  { name: 'analysis', file: './analysis.js' },
  { name: 'result-storage', file: './result-storage.js' },
  { name: 'result-copy-costs', file: './result-copy-costs.js' },
  { name: 'compression', file: './compression.js' },
  { name: 'hostile-uploads', file: './hostile-uploads.js' },
  { name: 'end-to-end', file: './end-to-end.js' },
  { name: 'direct-api-import', file: './direct-api-import.js' },
  { name: 'results-at-scale', file: './results-at-scale.js' },
  { name: 'auth-load', file: './auth-load.js' },
  { name: 'documents', file: './documents.js' },
  { name: 'settings-checks', file: './settings-checks.js' },
  { name: 'audit-changes', file: './audit-changes.js' },
  { name: 'monitoring-sweep', file: './monitoring-sweep.js' },
  { name: 'client-report', file: './client-report.js' },
];

/** The module's source next to this file (tsx runs .ts; a compiled copy would be .js). */
function isPresent(file: string): boolean {
  const path = fileURLToPath(new URL(file, import.meta.url));
  return existsSync(path) || existsSync(path.replace(/\.js$/, '.ts'));
}

async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !registry.some((entry) => entry.name === name));
  if (unknown.length > 0) throw new Error(`Unknown bench module(s): ${unknown.join(', ')}. Known: ${registry.map((e) => e.name).join(', ')}`);

  for (const entry of registry) {
    if (wanted.length > 0 && !wanted.includes(entry.name)) continue;
    if (!isPresent(entry.file)) continue;
    console.log(`\n=== bench: ${entry.name} ===`);
    const module = (await import(entry.file)) as BenchModule;
    await module.run();
  }
}

main().then(
  // Stray handles (a pool timer, a keep-alive socket) must not keep a finished bench alive.
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

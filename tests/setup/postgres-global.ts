import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../server/db/embedded.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server on which every test file creates its own database. */
    postgresAdminUrl: string;
  }
}

/**
 * One PostgreSQL server for the whole run: the machine's own when TEST_DATABASE_URL is set (CI runs
 * the suite against both), otherwise an embedded one in a temporary folder.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('postgresAdminUrl', process.env.TEST_DATABASE_URL);
    return;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'reklama-test-pg-'));
  const { chmod } = await import('node:fs/promises');
  await chmod(dir, 0o755);
  const embedded = await startEmbeddedPostgres(dir);
  project.provide('postgresAdminUrl', embedded.url('postgres'));
  return async () => {
    await embedded.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

import { chmod, mkdtemp, rm } from 'node:fs/promises';
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
  const removeDir = () => rm(dir, { recursive: true, force: true });
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  try {
    // PostgreSQL runs as the `postgres` user when the tests run as root: it must be able to enter the folder.
    await chmod(dir, 0o755);
    embedded = await startEmbeddedPostgres(dir);
  } catch (error) {
    await removeDir();
    throw error;
  }
  project.provide('postgresAdminUrl', embedded.url('postgres'));
  return async () => {
    try {
      await embedded.stop();
    } finally {
      await removeDir();
    }
  };
}

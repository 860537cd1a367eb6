import { randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResultSaving, SAVING_APPLICATION_NAME } from '../../../server/analysis/result-saving.js';
import { BACKGROUND_NICENESS } from '../../../server/lib/background-priority.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { entityNameBatch, savingBackends } from './saving-fixture.js';

/** Copies one row, and reports the saving's backends and their niceness meanwhile, then the backends left after its end. */
async function saveOnce(url: string, lowerBackendPriority: boolean): Promise<{ niceness: number[]; left: number[] }> {
  const analysisId = randomUUID();
  const saving = openResultSaving({ connectionString: url, lowerBackendPriority, analysisId, attempt: 1 });
  await saving.write(entityNameBatch(analysisId));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const pids = await savingBackends(client);
    expect(pids.length).toBeGreaterThan(0);
    const niceness = pids.map((pid) => os.getPriority(pid));
    // No analysis row: the run owns nothing, and nothing commits.
    expect(await saving.commit()).toBe(false);
    return { niceness, left: await savingBackends(client) };
  } finally {
    await client.end();
  }
}

// The test run's own embedded PostgreSQL: its backends are processes of this machine (with
// TEST_DATABASE_URL the server may be another user's, whose processes this one may not renice).
describe.runIf(process.platform === 'linux' && !process.env.TEST_DATABASE_URL)('saving a result beside the API', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it(`copies on backends at background priority when PostgreSQL is the embedded one (named ${SAVING_APPLICATION_NAME}), and closes them after`, async () => {
    const { niceness, left } = await saveOnce(database.url, true);
    expect(niceness.every((each) => each === BACKGROUND_NICENESS)).toBe(true);
    expect(left).toEqual([]);
  });

  it('leaves the backends of another PostgreSQL as they are', async () => {
    const { niceness, left } = await saveOnce(database.url, false);
    expect(niceness.every((each) => each < BACKGROUND_NICENESS)).toBe(true);
    expect(left).toEqual([]);
  });
});

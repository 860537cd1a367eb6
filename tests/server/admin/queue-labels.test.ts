import { describe, expect, it } from 'vitest';
import { queueLabels } from '../../../contract/admin.js';
import { jobWorkers } from '../../../server/job-workers.js';

/** The admin's queue screen names every queue the app runs in Russian: a new job needs its label. */
describe('queue labels', () => {
  it('has a Russian name for the queue of every job worker', () => {
    for (const { queue } of jobWorkers) {
      expect(queueLabels[queue], queue).toMatch(/^[А-ЯЁ][^a-z]+$/);
    }
  });
});

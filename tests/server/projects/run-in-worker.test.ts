import { describe, expect, it } from 'vitest';
import { runInWorker, WorkerTaskError } from '../../../server/lib/run-in-worker.js';

// Named as the compiled build names it (.js); run-in-worker finds the .ts source under vitest.
const tasks = new URL('./fixtures/worker-tasks.js', import.meta.url);

describe('runInWorker', () => {
  it('runs an exported function in another thread and returns its value', async () => {
    await expect(runInWorker(tasks, 'add', [2, 3])).resolves.toEqual({ sum: 5, inMainThread: false });
  });

  it('rejects with the error thrown inside the worker, code included', async () => {
    const error = await runInWorker(tasks, 'failWithCode').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerTaskError);
    expect(error).toMatchObject({ message: 'Файл повреждён', code: 'BROKEN_FILE' });
  });

  it('rejects when the module has no such export', async () => {
    await expect(runInWorker(tasks, 'missing')).rejects.toThrow(/no exported function missing/);
  });

  it('keeps the calling event loop free while the worker computes', async () => {
    let ticks = 0;
    const interval = setInterval(() => ticks++, 10);
    try {
      await runInWorker(tasks, 'spin', [400]);
    } finally {
      clearInterval(interval);
    }
    // A blocked loop would have ticked at most once.
    expect(ticks).toBeGreaterThan(5);
  });

  it('stops a task that runs past its time limit', async () => {
    await expect(runInWorker(tasks, 'spin', [5_000], { timeoutMs: 200 })).rejects.toThrow(/timed out/);
  });
});

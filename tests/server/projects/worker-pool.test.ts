import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKGROUND_NICENESS } from '../../../server/lib/background-priority.js';
import { TaskPool, WorkerLimitError, WorkerTaskError, PoolBusyError } from '../../../server/lib/worker-pool.js';

// Named as the compiled build names it (.js); the pool finds the .ts source under vitest.
const tasks = new URL('./fixtures/worker-tasks.js', import.meta.url);

describe('TaskPool (piscina worker threads)', () => {
  const pool = new TaskPool({ name: 'test', maxThreads: 1, heapMb: 64, timeoutMs: 30_000, maxQueue: 1 });
  afterAll(() => pool.close());

  it('runs an exported function in another thread and returns its value', async () => {
    await expect(pool.run(tasks, 'add', [2, 3])).resolves.toEqual({ sum: 5, inMainThread: false });
  });

  it.runIf(process.platform === 'linux')('runs its threads at background priority, the main thread (the requests) at normal', async () => {
    const before = os.getPriority(process.pid);
    await expect(pool.run(tasks, 'priorities')).resolves.toEqual({ thread: Math.max(before, BACKGROUND_NICENESS), process: before });
    expect(os.getPriority(process.pid)).toBe(before);
  });

  it('rejects with the error thrown inside the worker, code included', async () => {
    const error = await pool.run(tasks, 'failWithCode').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerTaskError);
    expect(error).toMatchObject({ message: 'Файл повреждён', code: 'BROKEN_FILE' });
  });

  it('rejects when the module has no such export', async () => {
    await expect(pool.run(tasks, 'missing')).rejects.toThrow(/no exported function missing/);
  });

  it('keeps the calling event loop free while the worker computes', async () => {
    // The worker spins until this thread, ticking on its event loop, has ticked ten times: a blocked loop
    // would never get there and the test would time out.
    const flag = new Int32Array(new SharedArrayBuffer(4));
    let ticks = 0;
    const interval = setInterval(() => {
      if (++ticks >= 10) Atomics.store(flag, 0, 1);
    }, 10);
    try {
      await pool.run(tasks, 'spinUntilReleased', [flag]);
    } finally {
      clearInterval(interval);
    }
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  it('stops a task that runs past its time limit, and the next task gets a fresh thread', async () => {
    const error = await pool.run(tasks, 'spin', [5_000], { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerLimitError);
    expect(error).toMatchObject({ limit: 'timeout' });
    await expect(pool.run(tasks, 'add', [1, 1])).resolves.toEqual({ sum: 2, inMainThread: false });
  });

  it('a task over the heap limit fails alone; the pool replaces its thread', async () => {
    const error = await pool.run(tasks, 'allocate', [512]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerLimitError);
    expect(error).toMatchObject({ limit: 'memory' });
    await expect(pool.run(tasks, 'add', [2, 2])).resolves.toEqual({ sum: 4, inMainThread: false });
  });

  it("stops a running task on the caller's abort, with the caller's reason", async () => {
    const abort = new AbortController();
    const running = pool.run(tasks, 'spin', [5_000], { signal: abort.signal });
    abort.abort(new Error('cancelled by the user'));
    await expect(running).rejects.toThrow('cancelled by the user');
    await expect(pool.run(tasks, 'add', [3, 3])).resolves.toMatchObject({ sum: 6 });
  });

  it('queues tasks beyond its threads and refuses more than its queue holds', async () => {
    const first = pool.run(tasks, 'spin', [300]);
    const second = pool.run(tasks, 'add', [1, 2]);
    await expect(pool.run(tasks, 'add', [1, 3])).rejects.toBeInstanceOf(PoolBusyError);
    await expect(first).resolves.toBeGreaterThan(0);
    await expect(second).resolves.toMatchObject({ sum: 3 });
  });

  it('a thread gives back the heap a big task left as garbage before the next task', async () => {
    const roomy = new TaskPool({ name: 'roomy', maxThreads: 1, heapMb: 1024, timeoutMs: 30_000 });
    try {
      expect(await roomy.run<number>(tasks, 'leaveGarbage', [320])).toBeGreaterThan(320);
      expect(await roomy.run<number>(tasks, 'heapSizeMb')).toBeLessThan(100);
    } finally {
      await roomy.close();
    }
  }, 30_000);
});

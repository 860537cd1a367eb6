/**
 * The entry every pool thread loads (see worker-pool.ts): a task names a module and one of its exported
 * functions; the thread imports the module (once, then cached by the module system), calls the function
 * and answers with its value or a plain description of the error, so the caller sees the error's own
 * message and code (structured cloning of an Error would drop the code).
 */
import v8 from 'node:v8';
import vm from 'node:vm';

export interface PoolTask {
  moduleUrl: string;
  exportName: string;
  args: unknown[];
}

export type PoolTaskReply = { ok: true; value: unknown } | { ok: false; error: { name: string; message: string; code?: string; stack?: string } };

/**
 * A thread whose heap grew past this during a task collects its garbage as soon as the answer is sent.
 * Otherwise V8 keeps the task's dead objects (a parsed 1 000 000-keyword account: over a gigabyte) until
 * the thread allocates again or exits idle 30 s later — the import thread held that memory through the
 * first half of the audit that follows a save, the analysis thread through the export after it.
 */
const COLLECT_AFTER_HEAP_BYTES = 256 * 1024 * 1024;

let fullCollection: (() => void) | undefined;

/** V8's full collection, which also gives the freed pages back (the `gc` of `--expose-gc`, which a thread's execArgv cannot take). */
function collectGarbage(): void {
  if (!fullCollection) {
    v8.setFlagsFromString('--expose-gc');
    fullCollection = vm.runInNewContext('gc') as () => void;
    v8.setFlagsFromString('--no-expose-gc');
  }
  fullCollection();
}

export default async function runPoolTask(task: PoolTask): Promise<PoolTaskReply> {
  try {
    return await runTask(task);
  } finally {
    // After the answer is posted (piscina posts it when this promise settles), before the next task.
    if (v8.getHeapStatistics().total_heap_size > COLLECT_AFTER_HEAP_BYTES) setImmediate(collectGarbage);
  }
}

async function runTask(task: PoolTask): Promise<PoolTaskReply> {
  try {
    const module = (await import(task.moduleUrl)) as Record<string, unknown>;
    const fn = module[task.exportName];
    if (typeof fn !== 'function') throw new Error(`${task.moduleUrl} has no exported function ${task.exportName}`);
    // A value that cannot be cloned (a function, a class with handles…) makes piscina's post fail: the
    // thread dies and the caller's task rejects with the DataCloneError.
    return { ok: true, value: await fn(...task.args) };
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    return { ok: false, error: { name: err.name, message: err.message, code: (err as { code?: string }).code, stack: err.stack } };
  }
}

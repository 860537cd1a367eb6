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
 * A thread whose heap grew past this during a task collects its garbage before it answers.
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
  const reply = await runTask(task);
  // Before the answer rather than after it: piscina's idle thread may block in Atomics.wait, and a
  // collection scheduled for later could wait until the next task. A full collection of a heap that is
  // mostly garbage costs little next to the task that made it.
  if (v8.getHeapStatistics().total_heap_size > COLLECT_AFTER_HEAP_BYTES) collectGarbage();
  return reply;
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

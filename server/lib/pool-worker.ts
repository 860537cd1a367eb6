/**
 * The entry every pool thread loads (see worker-pool.ts): a task names a module and one of its exported
 * functions; the thread imports the module (once, then cached by the module system), calls the function
 * and answers with its value or a plain description of the error, so the caller sees the error's own
 * message and code (structured cloning of an Error would drop the code).
 */
import { collectGarbageIfLarge } from './collect-garbage.js';
import { lowerThisWorkerThreadsPriority } from './background-priority.js';

// Imports, audits and exports are background work: the main thread answering requests goes first.
lowerThisWorkerThreadsPriority();

export interface PoolTask {
  moduleUrl: string;
  exportName: string;
  args: unknown[];
}

export type PoolTaskReply = { ok: true; value: unknown } | { ok: false; error: { name: string; message: string; code?: string; stack?: string } };

export default async function runPoolTask(task: PoolTask): Promise<PoolTaskReply> {
  const reply = await runTask(task);
  // The task's dead objects go now, not when the thread next allocates or exits idle 30 s later: the
  // import thread held a parsed 1 000 000-keyword account (~1.2 GB) through the first half of the audit
  // that follows a save, the analysis thread its run's through the export after it. Before the answer
  // rather than after it: piscina's idle thread may block in Atomics.wait, and a collection scheduled for
  // later could wait until the next task. Collecting a heap that is mostly garbage costs little.
  collectGarbageIfLarge();
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

/**
 * Work nobody is waiting on a screen for (the engines' threads, the saving of a result) runs at a lower
 * CPU priority than the request path, so on a machine whose cores are all busy the scheduler hands a core
 * to an API request first: an audit or a sweep takes a little longer, and `GET /tokens/balance` stays fast
 * meanwhile (issue 26; `npm run bench -- server-during-audit`). Linux only; elsewhere, or when the system
 * refuses, the work runs at normal priority as before. A process may always lower its own priority.
 */
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** Unix niceness of background work (0 is normal, 19 the lowest): yields to requests, still gets spare cores. */
export const BACKGROUND_NICENESS = 10;

/** Lowers the priority of a process (or, on Linux, one thread by its id) of this machine; false when refused. */
export function lowerPriorityOf(pid: number): boolean {
  try {
    os.setPriority(pid, Math.max(os.getPriority(pid), BACKGROUND_NICENESS));
    return true;
  } catch {
    return false;
  }
}

/**
 * Lowers the priority of the calling worker thread only (a pool thread of worker-pool.ts), never the main
 * thread's, which answers the requests. Linux gives each thread its own niceness, by its thread id.
 */
export function lowerThisWorkerThreadsPriority(): boolean {
  if (isMainThread || process.platform !== 'linux') return false;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(threadId) || threadId === process.pid) return false;
    return lowerPriorityOf(threadId);
  } catch {
    return false;
  }
}

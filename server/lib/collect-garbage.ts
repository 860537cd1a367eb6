/**
 * A full collection on demand, for the moments a thread knows most of its heap just died: the end of a
 * pool task (pool-worker.ts), the engines' end before their result is encoded (analysis/run-audit.ts).
 * V8 would otherwise keep the dead objects (a parsed 1 000 000-keyword account: over a gigabyte) until
 * it allocates enough again, or until the thread exits idle: memory the server holds for nothing.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/** Below this heap size a collection is not worth its pause. */
const WORTH_COLLECTING_BYTES = 256 * 1024 * 1024;

let fullCollection: (() => void) | undefined;

/**
 * Collects this thread's garbage when its heap is past 256 MB, and V8 gives the freed pages back. It is
 * the `gc` of `--expose-gc`, which a worker thread's execArgv cannot take: the flag is set only while the
 * function is fetched, so no other code sees a global `gc`.
 */
export function collectGarbageIfLarge(): void {
  if (v8.getHeapStatistics().total_heap_size <= WORTH_COLLECTING_BYTES) return;
  if (!fullCollection) {
    v8.setFlagsFromString('--expose-gc');
    fullCollection = vm.runInNewContext('gc') as () => void;
    v8.setFlagsFromString('--no-expose-gc');
  }
  fullCollection();
}

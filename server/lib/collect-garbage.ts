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
 * Collects this thread's garbage when its heap is past `worthBytes` (default 256 MB), and V8 gives the freed pages back. It is
 * the `gc` of `--expose-gc`, which a worker thread's execArgv cannot take: the flag is set only while the
 * function is fetched, so no other code sees a global `gc`.
 */
export function collectGarbageIfLarge(worthBytes = WORTH_COLLECTING_BYTES): void {
  if (v8.getHeapStatistics().total_heap_size > worthBytes) collectGarbage();
}

function collectGarbage(): void {
  if (!fullCollection) {
    v8.setFlagsFromString('--expose-gc');
    fullCollection = vm.runInNewContext('gc') as () => void;
    v8.setFlagsFromString('--no-expose-gc');
  }
  fullCollection();
}

/**
 * A check to call between steps of work that makes a lot of short-lived garbage on top of a big live
 * heap (the engine thread encoding a result of 1.5 GB into rows): when the heap passes `ceilingBytes`, and
 * has grown at least `slackBytes` since the last collection's live size, it collects. V8 alone lets a big
 * heap grow towards its limit first (its growing factor applies to the live size), which at 1 000 000
 * keywords took the thread from 1.5 GB to 2.6 GB and the server past 3.8 GB while the rows were saved.
 * A collection here stops the thread (V8's own are mostly concurrent): an absolute ceiling rather than a
 * slack alone keeps them few — once the live size has shrunk, V8's own collections stay below it.
 */
export function garbageCeiling(ceilingBytes: number, slackBytes: number): () => void {
  let live = v8.getHeapStatistics().used_heap_size;
  return () => {
    const used = v8.getHeapStatistics().used_heap_size;
    // V8 collected on its own since: what it left is the new floor.
    if (used < live) live = used;
    if (used <= Math.max(ceilingBytes, live + slackBytes)) return;
    collectGarbage();
    live = v8.getHeapStatistics().used_heap_size;
  };
}

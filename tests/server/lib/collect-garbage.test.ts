import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { garbageCeiling } from '../../../server/lib/collect-garbage.js';

const MB = 1024 * 1024;
const used = () => v8.getHeapStatistics().used_heap_size;

/** Arrays of a megabyte each: V8 puts them in its large-object space, which only a full collection frees. */
const megabytes = (count: number) => Array.from({ length: count }, (_, i) => new Array<number>(128 * 1024).fill(i + 0.5));

describe('garbageCeiling', () => {
  it.each([
    { when: 'grow past the slack while it stays under the ceiling', ceiling: 4096 * MB, slack: 16 * MB },
    { when: 'stay within the slack of its live size', ceiling: 0, slack: 256 * MB },
  ])('leaves the heap alone while 32 MB more $when', ({ ceiling, slack }) => {
    const check = garbageCeiling(ceiling, slack);
    const kept = megabytes(32);
    const before = used();
    check();
    expect(used()).toBeGreaterThanOrEqual(before - 8 * MB);
    expect(kept).toHaveLength(32);
  });

  it('collects once the garbage grows past the slack, and the heap is back within it', () => {
    const slack = 64 * MB;
    const check = garbageCeiling(0, slack);
    const floor = used();
    // Held until just before the check: no collection of V8's own can free it first. Four times the
    // slack, so the heap has grown past it even if V8 collected older garbage counted in `floor` meanwhile.
    let garbage: number[][] | null = megabytes(256);
    const grown = used();
    // (Not handed to expect(), which would keep a reference to it.)
    const made = garbage.length;
    garbage = null;
    expect(made).toBe(256);
    expect(grown).toBeGreaterThan(floor + slack);
    check();
    expect(used()).toBeLessThan(floor + slack);
  });
});

import { defineConfig } from 'vitest/config';

/** Browser tests: the built app served by the real server, driven in Debian's Chromium. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    // One server and one browser per file; two cores, so files run one after another.
    fileParallelism: false,
    // No retry: a test that fails once under load has a race to find (README, «Two commands»).
    retry: 0,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

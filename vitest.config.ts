import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import path from 'node:path';

export default defineConfig({
  test: {
    // A run that finds no test is a broken run, not a green one.
    passWithNoTests: false,
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // Tests that need a Redis server run as their own project (`npm run test:redis`), so `npm test`
          // needs nothing but Node; .ci/run installs Redis where it is missing and runs them.
          exclude: ['tests/server/**/*.redis.test.ts'],
          globalSetup: ['tests/setup/postgres-global.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file has its own database; two cores, so two files at a time.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'redis',
          environment: 'node',
          include: ['tests/server/**/*.redis.test.ts'],
          globalSetup: ['tests/setup/postgres-global.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src'), '@contract': path.resolve(import.meta.dirname, 'contract') } },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['tests/src/**/*.test.{ts,tsx}'],
          maxWorkers: 2,
          setupFiles: ['tests/setup/web.ts'],
          testTimeout: 15_000,
        },
      },
    ],
  },
});

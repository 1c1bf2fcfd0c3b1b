import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/support/fast-check.ts'],
    globalSetup: ['test/support/temp-root.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The suite waits on the processes and sockets it starts more than it computes: vitest's
    // default (one worker fewer than the cores) ran one file at a time on CI's 2 cores and left one
    // idle (leg 1: 860 s); at least 3 files at once keeps both busy.
    maxWorkers: Math.max(3, availableParallelism() - 1),
  },
});

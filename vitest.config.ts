import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/support/fast-check.ts'],
    globalSetup: ['test/support/temp-root.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

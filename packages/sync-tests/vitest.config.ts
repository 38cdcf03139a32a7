import { defineConfig } from 'vitest/config';

// Client engines (each over its own fake-indexeddb) against the real server app in one Node
// process: property runs on a busy 2-core CI machine need generous limits.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});

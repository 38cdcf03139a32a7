import { defineConfig } from 'vitest/config';

// Server tests use real SQLite files, real child processes (durability, CLI at the production
// scrypt cost) and property runs: generous limits so a busy 2-core CI machine does not time out.
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

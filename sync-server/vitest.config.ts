import { defineConfig } from 'vitest/config';

// Server tests use real SQLite files, real child processes (durability, CLI at the production
// scrypt cost) and property runs: generous limits so a busy 2-core CI machine does not time out.
// They live in test/, in the folder of the src/ folder they test (test/README.md; test/layout.test.ts
// fails on a test file anywhere else, which this include would not run).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

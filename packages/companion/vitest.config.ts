import { defineConfig } from 'vitest/config';

// Property runs over any Unicode take a few seconds each; on a busy 2-core CI machine (the other
// packages' suites run beside this one) they need more than vitest's 5 s default.
export default defineConfig({
  test: { testTimeout: 60_000 },
});

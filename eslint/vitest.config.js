// The lint self-check (`pnpm lint:selfcheck`): the layer rules against planted violations.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.test.js'],
    testTimeout: 60_000,
  },
});

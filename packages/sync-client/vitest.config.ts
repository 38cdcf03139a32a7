import { defineConfig } from 'vitest/config';

// The client's data loop runs in Node over fake-indexeddb (a real IndexedDB implementation, in
// memory); the browser parts (fetch, EventSource, Web Locks, window/document) are injected.
export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['fake-indexeddb/auto'],
    include: ['src/**/*.test.ts'],
    // Property runs and Dexie over fake-indexeddb on a busy 2-core CI machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

import { defineConfig } from 'vitest/config';

// Client engines (each over its own fake-indexeddb) against the real server app in one Node
// process: property runs on a busy 2-core CI machine need generous limits.
//
// The convergence property runs again on PostgreSQL when TEST_DATABASE_URL names a database on a
// running server (.ci/run sets it up; sync-server/vitest.config.ts does the same for the server's
// suite): there the server is two instances on one database and the clients are spread over them.
// Fewer runs than on SQLite: each run's writes cross the network to PostgreSQL.
const postgresUrl = process.env.TEST_DATABASE_URL;
const shared = { environment: 'node' as const, testTimeout: 600_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    ...shared,
    projects: [
      { extends: true as const, test: { name: 'sqlite', include: ['src/**/*.test.ts'], env: { TEST_STORAGE: 'sqlite' } } },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['src/convergence.test.ts'],
                env: { TEST_STORAGE: 'postgres', SYNC_PROPERTY_RUNS: process.env.SYNC_PROPERTY_RUNS ?? '30' },
              },
            },
          ]
        : []),
    ],
  },
});

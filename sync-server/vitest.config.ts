import { defineConfig } from 'vitest/config';

// Server tests use real databases, real child processes (durability, CLI at the production
// scrypt cost) and property runs: generous limits so a busy 2-core CI machine does not time out.
// They live in test/, in the folder of the src/ folder they test (test/README.md; test/layout.test.ts
// fails on a test file anywhere else, which this include would not run).
//
// Two storages (docs/server.md#postgresql): the suite runs on SQLite always, and again on
// PostgreSQL when TEST_DATABASE_URL names a database on a running server (.ci/run sets it up).
// Each test app there gets its own throwaway database (db/postgres/throwaway.ts), so files stay
// parallel as they are on SQLite. TEST_STORAGE picks one storage only (sqlite | postgres).
const postgresUrl = process.env.TEST_DATABASE_URL;
const only = process.env.TEST_STORAGE;
const shared = { include: ['test/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 };
/**
 * Files about the SQLite file itself (its checkpoints, statement cache, several processes on one
 * file, migrations undone on the file, a server killed mid-write on the file) or about no storage:
 * the postgres project leaves them to the sqlite one. Tests of SQLite's handle inside other files
 * skip there (`onPostgres`, test/support/helpers.ts).
 */
const SQLITE_ONLY = ['test/db/sqlite/**', 'test/db/shared-processes.test.ts', 'test/db/undo-migrations.test.ts', 'test/durability.test.ts', 'test/layout.test.ts', 'test/db/prepared-keys.test.ts',
  // Group commit is the exclusive process's (off on PostgreSQL, docs/server.md#postgresql).
  'test/db/group-commit.test.ts',
  // Undoes migrations on the SQLite file (test/support/undo-migrations.ts).
  'test/db/chapter-synopsis-notes-migration.test.ts'];
const storages = (['sqlite', 'postgres'] as const).filter((storage) => (only ? only === storage : storage === 'sqlite' || Boolean(postgresUrl)));

export default defineConfig({
  test: {
    ...shared,
    projects: storages.map((storage) => ({
      extends: true,
      test: { name: storage, env: { TEST_STORAGE: storage }, ...(storage === 'postgres' ? { exclude: SQLITE_ONLY } : {}) },
    })),
  },
});

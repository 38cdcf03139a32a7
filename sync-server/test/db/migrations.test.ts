/**
 * A database made by a newer version (a migration this one does not know) is refused at start, on
 * either storage (src/db/migrations.ts), and two instances starting together on one fresh
 * PostgreSQL database migrate it once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../../src/db/migrations.ts';
import { NewerDatabaseError, openDatabase } from '../../src/db/database.ts';
import { testDatabaseUrl } from '../../src/config/config.ts';
import { onPostgres } from '../support/helpers.ts';

describe('migrations', () => {
  it('refuse a database made by a newer version, naming the unknown migration', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-newer-'));
    const first = onPostgres ? await openDatabase(testDatabaseUrl()!, { throwaway: true }) : await openDatabase(path.join(dir, 'db.sqlite'));
    const location = first.url ?? path.join(dir, 'db.sqlite');
    try {
      await first.db.insertInto('kyselyMigration' as never).values({ name: '9999_from_the_future', timestamp: new Date().toISOString() } as never).execute();
      const error = await openDatabase(location).then(
        (opened) => opened.close().then(() => null),
        (e: Error) => e,
      );
      expect(error).toBeInstanceOf(NewerDatabaseError);
      expect(error!.message).toContain('9999_from_the_future');
      expect(error!.message).toContain('newer version');
    } finally {
      await first.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!onPostgres)('run once when several instances start together on a fresh database', async () => {
    const { createThrowawayDatabase } = await import('../../src/db/postgres/throwaway.ts');
    // An empty database (no template): every instance finds it to migrate.
    const fresh = await createThrowawayDatabase(testDatabaseUrl()!, ['empty-for-a-concurrent-start'], async () => undefined);
    try {
      const opened = await Promise.all([0, 1, 2].map(() => openDatabase(fresh.url)));
      try {
        const ran = await opened[0]!.db.selectFrom('kyselyMigration' as never).select('name' as never).execute();
        expect(ran.map((r) => (r as { name: string }).name).sort()).toEqual([...MIGRATION_NAMES]);
        const seq = await opened[1]!.db.selectFrom('syncState').select('value').where('name', '=', 'seq').execute();
        expect(seq).toHaveLength(1);
      } finally {
        await Promise.all(opened.map((o) => o.close()));
      }
    } finally {
      await fresh.drop();
    }
  });
});

/**
 * The upgrade tests turn a database back into an older server's (support/undo-migrations.ts):
 * a migration without an undo there would leave them failing with "corrupted migrations".
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { UNDO_MIGRATION, undoMigrationsFrom } from '../support/undo-migrations.ts';

describe('undo of the migrations after 0003', () => {
  it('knows every migration after 0003 and leaves a database the server migrates again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-undo-'));
    try {
      const file = path.join(dir, 'db.sqlite');
      const first = await openDatabase(file);
      const names = (first.sqlite!.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map((r) => r.name);
      expect(Object.keys(UNDO_MIGRATION).sort()).toEqual(names.filter((name) => name >= '0004'));
      undoMigrationsFrom(first.sqlite!, '0004');
      await first.close();
      const again = await openDatabase(file);
      const after = (again.sqlite!.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map((r) => r.name);
      expect(after).toEqual(names);
      await again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

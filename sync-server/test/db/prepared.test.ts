import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/db/database.ts';
import { runPrepared } from '../../src/db/prepared.ts';

let database: OpenedDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

describe('prepared queries', () => {
  it('compile a shape once and bind new values each run, through the CamelCase plugin', async () => {
    database = await openDatabase(':memory:');
    const { db } = database;
    const insert = (name: string, value: number) =>
      runPrepared(db, 'test insert syncState', (q, v: { name: string; value: number }) => q.insertInto('syncState').values({ ...v }), { name, value });
    await insert('a', 1);
    await insert('b', 2);
    const find = (name: string) =>
      runPrepared(db, 'test find syncState', (q, v: { name: string }) => q.selectFrom('syncState').selectAll().where('name', '=', v.name).where('value', '>', 0), { name });
    expect(await find('a')).toEqual([{ name: 'a', value: 1 }]);
    expect(await find('b')).toEqual([{ name: 'b', value: 2 }]);
    expect(await find('c')).toEqual([]);
    // Constants the build puts in (here 0) stay bound as compiled.
    await db.updateTable('syncState').set({ value: -1 }).where('name', '=', 'b').execute();
    expect(await find('b')).toEqual([]);
  });

  it('refuses a missing value rather than binding undefined', async () => {
    database = await openDatabase(':memory:');
    const find = (v: { name: string }) =>
      runPrepared(database!.db, 'test find by name', (q, p: { name: string }) => q.selectFrom('syncState').select('value').where('name', '=', p.name), v);
    await find({ name: 'seq' });
    await expect(find({} as { name: string })).rejects.toThrow(/missing the value "name"/);
  });
});

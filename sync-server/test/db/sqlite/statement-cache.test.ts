import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachingStatements } from '../../../src/db/sqlite/statement-cache.ts';

describe('statement cache', () => {
  it('prepares each SQL text once and keeps at most `capacity`, least recently used out first', () => {
    const sqlite = new Database(':memory:');
    let prepared = 0;
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((sql: string) => {
      prepared += 1;
      return prepare(sql);
    }) as typeof sqlite.prepare;
    const handle = cachingStatements(sqlite, 2);
    const a = handle.prepare('select 1');
    expect(handle.prepare('select 1')).toBe(a);
    expect(prepared).toBe(1);
    handle.prepare('select 2');
    handle.prepare('select 1'); // now most recently used
    handle.prepare('select 3'); // evicts 'select 2'
    expect(handle.size).toBe(2);
    expect(handle.prepare('select 1')).toBe(a);
    expect(prepared).toBe(3);
    handle.prepare('select 2');
    expect(prepared).toBe(4);
    expect(handle.prepare('select 1').all([])).toEqual([{ 1: 1 }]);
    handle.close();
    expect(sqlite.open).toBe(false);
  });
});

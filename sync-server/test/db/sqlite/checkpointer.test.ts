/**
 * WAL checkpoints on a worker thread (db/sqlite/checkpointer.ts): the writer's own automatic
 * checkpoint is pushed far out, the worker copies the WAL into the database file while writes go
 * on, the WAL is reused instead of growing, and closing stops the worker and leaves a whole file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/database.ts';
import { CHECKPOINT_EVERY_MS, FALLBACK_AUTOCHECKPOINT_PAGES } from '../../../src/db/sqlite/checkpointer.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpointer-'));
  dirs.push(dir);
  return path.join(dir, 'chronicler.db');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('background checkpoints', () => {
  it('checkpoints on the worker, keeps the WAL bounded while writing, and closes to a whole file', async () => {
    const file = tempFile();
    const database = await openDatabase(file);
    const { checkpointer } = database;
    const sqlite = database.sqlite!;
    expect(checkpointer).not.toBeNull();
    expect(Number(sqlite.pragma('wal_autocheckpoint', { simple: true }))).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
    sqlite.exec('create table pages (n integer primary key, text text not null)');
    const insert = sqlite.prepare('insert into pages (n, text) values (?, ?)');
    const page = 'x'.repeat(6000);
    // Five rounds of ~500 pages each, with the worker's period between them: far past the 1,000
    // pages at which SQLite would have checkpointed inline.
    let n = 0;
    for (let round = 0; round < 5; round++) {
      sqlite.transaction(() => {
        for (let i = 0; i < 250; i++) insert.run(n++, page);
      })();
      await sleep(CHECKPOINT_EVERY_MS * 3);
    }
    expect(checkpointer!.stats.checkpoints).toBeGreaterThan(0);
    expect(checkpointer!.stats.failures).toBe(0);
    // Everything the worker saw was copied, and the writer started the WAL over instead of
    // appending: it holds about one round, not all five (~2,500 pages).
    expect(checkpointer!.stats.lastCheckpointed).toBe(checkpointer!.stats.lastLog);
    const walPages = fs.statSync(`${file}-wal`).size / 4096;
    expect(walPages).toBeLessThan(1200);
    await database.close();
    // The last connection closed: SQLite checkpointed and removed the WAL; the file is whole.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const copy = new Database(file, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.prepare('select count(*) from pages').pluck().get()).toBe(n);
    copy.close();
  });

  it('is off for an in-memory database and when the caller keeps SQLite’s own checkpoints', async () => {
    const memory = await openDatabase(':memory:');
    expect(memory.checkpointer).toBeNull();
    await memory.close();
    const inline = await openDatabase(tempFile(), { backgroundCheckpoints: false });
    expect(inline.checkpointer).toBeNull();
    expect(Number(inline.sqlite!.pragma('wal_autocheckpoint', { simple: true }))).toBe(1000);
    await inline.close();
  });
});

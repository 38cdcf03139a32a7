/**
 * Writes story rows straight into the database the way runMutation stamps them (one transaction,
 * one fresh global seq as the rev of every touched row, a hub notice after commit), for feed
 * tests that need shapes or volumes the REST routes would make slow to build.
 */
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import { newId } from '@chronicler/schema';
import type { DB } from '../../src/db/tables.ts';
import { nextSeq } from '../../src/sync/mutation.ts';

export interface SeedWrite {
  trx: Transaction<DB>;
  seq: number;
  now: string;
}

/** Runs `fn` as one write at a fresh seq; returns the seq. */
export async function seedWrite(app: FastifyInstance, seriesIds: string[], fn: (w: SeedWrite) => Promise<void>): Promise<number> {
  const seq = await app.deps.database.db.transaction().execute(async (trx) => {
    const seq = await nextSeq(trx);
    await fn({ trx, seq, now: new Date().toISOString() });
    return seq;
  });
  app.deps.hub.publish({ seq, seriesIds: new Set(seriesIds) });
  return seq;
}

const stamp = (w: SeedWrite) => ({ rev: w.seq, createdAt: w.now, updatedAt: w.now, deletedAt: null });

export async function seedSeries(app: FastifyInstance, ownerId: string, title = 'A series'): Promise<string> {
  const id = newId();
  await seedWrite(app, [id], (w) =>
    w.trx
      .insertInto('series')
      .values({ id, ownerId, title, description: '', totalBooks: 3, currentBook: 1, coverImage: null, ...stamp(w) })
      .execute()
      .then(() => undefined),
  );
  return id;
}

export function insertBook(w: SeedWrite, seriesId: string, title = 'A book', position = 1) {
  const id = newId();
  return w.trx
    .insertInto('books')
    .values({ id, seriesId, title, description: '', position, status: 'in_progress', wordCount: 0, ...stamp(w) })
    .execute()
    .then(() => id);
}

export function insertChapter(w: SeedWrite, seriesId: string, bookId: string, title: string, content = '', position = 1) {
  const id = newId();
  const wordCount = content.split(/\s+/).filter(Boolean).length;
  return w.trx
    .insertInto('chapters')
    .values({ id, seriesId, bookId, title, content, position, wordCount, status: 'in_progress', ...stamp(w) })
    .execute()
    .then(() => id);
}

export function insertCharacter(w: SeedWrite, seriesId: string, name: string) {
  const id = newId();
  return w.trx
    .insertInto('characters')
    .values({
      id, seriesId, name, role: 'supporting', age: '', occupation: '', status: 'alive', description: '', appearance: '',
      personality: '', goals: '', backstory: '', bookAppearances: '[1,3]', isProtagonist: 1, avatar: null, avatarUrl: null,
      ...stamp(w),
    })
    .execute()
    .then(() => id);
}

type StoryTable = 'series' | 'books' | 'chapters' | 'characters';

/** Edits a row's title/name (or tombstones it) as a write of its own. */
export async function seedTouch(app: FastifyInstance, table: StoryTable, id: string, seriesId: string, change: 'update' | 'delete'): Promise<number> {
  return seedWrite(app, [seriesId], async (w) => {
    const set: Record<string, unknown> = { rev: w.seq, updatedAt: w.now };
    if (change === 'delete') set.deletedAt = w.now;
    else set[table === 'characters' ? 'name' : 'title'] = `edited at ${w.seq}`;
    await w.trx.updateTable(table).set(set).where('id', '=', id).execute();
  });
}

/** Adds (or re-adds) `userId` to a series, or revokes the membership. */
export async function seedMembership(app: FastifyInstance, seriesId: string, userId: string, live: boolean): Promise<number> {
  return seedWrite(app, [seriesId], async (w) => {
    await w.trx
      .insertInto('seriesMembers')
      .values({ seriesId, userId, role: 'editor', rev: w.seq, createdAt: w.now, updatedAt: w.now, deletedAt: live ? null : w.now })
      .onConflict((oc) => oc.columns(['seriesId', 'userId']).doUpdateSet({ rev: w.seq, updatedAt: w.now, deletedAt: live ? null : w.now }))
      .execute();
  });
}

/**
 * The mutators load the body schemas on the first write (load-body-schemas.ts), and writes asked
 * for before they have arrived still commit in the order they were asked for. A file of its own:
 * the schemas must not have been loaded by another test of this module instance.
 */
import { afterEach, expect, it } from 'vitest';
import { MESSAGES, newId } from '@chronicler/schema';
import type { ChroniclerDb } from './db.ts';
import { loadedBodySchemas } from './load-body-schemas.ts';
import { createMutators } from './mutators.ts';
import { freshDb, manualClock, serverBook, serverChapter, serverSeries } from './testing/fixtures.ts';

let db: ChroniclerDb;
afterEach(() => db?.close());

it('loads the schemas with the first write, and writes asked for meanwhile keep their order', async () => {
  db = freshDb();
  const series = serverSeries();
  const chapter = serverChapter(serverBook(series.id));
  await db.series.put(series);
  await db.chapters.put(chapter);
  const m = createMutators(db, { now: manualClock().now });
  expect(() => loadedBodySchemas()).toThrow(/before a mutator loaded them/);

  // Asked for in one go, before the schemas have arrived: the delete checks nothing, but must not
  // overtake the writes asked for before it.
  const id = newId();
  await Promise.all([
    m.books.create({ id, seriesId: series.id, title: 'Draft title' }),
    m.books.update(id, { title: 'Final title' }),
    m.chapters.delete(chapter.id),
    m.books.update(id, { description: 'Blurb' }),
  ]);

  expect(loadedBodySchemas().CREATE_SCHEMAS.books).toBeDefined();
  const entries = await db.outbox.orderBy('seq').toArray();
  // The updates fold into the unsent create (checked again with the create schema), in order.
  expect(entries.map((e) => [e.kind, e.entity, e.mutationId])).toEqual([
    ['create', 'books', 1],
    ['delete', 'chapters', 2],
  ]);
  expect(entries[0]!.body).toMatchObject({ id, title: 'Final title', description: 'Blurb' });
});

it('rejects an invalid write with the schema message, asynchronously', async () => {
  db = freshDb();
  await db.open();
  const m = createMutators(db);
  const update = m.series.update(serverSeries().id, { title: '   ' });
  expect(update).toBeInstanceOf(Promise);
  await expect(update).rejects.toThrow(MESSAGES.series.nameRequired);
});

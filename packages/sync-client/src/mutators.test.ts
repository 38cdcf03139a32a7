import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES, newId } from '@chronicler/schema';
import type { ChroniclerDb } from './db.ts';
import { ValidationError, createMutators } from './mutators.ts';
import * as q from './queries.ts';
import { freshDb, manualClock, serverBook, serverChapter, serverCharacter, serverSeries } from './testing/fixtures.ts';

let db: ChroniclerDb;
afterEach(() => db?.close());

async function seed() {
  db = freshDb();
  await db.open();
  const series = serverSeries();
  const book = serverBook(series.id);
  const chapter = serverChapter(book, { rev: 7 });
  const ada = serverCharacter(series.id, { name: 'Ada' });
  const bo = serverCharacter(series.id, { name: 'Bo' });
  await db.series.put(series);
  await db.books.put(book);
  await db.chapters.put(chapter);
  await db.characters.bulkPut([ada, bo]);
  const clock = manualClock();
  return { series, book, chapter, ada, bo, clock, m: createMutators(db, { now: clock.now }) };
}

describe('mutators write the entity and its outbox entry together', () => {
  it('create: optimistic row plus a POST carrying the client id', async () => {
    const { m, series } = await seed();
    const book = await m.books.create({ seriesId: series.id, title: 'Book Two' });
    expect(await db.books.get(book.id)).toMatchObject({ title: 'Book Two', position: 2, seriesId: series.id, rev: 0 });
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({
      kind: 'create',
      method: 'POST',
      path: '/api/books',
      entity: 'books',
      entityId: book.id,
      seriesId: series.id,
      status: 'pending',
      attempts: 0,
      mutationId: 1,
    });
    expect(entry!.body).toMatchObject({ id: book.id, seriesId: series.id, title: 'Book Two' });
    expect(entry!.before).toEqual([{ entity: 'books', id: book.id, row: null }]);
  });

  it('a failure inside the transaction leaves neither the row nor the entry (outbox write fails)', async () => {
    const { m, series } = await seed();
    db.outbox.hook('creating', () => {
      throw new Error('disk on fire');
    });
    await expect(m.characters.create({ seriesId: series.id, name: 'Cy' })).rejects.toThrow('disk on fire');
    expect((await db.characters.toArray()).map((c) => c.name).sort()).toEqual(['Ada', 'Bo']);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.shadows.count()).toBe(0);
  });

  it('a failure inside the transaction leaves neither the row nor the entry (entity write fails)', async () => {
    const { m, chapter } = await seed();
    db.chapters.hook('updating', () => {
      throw new Error('entity write failed');
    });
    await expect(m.chapters.update(chapter.id, { content: 'New words' })).rejects.toThrow('entity write failed');
    expect((await db.chapters.get(chapter.id))!.content).toBe('It began.');
    expect(await db.outbox.count()).toBe(0);
  });

  it('throws the schema message and writes nothing on invalid input', async () => {
    const { m, series, ada } = await seed();
    await expect(m.series.create({ title: '   ' })).rejects.toThrow(MESSAGES.series.titleRequired);
    await expect(m.books.create({ seriesId: series.id, title: '' })).rejects.toBeInstanceOf(ValidationError);
    await expect(
      m.relationships.create({ sourceCharacterId: ada.id, targetCharacterId: ada.id, relationshipType: 'ally' }),
    ).rejects.toThrow(MESSAGES.relationship.self);
    await expect(m.books.create({ seriesId: newId(), title: 'Orphan' })).rejects.toThrow(MESSAGES.book.seriesRequired);
    expect(await db.outbox.count()).toBe(0);
  });

  it('update: carries the base revision and the changed fields only', async () => {
    const { m, chapter } = await seed();
    await m.chapters.update(chapter.id, { content: 'It began again, slowly.' });
    const local = await db.chapters.get(chapter.id);
    expect(local).toMatchObject({ content: 'It began again, slowly.', wordCount: 4, rev: 7 });
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ method: 'PUT', path: `/api/chapters/${chapter.id}`, baseRev: 7, body: { content: 'It began again, slowly.' } });
    expect(entry!.before[0]!.row).toMatchObject({ content: 'It began.' });
  });

  it('series update accepts the spec name and stores it as title', async () => {
    const { m, series } = await seed();
    await m.series.update(series.id, { name: 'Renamed' });
    expect((await db.series.get(series.id))!.title).toBe('Renamed');
    expect((await db.outbox.toArray())[0]!.body).toEqual({ title: 'Renamed' });
  });
});

describe('coalescing', () => {
  it('merges a not-yet-sent update into the pending one, keeping the earliest base', async () => {
    const { m, chapter } = await seed();
    await m.chapters.update(chapter.id, { title: 'Dawn' });
    await db.shadows.update(['chapters', chapter.id], { rev: 9 }); // a pull arrived meanwhile
    await m.chapters.update(chapter.id, { content: 'Morning came.' });
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ baseRev: 7, body: { title: 'Dawn', content: 'Morning came.' } });
    expect(await db.chapters.get(chapter.id)).toMatchObject({ title: 'Dawn', content: 'Morning came.' });
  });

  it('does not touch an entry that may have reached the server; the new one is chained to it', async () => {
    const { m, chapter } = await seed();
    await m.chapters.update(chapter.id, { content: 'One' });
    await db.outbox.toCollection().modify({ attempts: 1 });
    await m.chapters.update(chapter.id, { content: 'One two' });
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries).toHaveLength(2);
    expect(entries[0]!.body).toEqual({ content: 'One', writing: expect.objectContaining({ kind: 'writing' }) });
    expect(entries[1]).toMatchObject({ body: { content: 'One two' }, chained: true, baseRev: null });
  });

  it('does not coalesce across a later entry touching the same row', async () => {
    const { m, chapter, book } = await seed();
    const second = await m.chapters.create({ bookId: book.id, title: 'Two' });
    await m.chapters.update(chapter.id, { title: 'A' });
    await m.chapters.reorder({ chapters: [{ id: second.id, position: 1 }, { id: chapter.id, position: 2 }] });
    await m.chapters.update(chapter.id, { position: 5 });
    const kinds = (await db.outbox.orderBy('seq').toArray()).map((e) => e.kind);
    expect(kinds).toEqual(['create', 'update', 'reorder', 'update']);
    expect((await db.chapters.get(chapter.id))!.position).toBe(5);
  });

  it('an update of a row whose create may have reached the server depends on it and is chained to its answer', async () => {
    const { m, book } = await seed();
    const ch = await m.chapters.create({ bookId: book.id, title: 'New' });
    await db.outbox.toCollection().modify({ attempts: 1 }); // sent once: its answer may be on the way
    await m.chapters.update(ch.id, { content: 'Words' });
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({ chained: true, dependsOn: [ch.id] });
    expect(await db.chapters.get(ch.id)).toMatchObject({ content: 'Words', wordCount: 1 });
  });

  it('folds updates of a row into its still-unsent create: one POST with the latest fields', async () => {
    const { m, book, series, ada } = await seed();
    const ch = await m.chapters.create({ bookId: book.id, title: 'New' });
    await m.chapters.update(ch.id, { content: 'First words' });
    await m.chapters.update(ch.id, { content: 'First words and more', status: 'revision' });
    const ev = await m.timelineEvents.create({ seriesId: series.id, title: 'Storm' });
    await m.timelineEvents.update(ev.id, { chapterId: ch.id, characterIds: [ada.id] });
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => `${e.kind} ${e.method} ${e.path}`)).toEqual(['create POST /api/chapters', 'create POST /api/timeline-events']);
    expect(entries[0]!.body).toMatchObject({ id: ch.id, bookId: book.id, title: 'New', content: 'First words and more', status: 'revision' });
    expect(entries[0]!.chained).toBeUndefined();
    // The event now names the new chapter too: refused with it if the chapter is refused.
    expect(entries[1]!.body).toMatchObject({ id: ev.id, chapterId: ch.id, characterIds: [ada.id] });
    expect(entries[1]!.dependsOn).toEqual([ch.id]);
    expect(await db.chapters.get(ch.id)).toMatchObject({ content: 'First words and more', status: 'revision', wordCount: 4 });
  });

  it('a chapter’s synopsis and notes: shown at once, empty by default, saves coalescing with no writing mark', async () => {
    const { m, book, chapter } = await seed();
    const made = await m.chapters.create({ bookId: book.id, title: 'Planned', synopsis: 'She finds the *map*.' });
    expect(await db.chapters.get(made.id)).toMatchObject({ synopsis: 'She finds the *map*.', notes: '', wordCount: 0 });
    await m.chapters.update(chapter.id, { synopsis: 'A start.' });
    await m.chapters.update(chapter.id, { notes: 'Check the **tides**.' });
    const updates = (await db.outbox.orderBy('seq').toArray()).filter((e) => e.entityId === chapter.id);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.body).toEqual({ synopsis: 'A start.', notes: 'Check the **tides**.' });
    expect(await db.chapters.get(chapter.id)).toMatchObject({ synopsis: 'A start.', notes: 'Check the **tides**.', wordCount: chapter.wordCount });
    expect(() => m.chapters.update(chapter.id, { synopsis: 'x'.repeat(2_001) })).toThrow('Must be at most 2000 characters');
  });

  it('keeps an update apart when the create route would not take it as the update route does', async () => {
    const { m, series } = await seed();
    const b = await m.books.create({ seriesId: series.id, title: 'Four' });
    await m.books.update(b.id, { position: 1 }); // the server places a new book itself
    await m.books.update(b.id, { title: 'Four, renamed' }); // coalesced into that update
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => e.kind)).toEqual(['create', 'update']);
    expect(entries[0]!.body).toMatchObject({ title: 'Four' });
    expect(entries[1]).toMatchObject({ chained: true, body: { position: 1, title: 'Four, renamed' } });
  });
});

describe('local cascades mirror the server', () => {
  it('deleting a book deletes its chapters and clears timeline references', async () => {
    const { m, book, chapter, series } = await seed();
    const event = await m.timelineEvents.create({ seriesId: series.id, title: 'Battle', bookId: book.id, chapterId: chapter.id });
    await m.books.delete(book.id);
    expect(await db.books.get(book.id)).toBeUndefined();
    expect(await db.chapters.get(chapter.id)).toBeUndefined();
    expect(await db.timelineEvents.get(event.id)).toMatchObject({ bookId: null, chapterId: null });
    const del = (await db.outbox.orderBy('seq').toArray()).at(-1)!;
    expect(del).toMatchObject({ method: 'DELETE', path: `/api/books/${book.id}` });
    expect(del.touches).toEqual(expect.arrayContaining([`books:${book.id}`, `chapters:${chapter.id}`, `timelineEvents:${event.id}`]));
  });

  it('deleting a character deletes its relationships and removes it from events', async () => {
    const { m, ada, bo, series } = await seed();
    const rel = await m.relationships.create({ sourceCharacterId: bo.id, targetCharacterId: ada.id, relationshipType: 'ally' });
    const event = await m.timelineEvents.create({ seriesId: series.id, title: 'Meeting', characterIds: [ada.id, bo.id] });
    await m.characters.delete(ada.id);
    expect(await db.characterRelationships.get(rel.id)).toBeUndefined();
    expect((await db.timelineEvents.get(event.id))!.characterIds).toEqual([bo.id]);
    expect(await q.charactersOfSeries(db, series.id)).toHaveLength(1);
  });

  it('deleting a chapter moves the later chapters up to close the gap, in the same entry', async () => {
    const { m, book, chapter } = await seed();
    const second = await m.chapters.create({ bookId: book.id, title: 'Two', content: '' });
    const third = await m.chapters.create({ bookId: book.id, title: 'Three', content: 'Some words here.' });
    expect([second.position, third.position]).toEqual([2, 3]);
    expect(third.wordCount).toBe(3);
    await m.chapters.delete(second.id);
    expect((await q.chaptersOfBook(db, book.id)).map((c) => [c.id, c.position])).toEqual([
      [chapter.id, 1],
      [third.id, 2],
    ]);
    const del = (await db.outbox.orderBy('seq').toArray()).at(-1)!;
    expect(del).toMatchObject({ method: 'DELETE', path: `/api/chapters/${second.id}` });
    expect(del.touches).toEqual(expect.arrayContaining([`chapters:${second.id}`, `chapters:${third.id}`]));
  });

  it('deleting a series removes everything under it', async () => {
    const { m, series } = await seed();
    await m.series.delete(series.id);
    for (const table of [db.series, db.books, db.chapters, db.characters]) expect(await table.count()).toBe(0);
  });
});

describe('every write the spec lists has a mutator', () => {
  it('queues the right calls', async () => {
    const { m, series, book, chapter, ada, bo } = await seed();
    // Each update below follows a create already sent: an update of an unsent create is folded
    // into it instead (see coalescing).
    const sent = () => db.outbox.toCollection().modify({ attempts: 1 });
    const s = await m.series.create({ title: 'Second' });
    await sent();
    await m.series.update(s.id, { description: 'd' });
    const b = await m.books.create({ seriesId: s.id, title: 'B' });
    await sent();
    await m.books.update(b.id, { status: 'completed' });
    const c = await m.chapters.create({ bookId: book.id, title: 'C', content: 'x y' });
    await m.chapters.reorder({ chapters: [{ id: c.id, position: 1 }, { id: chapter.id, position: 2 }] });
    await m.characters.update(ada.id, { isProtagonist: true });
    const ch = await m.characters.create({ seriesId: series.id, name: 'Cy', bookAppearances: [3, 1, 3] });
    expect(ch.bookAppearances).toEqual([1, 3]);
    const r = await m.relationships.create({ sourceCharacterId: ada.id, targetCharacterId: bo.id, relationshipType: 'family' });
    await sent();
    await m.relationships.update(r.id, { description: 'siblings' });
    await m.relationships.delete(r.id);
    const l = await m.locations.create({ seriesId: series.id, name: 'Harbour' });
    await sent();
    await m.locations.update(l.id, { importance: 'main' });
    await m.locations.delete(l.id);
    const e1 = await m.timelineEvents.create({ seriesId: series.id, title: 'E1' });
    const e2 = await m.timelineEvents.create({ seriesId: series.id, title: 'E2', position: 1 });
    await sent();
    await m.timelineEvents.update(e1.id, { date: '1200' });
    await m.timelineEvents.reorder({ events: [{ id: e2.id, position: 1 }, { id: e1.id, position: 2 }] });
    await m.timelineEvents.delete(e2.id);
    await m.characters.delete(ch.id);
    await m.chapters.delete(c.id);
    await m.books.delete(b.id);
    await m.series.delete(s.id);
    const calls = (await db.outbox.orderBy('seq').toArray()).map((e) => `${e.method} ${e.path.replace(/[0-9a-f-]{36}/g, ':id')}`);
    expect(calls).toEqual([
      'POST /api/series',
      'PUT /api/series/:id',
      'POST /api/books',
      'PUT /api/books/:id',
      'POST /api/chapters',
      'POST /api/chapters/reorder',
      'PUT /api/characters/:id',
      'POST /api/characters',
      'POST /api/character-relationships',
      'PUT /api/character-relationships/:id',
      'DELETE /api/character-relationships/:id',
      'POST /api/locations',
      'PUT /api/locations/:id',
      'DELETE /api/locations/:id',
      'POST /api/timeline-events',
      'POST /api/timeline-events',
      'PUT /api/timeline-events/:id',
      'POST /api/timeline-events/reorder',
      'DELETE /api/timeline-events/:id',
      'DELETE /api/characters/:id',
      'DELETE /api/chapters/:id',
      'DELETE /api/books/:id',
      'DELETE /api/series/:id',
    ]);
    expect((await q.timelineOfSeries(db, series.id)).map((e) => e.title)).toEqual(['E1']);
  });

  it('resolving a conflict saves the chosen text and dismisses the copy in one transaction', async () => {
    const { m, chapter } = await seed();
    const conflictId = newId();
    await db.chapterConflicts.put({
      id: conflictId,
      rev: 8,
      createdAt: chapter.createdAt,
      updatedAt: chapter.updatedAt,
      deletedAt: null,
      seriesId: chapter.seriesId,
      chapterId: chapter.id,
      baseRev: 5,
      title: chapter.title,
      content: 'Their version.',
      authorId: chapter.seriesId,
      reason: 'conflict',
      device: null,
    });
    await m.conflicts.resolve(conflictId, { content: 'Their version.' });
    expect(await db.chapterConflicts.get(conflictId)).toBeUndefined();
    expect((await db.chapters.get(chapter.id))!.content).toBe('Their version.');
    const calls = (await db.outbox.orderBy('seq').toArray()).map((e) => `${e.method} ${e.path}`);
    expect(calls).toEqual([`PUT /api/chapters/${chapter.id}`, `DELETE /api/chapter-conflicts/${conflictId}`]);
  });
});

describe('queries', () => {
  it('lists books and chapters by position', async () => {
    const { m, book, series } = await seed();
    const c2 = await m.chapters.create({ bookId: book.id, title: 'Second' });
    const c0 = await m.chapters.create({ bookId: book.id, title: 'Zero', position: 0 });
    expect((await q.chaptersOfBook(db, book.id)).map((c) => c.id)).toEqual([c0.id, expect.any(String), c2.id]);
    await m.books.create({ seriesId: series.id, title: 'Book Two' });
    expect((await q.booksOfSeries(db, series.id)).map((b) => b.title)).toEqual(['Book One', 'Book Two']);
    expect((await q.currentBook(db, series.id))!.title).toBe('Book One');
    expect(await q.unsyncedCount(db)).toBe(3);
    expect(await q.hasPendingChanges(db, 'chapters', c2.id)).toBe(true);
  });
});

describe('canon changes (docs/decisions/0017-canon-changes.md)', () => {
  const death = (seriesId: string, entityId: string, book: { id: string }, chapter: { id: string }) => ({
    seriesId, entityKind: 'character' as const, entityId, field: 'status', value: 'deceased', bookId: book.id, chapterId: chapter.id,
  });

  it('create shows the change at once and queues its POST; update and delete follow', async () => {
    const { m, series, book, chapter, ada } = await seed();
    const change = await m.canonChanges.create({ ...death(series.id, ada.id, book, chapter), note: 'Falls at the siege' });
    expect(await q.canonChangesOfSeries(db, series.id)).toEqual([
      expect.objectContaining({ id: change.id, entityKind: 'character', entityId: ada.id, field: 'status', value: 'deceased', locationId: null, timelineEventId: null, date: '', note: 'Falls at the siege', rev: 0 }),
    ]);
    await m.canonChanges.update(change.id, { value: 'missing' });
    expect((await q.canonChangesOfEntity(db, ada.id)).map((c) => c.value)).toEqual(['missing']);
    const entries = await db.outbox.orderBy('seq').toArray();
    // The update is folded into the unsent create: one POST with the latest value.
    expect(entries.map((e) => [e.method, e.path])).toEqual([['POST', '/api/canon-changes']]);
    expect(entries[0]!.body).toMatchObject({ id: change.id, value: 'missing' });
    await m.canonChanges.delete(change.id);
    expect(await q.canonChangesOfSeries(db, series.id)).toEqual([]);
  });

  it('refuses a field the entity does not have and a value the field does not take, writing nothing', async () => {
    const { m, series, book, chapter, ada } = await seed();
    await expect(m.canonChanges.create({ ...death(series.id, ada.id, book, chapter), field: 'mood' })).rejects.toThrow('A character has no field "mood" to change');
    await expect(m.canonChanges.create({ ...death(series.id, ada.id, book, chapter), value: 'resting' })).rejects.toThrow('Must be one of: alive, deceased, missing, unknown');
    await expect(m.canonChanges.create({ ...death(series.id, ada.id, book, chapter), field: 'birthYear', value: 'long ago' })).rejects.toBeInstanceOf(ValidationError);
    expect(await db.outbox.count()).toBe(0);
  });

  it('goes with its character, and stays (unanchored) when its chapter is deleted', async () => {
    const { m, series, book, chapter, ada, bo } = await seed();
    const ofAda = await m.canonChanges.create(death(series.id, ada.id, book, chapter));
    const ofBo = await m.canonChanges.create(death(series.id, bo.id, book, chapter));
    await m.chapters.delete(chapter.id);
    expect(await db.canonChanges.get(ofBo.id)).toMatchObject({ chapterId: chapter.id, deletedAt: null });
    await m.characters.delete(ada.id);
    expect(await db.canonChanges.get(ofAda.id)).toBeUndefined();
    expect((await q.canonChangesOfSeries(db, series.id)).map((c) => c.id)).toEqual([ofBo.id]);
  });

  it('a chapter and an event carry the flashback mark, false by default', async () => {
    const { m, series, book } = await seed();
    const memory = await m.chapters.create({ bookId: book.id, title: 'What the river took', flashback: true });
    const plain = await m.chapters.create({ bookId: book.id, title: 'Now' });
    const event = await m.timelineEvents.create({ seriesId: series.id, title: 'The old war', flashback: true });
    expect([memory.flashback, plain.flashback, event.flashback]).toEqual([true, false, true]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_COLOR, MESSAGES, timelineEventSchema, upgradeMessage } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;
let other: StoryClient;
let series: any;

beforeEach(async () => {
  t = await createTestApp();
  me = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
  other = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
  series = await me.create('/api/series', { title: 'S' });
});
afterEach(async () => t.close());

describe('timeline events', () => {
  it('creates with the spec defaults, reads, updates and deletes', async () => {
    const event = timelineEventSchema.parse(await me.create('/api/timeline-events', { seriesId: series.id, title: 'The storm' }));
    expect(event).toMatchObject({
      seriesId: series.id,
      description: '',
      eventType: 'plot',
      date: '',
      bookId: null,
      chapterId: null,
      characterIds: [],
      locationId: null,
      importance: 'medium',
      color: DEFAULT_EVENT_COLOR,
      position: 0,
      isPlotPoint: false,
    });
    expect(await me.read(`/api/timeline-events/${event.id}`)).toEqual(event);
    const res = await me.put(`/api/timeline-events/${event.id}`, { date: 'Year 3', isPlotPoint: true, importance: 'major' });
    expect(json(res)).toMatchObject({ title: 'The storm', date: 'Year 3', isPlotPoint: true, importance: 'major', mergeStatus: 'applied' });
    expect((await me.del(`/api/timeline-events/${event.id}`)).statusCode).toBe(200);
    expect(await me.read(`/api/series/${series.id}/timeline`)).toEqual([]);
    expectError(await me.get(`/api/timeline-events/${event.id}`), 404, 'NOT_FOUND');
  });

  it('answers the spec messages and rejects unknown fields', async () => {
    expectError(await me.post('/api/timeline-events', { seriesId: series.id, title: '' }), 422, 'VALIDATION_FAILED', 'Title is required');
    expectError(await me.post('/api/timeline-events', { seriesId: series.id }), 422, 'VALIDATION_FAILED', MESSAGES.timeline.titleRequired);
    expectError(await me.post('/api/timeline-events', { seriesId: series.id, title: 'E', color: 'blue' }), 422, 'VALIDATION_FAILED', MESSAGES.timeline.colorInvalid);
    expectError(await me.post('/api/timeline-events', { seriesId: series.id, title: 'E', when: 'now' }), 422, 'VALIDATION_FAILED');
  });

  it('orders the series timeline by position, then creation', async () => {
    const a = await me.create('/api/timeline-events', { seriesId: series.id, title: 'A', position: 2 });
    const b = await me.create('/api/timeline-events', { seriesId: series.id, title: 'B', position: 1 });
    const c = await me.create('/api/timeline-events', { seriesId: series.id, title: 'C', position: 2 });
    const list = await me.read(`/api/series/${series.id}/timeline`);
    expect(list.map((e: any) => e.id)).toEqual([b.id, a.id, c.id]);
  });

  it('keeps references inside the event series (422) and the series itself accessible (404)', async () => {
    const second = await me.create('/api/series', { title: 'S2' });
    const book = await me.create('/api/books', { seriesId: series.id, title: 'B' });
    const foreignBook = await me.create('/api/books', { seriesId: second.id, title: 'B2' });
    const foreignChapter = await me.create('/api/chapters', { bookId: foreignBook.id, title: 'C' });
    const foreignLocation = await me.create('/api/locations', { seriesId: second.id, name: 'L' });
    const foreignCharacter = await me.create('/api/characters', { seriesId: second.id, name: 'Zed' });
    const otherChapterInSeries = await me.create('/api/chapters', {
      bookId: (await me.create('/api/books', { seriesId: series.id, title: 'B3' })).id,
      title: 'C3',
    });
    const base = { seriesId: series.id, title: 'E' };
    const cases: [object, string][] = [
      [{ bookId: foreignBook.id }, 'The book must belong to the same series as the event'],
      [{ chapterId: foreignChapter.id }, 'The chapter must belong to the same series as the event'],
      [{ bookId: book.id, chapterId: otherChapterInSeries.id }, "The chapter must belong to the event's book"],
      [{ locationId: foreignLocation.id }, 'The location must belong to the same series as the event'],
      [{ characterIds: [foreignCharacter.id] }, 'Every character of the event must belong to the same series as the event'],
    ];
    for (const [refs, message] of cases) {
      expectError(await me.post('/api/timeline-events', { ...base, ...refs }), 422, 'VALIDATION_FAILED', message);
    }
    const event = await me.create('/api/timeline-events', { ...base, bookId: book.id });
    expectError(await me.put(`/api/timeline-events/${event.id}`, { chapterId: otherChapterInSeries.id }), 422, 'VALIDATION_FAILED', "The chapter must belong to the event's book");
    expectError(await me.put(`/api/timeline-events/${event.id}`, { characterIds: [foreignCharacter.id] }), 422, 'VALIDATION_FAILED');
    expect(await me.read(`/api/series/${series.id}/timeline`)).toEqual([event]);

    expectError(await other.post('/api/timeline-events', base), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/series/${series.id}/timeline`), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/timeline-events/${event.id}`), 404, 'NOT_FOUND');
    expectError(await other.put(`/api/timeline-events/${event.id}`, { title: 'X' }), 404, 'NOT_FOUND');
    expectError(await other.del(`/api/timeline-events/${event.id}`), 404, 'NOT_FOUND');
    expect(await me.read(`/api/timeline-events/${event.id}`)).toEqual(event);
  });

  it("lists a character's events", async () => {
    const ann = await me.create('/api/characters', { seriesId: series.id, name: 'Ann' });
    const bo = await me.create('/api/characters', { seriesId: series.id, name: 'Bo' });
    const both = await me.create('/api/timeline-events', { seriesId: series.id, title: 'Both', characterIds: [ann.id, bo.id], position: 2 });
    const annOnly = await me.create('/api/timeline-events', { seriesId: series.id, title: 'Ann', characterIds: [ann.id], position: 1 });
    await me.create('/api/timeline-events', { seriesId: series.id, title: 'Bo', characterIds: [bo.id] });
    expect(await me.read(`/api/characters/${ann.id}/timeline`)).toEqual([annOnly, both]);
  });

  it('needs the timeline feature to write, never to read', async () => {
    const apprentice = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
    const mine = await apprentice.create('/api/series', { title: 'A' });
    expectError(await apprentice.post('/api/timeline-events', { seriesId: mine.id, title: 'E' }), 403, 'FEATURE_LOCKED', upgradeMessage('wordsmith'));
    expect(await apprentice.read(`/api/series/${mine.id}/timeline`)).toEqual([]);
    const { db } = t.app.deps.database;
    await db.updateTable('users').set({ plan: 'wordsmith' }).where('id', '=', apprentice.author.user.id).execute();
    const event = await apprentice.create('/api/timeline-events', { seriesId: mine.id, title: 'E' });
    await db.updateTable('users').set({ plan: 'apprentice' }).where('id', '=', apprentice.author.user.id).execute();
    expect(await apprentice.read(`/api/series/${mine.id}/timeline`)).toEqual([event]);
    expectError(await apprentice.put(`/api/timeline-events/${event.id}`, { title: 'F' }), 403, 'FEATURE_LOCKED');
    expectError(await apprentice.post('/api/timeline-events/reorder', { events: [{ id: event.id, position: 3 }] }), 403, 'FEATURE_LOCKED');
    expectError(await apprentice.del(`/api/timeline-events/${event.id}`), 403, 'FEATURE_LOCKED');
  });
});

describe('timeline reorder', () => {
  it('renumbers in one write and lists in the new order', async () => {
    const events = [];
    for (const title of ['A', 'B', 'C']) events.push(await me.create('/api/timeline-events', { seriesId: series.id, title }));
    const res = await me.post('/api/timeline-events/reorder', {
      events: [
        { id: events[2].id, position: 1 },
        { id: events[0].id, position: 2 },
        { id: events[1].id, position: 3 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const reordered = json(res).events;
    expect(reordered.map((e: any) => e.title)).toEqual(['C', 'A', 'B']);
    expect(new Set(reordered.map((e: any) => e.rev)).size).toBe(1);
    const list = await me.read(`/api/series/${series.id}/timeline`);
    expect(list.map((e: any) => [e.title, e.position])).toEqual([
      ['C', 1],
      ['A', 2],
      ['B', 3],
    ]);
  });

  it('refuses events of two series (422) or foreign ones (404) and changes nothing', async () => {
    const second = await me.create('/api/series', { title: 'S2' });
    const here = await me.create('/api/timeline-events', { seriesId: series.id, title: 'Here' });
    const there = await me.create('/api/timeline-events', { seriesId: second.id, title: 'There' });
    expectError(
      await me.post('/api/timeline-events/reorder', { events: [{ id: here.id, position: 1 }, { id: there.id, position: 2 }] }),
      422,
      'VALIDATION_FAILED',
      'All events of a reorder must belong to the same series',
    );
    const theirSeries = await other.create('/api/series', { title: 'T' });
    const theirs = await other.create('/api/timeline-events', { seriesId: theirSeries.id, title: 'Theirs' });
    expectError(
      await me.post('/api/timeline-events/reorder', { events: [{ id: here.id, position: 5 }, { id: theirs.id, position: 1 }] }),
      404,
      'NOT_FOUND',
    );
    expect(await me.read(`/api/timeline-events/${here.id}`)).toEqual(here);
    expect(await other.read(`/api/timeline-events/${theirs.id}`)).toEqual(theirs);
  });
});

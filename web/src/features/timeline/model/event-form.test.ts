import { describe, expect, it } from 'vitest';
import { MESSAGES, createTimelineEventBodySchema, newId } from '@chronicler/schema';
import { serverEvent } from './fixtures';
import { createBodyFromForm, emptyEventForm, formFromEvent, updateBodyFromForm, validateEventForm } from './event-form';

const seriesId = newId();

describe('event form', () => {
  it('starts with the spec defaults: plot, medium, #6366f1, not a plot point', () => {
    expect(emptyEventForm()).toMatchObject({ eventType: 'plot', importance: 'medium', color: '#6366f1', isPlotPoint: false, date: '', bookId: null, characterIds: [] });
  });

  it("requires a title: 'Title is required'", () => {
    expect(validateEventForm(emptyEventForm({ title: '  ' }))).toEqual({ title: MESSAGES.timeline.titleRequired });
    expect(validateEventForm(emptyEventForm({ title: 'Dawn' }))).toEqual({});
    expect(validateEventForm(emptyEventForm({ title: 'Dawn', color: 'blue' })).color).toBeTruthy();
  });

  it('builds a create body the schema accepts; no chapter without a book', () => {
    const body = createBodyFromForm(seriesId, emptyEventForm({ title: ' Dawn ', chapterId: newId(), characterIds: ['x', 'x'].map(() => seriesId) }), 3);
    expect(body).toMatchObject({ seriesId, title: 'Dawn', chapterId: null, position: 3, characterIds: [seriesId] });
    expect(createTimelineEventBodySchema.safeParse(body).success).toBe(true);
  });

  it('sends only the changed fields; a new book moves the event to the end of that book', () => {
    const event = serverEvent(seriesId, { title: 'Dawn', position: 2 });
    const form = formFromEvent(event);
    expect(updateBodyFromForm(event, form, 9)).toEqual({});
    expect(updateBodyFromForm(event, { ...form, date: 'Year 1', isPlotPoint: true }, 9)).toEqual({ date: 'Year 1', isPlotPoint: true });
    const book = newId();
    expect(updateBodyFromForm(event, { ...form, bookId: book }, 4)).toEqual({ bookId: book, position: 4 });
  });
});

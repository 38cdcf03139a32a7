/**
 * The add/edit event dialog's values (spec 001 §3 Timeline event, §5): defaults, the title check
 * and the request bodies. Ids are strings here (docs/architecture.md#identity), not the spec's
 * numbers.
 */
import {
  DEFAULT_EVENT_COLOR,
  MESSAGES,
  type CreateTimelineEventBody,
  type TimelineEvent,
  type UpdateTimelineEventBody,
} from '@chronicler/schema';
import type { EventImportance, EventType } from './timeline';

export interface EventFormValues {
  title: string;
  description: string;
  eventType: EventType;
  /** Free text: a year, a day, "Before the war"; may be empty. */
  date: string;
  bookId: string | null;
  chapterId: string | null;
  characterIds: string[];
  locationId: string | null;
  importance: EventImportance;
  color: string;
  isPlotPoint: boolean;
}

export type EventFormErrors = Partial<Record<keyof EventFormValues, string>>;

export const COLOR_MESSAGE = MESSAGES.timeline.colorInvalid;

export function emptyEventForm(defaults: Partial<EventFormValues> = {}): EventFormValues {
  return {
    title: '',
    description: '',
    eventType: 'plot',
    date: '',
    bookId: null,
    chapterId: null,
    characterIds: [],
    locationId: null,
    importance: 'medium',
    color: DEFAULT_EVENT_COLOR,
    isPlotPoint: false,
    ...defaults,
  };
}

export function formFromEvent(event: TimelineEvent): EventFormValues {
  return {
    title: event.title,
    description: event.description,
    eventType: event.eventType,
    date: event.date,
    bookId: event.bookId,
    chapterId: event.chapterId,
    characterIds: [...event.characterIds],
    locationId: event.locationId,
    importance: event.importance,
    color: event.color,
    isPlotPoint: event.isPlotPoint,
  };
}

/** Field messages; empty when the form may be submitted. */
export function validateEventForm(values: EventFormValues): EventFormErrors {
  const errors: EventFormErrors = {};
  if (values.title.trim() === '') errors.title = MESSAGES.timeline.titleRequired;
  if (!/^#[0-9a-fA-F]{6}$/.test(values.color)) errors.color = COLOR_MESSAGE;
  return errors;
}

function normalised(values: EventFormValues) {
  return {
    title: values.title.trim(),
    description: values.description.trim(),
    eventType: values.eventType,
    date: values.date.trim(),
    bookId: values.bookId,
    // A chapter belongs to a book: without a book there is no chapter.
    chapterId: values.bookId ? values.chapterId : null,
    characterIds: [...new Set(values.characterIds)],
    locationId: values.locationId,
    importance: values.importance,
    color: values.color.toLowerCase(),
    isPlotPoint: values.isPlotPoint,
  };
}

export function createBodyFromForm(seriesId: string, values: EventFormValues, position: number): CreateTimelineEventBody {
  return { seriesId, ...normalised(values), position };
}

/**
 * Only the fields that changed (a field the author did not touch keeps the server's value). When
 * the book changes the event moves to the end of its new group (`positionInNewBook`).
 */
export function updateBodyFromForm(original: TimelineEvent, values: EventFormValues, positionInNewBook: number): UpdateTimelineEventBody {
  const next = normalised(values);
  const body: UpdateTimelineEventBody = {};
  if (next.title !== original.title) body.title = next.title;
  if (next.description !== original.description) body.description = next.description;
  if (next.eventType !== original.eventType) body.eventType = next.eventType;
  if (next.date !== original.date) body.date = next.date;
  if (next.bookId !== original.bookId) {
    body.bookId = next.bookId;
    body.position = positionInNewBook;
  }
  if (next.chapterId !== original.chapterId) body.chapterId = next.chapterId;
  if ([...next.characterIds].sort().join() !== [...original.characterIds].sort().join()) body.characterIds = next.characterIds;
  if (next.locationId !== original.locationId) body.locationId = next.locationId;
  if (next.importance !== original.importance) body.importance = next.importance;
  if (next.color !== original.color.toLowerCase()) body.color = next.color;
  if (next.isPlotPoint !== original.isPlotPoint) body.isPlotPoint = next.isPlotPoint;
  return body;
}

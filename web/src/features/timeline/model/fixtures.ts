/** Timeline rows as the server would send them (tests). */
import { newId, type TimelineEvent } from '@chronicler/schema';

let tick = 0;

export function serverEvent(seriesId: string, over: Partial<TimelineEvent> = {}): TimelineEvent {
  tick += 1;
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, tick)).toISOString();
  return {
    id: newId(),
    rev: 7,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
    seriesId,
    title: 'An event',
    description: '',
    eventType: 'plot',
    date: '',
    bookId: null,
    chapterId: null,
    characterIds: [],
    locationId: null,
    importance: 'medium',
    color: '#6366f1',
    position: 0,
    isPlotPoint: false,
    ...over,
  };
}

/**
 * Which toast a change kept aside gets (the problems panel's entries, engine `problem` events).
 */
import {
  BOOK_TOASTS,
  CHAPTER_TOASTS,
  CHARACTER_TOASTS,
  DASHBOARD_TOASTS,
  LOCATION_TOASTS,
  SERIES_TOASTS,
  type ToastContent,
  timelineEventDeleteFailedToast,
  timelineEventSaveFailedToast,
  timelineReorderFailedToast,
  withError,
} from '@/lib/copy/toasts';
import type { DeadLetter, OutboxEntry } from '@chronicler/sync-client';

/**
 * The toast for a change the server refused for good (a dead letter): the catalogue's failure toast
 * of that kind of change, with the server's reason (e.g. a plan limit). The optimistic change is
 * already reverted by the engine; the words stay recoverable in the sync indicator's problems panel.
 */
export function problemToast(entry: Pick<OutboxEntry, 'entity' | 'kind'>, message: string): ToastContent {
  const error = { message };
  const { entity, kind } = entry;
  switch (entity) {
    case 'series':
      if (kind === 'create') return withError(SERIES_TOASTS.seriesCreateFailed, error);
      if (kind === 'update') return withError(DASHBOARD_TOASTS.seriesUpdateFailed, error);
      return withError({ title: 'Error deleting series', variant: 'destructive' }, error);
    case 'books':
      if (kind === 'create') return withError(BOOK_TOASTS.bookCreateFailed, error);
      if (kind === 'delete') return withError(BOOK_TOASTS.bookDeleteFailed, error);
      return withError(BOOK_TOASTS.bookUpdateFailed, error);
    case 'chapters':
    case 'chapterConflicts':
      return withError(CHAPTER_TOASTS.chapterSaveFailed, error);
    case 'characters':
      if (kind === 'create') return withError(CHARACTER_TOASTS.characterAddFailed, error);
      if (kind === 'delete') return withError(CHARACTER_TOASTS.characterDeleteFailed, error);
      return withError(CHARACTER_TOASTS.characterUpdateFailed, error);
    case 'characterRelationships':
      return withError(CHARACTER_TOASTS.relationshipAddFailed, error);
    case 'locations':
      if (kind === 'create') return withError(LOCATION_TOASTS.locationAddFailed, error);
      if (kind === 'delete') return withError(LOCATION_TOASTS.locationDeleteFailed, error);
      return withError(LOCATION_TOASTS.locationUpdateFailed, error);
    case 'timelineEvents':
      if (kind === 'reorder') return timelineReorderFailedToast(error);
      if (kind === 'delete') return timelineEventDeleteFailedToast(error);
      return timelineEventSaveFailedToast(kind === 'create' ? 'create' : 'edit', error);
    default:
      return { title: 'Change not saved', message, variant: 'destructive' };
  }
}

/**
 * The toast for a new entry of the problems panel. A 2xx one was saved, onto a row a delete on
 * another device had removed (engine keepRemovedWords): not a failure, so a plain heads-up.
 */
export function toastForProblem(letter: Pick<DeadLetter, 'entry' | 'status'>, message: string): ToastContent {
  if (letter.status >= 200 && letter.status < 300) return { title: 'Deleted on another device', message, variant: 'default' };
  return problemToast(letter.entry, message);
}

/**
 * Restructuring from any screen (docs/decisions/0014-trash-and-restructure.md): the sync client's
 * operations over the signed-in database, and the toast each ends with, whose "Undo" is one more
 * local write. A refusal (bad input, a viewer, a row gone) is a destructive toast with its message;
 * nothing was written then.
 */
import { TRASH_RETENTION_DAYS } from '@chronicler/schema';
import type { Restructure, Undoable } from '@chronicler/sync-client';
import { errorText } from '@/lib/copy/toast-core';
import { useSync } from '@/lib/sync';
import { toast } from '@/lib/toast';

/** The operations over the signed-in database (made with its mutators, app/SyncProvider). */
export function useRestructure(): Restructure {
  return useSync().restructure;
}

export const RESTRUCTURE_COPY = {
  chapterTrashed: { title: 'Chapter moved to the Trash', message: `You can restore it from the series’ Trash for ${TRASH_RETENTION_DAYS} days.` },
  bookTrashed: { title: 'Book moved to the Trash', message: `It and its chapters can be restored from the series’ Trash for ${TRASH_RETENTION_DAYS} days.` },
  chapterRestored: { title: 'Chapter restored' },
  bookRestored: { title: 'Book restored' },
  chapterMoved: (bookTitle: string) => ({ title: 'Chapter moved', message: `It is now in ${bookTitle}.` }),
  chapterSplit: { title: 'Chapter split in two', message: 'The text after the cursor is now the next chapter.' },
  chaptersMerged: { title: 'Chapters merged', message: 'The next chapter’s text was added to this one; the emptied chapter is in the Trash.' },
  deletedForever: { title: 'Deleted for good' },
  undone: { title: 'Undone' },
  failed: 'That could not be done',
  undoFailed: 'Could not undo',
} as const;

/**
 * Runs one restructure and toasts it with "Undo". Resolves to what the operation answered, or
 * null when it was refused (already toasted).
 */
export async function withUndoToast<T extends Undoable>(run: () => Promise<T>, done: { title: string; message?: string }): Promise<T | null> {
  let outcome: T;
  try {
    outcome = await run();
  } catch (error) {
    toast.error({ title: RESTRUCTURE_COPY.failed, message: errorText(error) });
    return null;
  }
  toast.success({
    ...done,
    duration: 10_000,
    action: {
      label: 'Undo',
      onClick: () => {
        outcome.undo().then(
          () => toast.success(RESTRUCTURE_COPY.undone),
          (error: unknown) => toast.error({ title: RESTRUCTURE_COPY.undoFailed, message: errorText(error) }),
        );
      },
    },
  });
  return outcome;
}

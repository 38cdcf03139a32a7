import { type ReactNode, createContext, useContext, useMemo, useRef } from 'react';
import { DragDropContext, type DropResult } from '@hello-pangea/dnd';
import type { Book } from '@chronicler/schema';
import { RESTRUCTURE_COPY, useRestructure, withUndoToast } from '@/lib/restructure';

/** Spoken when a chapter's handle gets the focus (hello-pangea's keyboard dragging). */
export const DRAG_INSTRUCTIONS =
  'Press space to pick up the chapter. Use the up and down arrow keys to move it, the left and right arrow keys to move it to the book beside, space to drop it in its new place, or escape to cancel.';

type DropHandler = (result: DropResult) => void;

interface ChapterDragRegistry {
  /** A book's chapter list takes the drops that stay in its book (its reorder); answers the unregister. */
  register(bookId: string, onDrop: DropHandler): () => void;
}

const ChapterDragContext = createContext<ChapterDragRegistry | null>(null);

/** The registry of the surrounding ChapterDragArea, or null (a list alone makes its own drag context). */
export function useChapterDragArea(): ChapterDragRegistry | null {
  return useContext(ChapterDragContext);
}

export const droppableIdOf = (bookId: string) => `chapters:${bookId}`;
const bookIdOf = (droppableId: string) => droppableId.slice('chapters:'.length);

/**
 * One drag context over all the books of a series (docs/decisions/0014-trash-and-restructure.md):
 * a chapter dropped in another book's list moves there (a pointer, or the keyboard's left and right
 * arrows), with the toast's Undo; a drop in its own list is that list's reorder.
 */
export function ChapterDragArea({ books, children }: { books: readonly Book[]; children: ReactNode }) {
  const restructure = useRestructure();
  const handlers = useRef(new Map<string, DropHandler>());
  const registry = useMemo<ChapterDragRegistry>(
    () => ({
      register(bookId, onDrop) {
        handlers.current.set(bookId, onDrop);
        return () => {
          if (handlers.current.get(bookId) === onDrop) handlers.current.delete(bookId);
        };
      },
    }),
    [],
  );

  const onDragEnd = (result: DropResult) => {
    if (!result.destination) return;
    const from = bookIdOf(result.source.droppableId);
    const to = bookIdOf(result.destination.droppableId);
    if (from === to) {
      handlers.current.get(from)?.(result);
      return;
    }
    const title = books.find((b) => b.id === to)?.title ?? 'the book';
    const position = result.destination.index + 1;
    void withUndoToast(() => restructure.moveChapter(result.draggableId, to, position), RESTRUCTURE_COPY.chapterMoved(title));
  };

  return (
    <ChapterDragContext.Provider value={registry}>
      <DragDropContext onDragEnd={onDragEnd} dragHandleUsageInstructions={DRAG_INSTRUCTIONS}>
        {children}
      </DragDropContext>
    </ChapterDragContext.Provider>
  );
}

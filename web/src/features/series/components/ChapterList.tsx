import '../styles';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { DragDropContext, Draggable, Droppable, type DropResult } from '@hello-pangea/dnd';
import { Group, Progress, Text } from '@mantine/core';
import { IconGripVertical } from '@tabler/icons-react';
import { chapterProgressBar, type Chapter } from '@chronicler/schema';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { toast } from '@/lib/toast';
import { useMutators } from '@/lib/sync';
import { chapterEditorPath } from '@/lib/chapterEditorPath';
import { useSeriesRole } from '@/lib/useSeriesRole';
import { useBooks } from '../hooks/useSeriesData';
import { ChapterActions } from './ChapterActions';
import { DRAG_INSTRUCTIONS, droppableIdOf, useChapterDragArea } from './ChapterDragArea';
import classes from './ChapterList.module.css';

interface ChapterListProps {
  bookId: string;
  seriesId: string;
  chapters: Chapter[];
}

export { chapterEditorPath };

/** Moves the item at `from` to `to`. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = items.slice();
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}

/**
 * A book's chapters in order (001 §2, §4): each opens the chapter editor; drag and drop (pointer or
 * keyboard: space to lift, arrows to move, space to drop) reorders them, saved as 1-based positions.
 * Inside a ChapterDragArea (the series' books) a chapter can also be dropped into another book.
 */
export function ChapterList({ bookId, seriesId, chapters }: ChapterListProps) {
  const mutators = useMutators();
  const otherBooks = (useBooks(seriesId) ?? []).filter((b) => b.id !== bookId);
  const { canEdit } = useSeriesRole(seriesId);
  // The order just dropped, shown until the local database answers with it.
  const [pending, setPending] = useState<string[] | null>(null);

  const shown = useMemo(() => {
    if (!pending) return chapters;
    const byId = new Map(chapters.map((c) => [c.id, c]));
    const ordered = pending.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    const rest = chapters.filter((c) => !pending.includes(c.id));
    return [...ordered, ...rest];
  }, [chapters, pending]);

  if (pending && chapters.map((c) => c.id).join() === pending.join()) {
    // The database caught up: drop the override (render-time state adjustment).
    setPending(null);
  }

  const area = useChapterDragArea();
  const onDragEnd = async (result: DropResult) => {
    const to = result.destination?.index;
    if (to === undefined || to === result.source.index) return;
    const next = moveItem(shown, result.source.index, to);
    setPending(next.map((c) => c.id));
    try {
      await mutators.chapters.reorder({ chapters: next.map((c, i) => ({ id: c.id, position: i + 1 })) });
    } catch (error) {
      setPending(null);
      toast.show(withError(TOASTS.chapterSaveFailed, error));
    }
  };

  // The drops that stay in this book come back here from the series' drag area.
  useEffect(() => area?.register(bookId, (result) => void onDragEnd(result)));

  const list = (
    <Droppable droppableId={droppableIdOf(bookId)}>
      {(dropProvided) => (
        <div ref={dropProvided.innerRef} {...dropProvided.droppableProps} className={classes.list} data-testid="chapter-list">
          {shown.map((chapter, index) => (
            <Draggable key={chapter.id} draggableId={chapter.id} index={index}>
              {(provided, snapshot) => (
                <div
                  ref={provided.innerRef}
                  {...provided.draggableProps}
                  className={classes.item}
                  data-dragging={snapshot.isDragging}
                  data-testid="chapter-item"
                >
                  <div {...provided.dragHandleProps} className={classes.handle} aria-label={`Reorder chapter ${chapter.title}`}>
                    <IconGripVertical size={14} aria-hidden />
                  </div>
                  <Link to={chapterEditorPath({ id: chapter.id, bookId, seriesId })} className={classes.link}>
                    <Group justify="space-between" wrap="nowrap" gap="xs">
                      <Text size="sm" truncate="end" fw={500}>
                        {chapter.title}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
                        {chapter.wordCount.toLocaleString()} words
                      </Text>
                    </Group>
                    <Progress
                      value={chapterProgressBar(chapter)}
                      size={4}
                      mt={4}
                      color={chapter.status === 'completed' ? 'teal' : undefined}
                      aria-label={`${chapter.title} progress ${chapterProgressBar(chapter)}%`}
                    />
                  </Link>
                  <ChapterActions chapter={chapter} otherBooks={otherBooks} canEdit={canEdit} />
                </div>
              )}
            </Draggable>
          ))}
          {dropProvided.placeholder}
        </div>
      )}
    </Droppable>
  );
  return area ? list : <OwnDragContext onDragEnd={(result) => void onDragEnd(result)}>{list}</OwnDragContext>;
}

/** A list shown alone (the dashboard's current book): its own drag context, reorders only. */
function OwnDragContext({ onDragEnd, children }: { onDragEnd: (result: DropResult) => void; children: ReactNode }) {
  return (
    <DragDropContext onDragEnd={onDragEnd} dragHandleUsageInstructions={DRAG_INSTRUCTIONS}>
      {children}
    </DragDropContext>
  );
}

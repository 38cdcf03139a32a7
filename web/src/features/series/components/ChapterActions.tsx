import { ActionIcon } from '@mantine/core';
import { IconArrowsJoin2, IconDots, IconFolderShare, IconTrash } from '@tabler/icons-react';
import type { Book, Chapter } from '@chronicler/schema';
import { Menu } from '@/lib/first-load';
import { RESTRUCTURE_COPY, useRestructure, withUndoToast } from '@/lib/restructure';

interface ChapterActionsProps {
  chapter: Chapter;
  /** The series' other books that are not in the Trash: where the chapter can move. */
  otherBooks: readonly Book[];
  canEdit: boolean;
}

/**
 * A chapter's options on the series screens (docs/decisions/0014-trash-and-restructure.md): move
 * to another book of the series, merge with the next chapter, delete into the Trash. Each ends
 * with a toast whose "Undo" puts it back; a viewer sees them disabled.
 */
export function ChapterActions({ chapter, otherBooks, canEdit }: ChapterActionsProps) {
  const restructure = useRestructure();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Options for ${chapter.title}`} style={{ flex: 'none' }}>
          <IconDots size={16} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {otherBooks.length > 0 ? <Menu.Label>Move to</Menu.Label> : null}
        {otherBooks.map((book) => (
          <Menu.Item
            key={book.id}
            leftSection={<IconFolderShare size={14} aria-hidden />}
            disabled={!canEdit}
            onClick={() => void withUndoToast(() => restructure.moveChapter(chapter.id, book.id), RESTRUCTURE_COPY.chapterMoved(book.title))}
          >
            Move to {book.title}
          </Menu.Item>
        ))}
        {otherBooks.length > 0 ? <Menu.Divider /> : null}
        <Menu.Item
          leftSection={<IconArrowsJoin2 size={14} aria-hidden />}
          disabled={!canEdit}
          onClick={() => void withUndoToast(() => restructure.mergeWithNext(chapter.id), RESTRUCTURE_COPY.chaptersMerged)}
        >
          Merge with next chapter
        </Menu.Item>
        <Menu.Item
          color="red"
          leftSection={<IconTrash size={14} aria-hidden />}
          disabled={!canEdit}
          onClick={() => void withUndoToast(() => restructure.trashChapter(chapter.id), RESTRUCTURE_COPY.chapterTrashed)}
        >
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

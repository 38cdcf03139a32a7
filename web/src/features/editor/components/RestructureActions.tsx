/**
 * The editor's restructure actions (docs/decisions/0014-trash-and-restructure.md): split the
 * chapter at the cursor, merge it with the next one, move it to another book of the series, delete
 * it into the series' Trash. Unsaved words are saved first (as writing), so the restructure itself
 * moves only saved text and counts as none. Each ends with a toast whose "Undo" puts it back. A
 * menu on a large screen; plain buttons inside the phone's options popover.
 */
import { ActionIcon, Button, Divider, Stack, Text } from '@mantine/core';
import { IconArrowsJoin2, IconFolderShare, IconScissors, IconStack2, IconTrash } from '@tabler/icons-react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Book, Chapter } from '@chronicler/schema';
import { booksOfSeries } from '@chronicler/sync-client';
import { Menu } from '@/lib/first-load';
import { RESTRUCTURE_COPY, useRestructure, withUndoToast } from '@/lib/restructure';
import { useDb } from '@/lib/sync';
import type { ChapterEditorController } from '../hooks/useChapterEditor';

export interface RestructureActionsProps {
  controller: ChapterEditorController;
  chapter: Chapter;
  disabled: boolean;
  variant: 'menu' | 'buttons';
  /** After a move (the editor's address names the book) or a delete (the editor leaves). */
  onMoved: (book: Book) => void;
  onTrashed: () => void;
  /** Closes the phone's popover before an action runs. */
  onPicked?: () => void;
}

export function RestructureActions({ controller, chapter, disabled, variant, onMoved, onTrashed, onPicked }: RestructureActionsProps) {
  const db = useDb();
  const restructure = useRestructure();
  const otherBooks = (useLiveQuery(() => booksOfSeries(db, chapter.seriesId), [db, chapter.seriesId]) ?? []).filter((b) => b.id !== chapter.bookId);

  /** Saves typed words first; false when they could not be saved (the save said why). */
  const saved = async () => !controller.store.getState().dirty || (await controller.save({ quiet: true }));

  const split = async () => {
    onPicked?.();
    if (!(await saved())) return;
    const caret = controller.editorRef.current?.view?.state.selection.main.head ?? 0;
    await withUndoToast(() => restructure.splitChapter(chapter.id, caret), RESTRUCTURE_COPY.chapterSplit);
  };
  const merge = async () => {
    onPicked?.();
    if (!(await saved())) return;
    await withUndoToast(() => restructure.mergeWithNext(chapter.id), RESTRUCTURE_COPY.chaptersMerged);
  };
  const move = async (book: Book) => {
    onPicked?.();
    if (!(await saved())) return;
    if (await withUndoToast(() => restructure.moveChapter(chapter.id, book.id), RESTRUCTURE_COPY.chapterMoved(book.title))) onMoved(book);
  };
  const trash = async () => {
    onPicked?.();
    if (!(await saved())) return;
    if (await withUndoToast(() => restructure.trashChapter(chapter.id), RESTRUCTURE_COPY.chapterTrashed)) onTrashed();
  };

  if (variant === 'buttons') {
    const item = { variant: 'subtle', color: 'gray', justify: 'flex-start', size: 'sm', disabled } as const;
    return (
      <Stack gap={2}>
        <Divider my={2} />
        <Text size="xs" c="dimmed" fw={600} px="xs" pt={4}>
          Restructure
        </Text>
        <Button {...item} leftSection={<IconScissors size={14} aria-hidden />} onClick={() => void split()}>
          Split at cursor
        </Button>
        <Button {...item} leftSection={<IconArrowsJoin2 size={14} aria-hidden />} onClick={() => void merge()}>
          Merge with next chapter
        </Button>
        {otherBooks.map((book) => (
          <Button key={book.id} {...item} leftSection={<IconFolderShare size={14} aria-hidden />} onClick={() => void move(book)}>
            Move to {book.title}
          </Button>
        ))}
        <Button {...item} color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => void trash()}>
          Delete chapter
        </Button>
      </Stack>
    );
  }

  return (
    <Menu position="bottom-end" withinPortal>
      {/* An icon, as History and Export beside it: the toolbar keeps one row (EditorToolbar). */}
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label="Restructure" title="Restructure" disabled={disabled}>
          <IconStack2 size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconScissors size={14} aria-hidden />} onClick={() => void split()}>
          Split at cursor
        </Menu.Item>
        <Menu.Item leftSection={<IconArrowsJoin2 size={14} aria-hidden />} onClick={() => void merge()}>
          Merge with next chapter
        </Menu.Item>
        {otherBooks.length > 0 ? <Menu.Label>Move to</Menu.Label> : null}
        {otherBooks.map((book) => (
          <Menu.Item key={book.id} leftSection={<IconFolderShare size={14} aria-hidden />} onClick={() => void move(book)}>
            Move to {book.title}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => void trash()}>
          Delete chapter
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

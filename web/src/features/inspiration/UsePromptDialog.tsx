import { useEffect, useState } from 'react';
import { useNavigate, Link } from 'react-router';
import { Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useLiveQuery } from 'dexie-react-hooks';
import { type Book } from '@chronicler/schema';
import { booksOfSeries } from '@chronicler/sync-client';
import { Modal } from '@/lib/first-load';
import { chapterEditorPath } from '@/lib/chapterEditorPath';
import { useCurrentSeries } from '@/lib/useCurrentSeries';
import { useSync } from '@/lib/sync';
import { toast } from '@/lib/toast';
import type { WritingPrompt } from './prompts';
import { startChapterFromPrompt } from './startChapter';

const NO_BOOKS: Book[] = [];

/** Picks the book of the current series and starts a chapter from the prompt. */
export function UsePromptDialog({ prompt, onClose }: { prompt: WritingPrompt | null; onClose(): void }) {
  const { db, mutators } = useSync();
  const { series } = useCurrentSeries();
  const navigate = useNavigate();
  const books = useLiveQuery(() => (series ? booksOfSeries(db, series.id) : Promise.resolve(NO_BOOKS)), [db, series?.id], NO_BOOKS);
  const [bookId, setBookId] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (books.length > 0 && !books.some((b) => b.id === bookId)) {
      const current = books.find((b) => b.position === series?.currentBook) ?? books[0]!;
      setBookId(current.id);
    }
  }, [books, bookId, series?.currentBook]);

  const start = async () => {
    if (!prompt || !bookId) return;
    setBusy(true);
    try {
      const chapter = await startChapterFromPrompt(mutators, bookId, prompt);
      onClose();
      void navigate(chapterEditorPath(chapter));
    } catch (error) {
      toast.error({ title: 'Chapter not started', message: error instanceof Error ? error.message : undefined });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={prompt !== null} onClose={onClose} title="Start a chapter from this prompt" centered>
      {prompt ? (
        <Stack gap="md">
          <Text fw={600}>{prompt.title}</Text>
          <Text size="sm" c="dimmed">
            {prompt.text}
          </Text>
          {!series ? (
            <Text size="sm">
              Create a series and a book first: <Link to="/series">go to your series</Link>.
            </Text>
          ) : books.length === 0 ? (
            <Text size="sm">
              {series.title} has no book yet: <Link to={`/series/${series.id}`}>add one</Link>.
            </Text>
          ) : (
            <NativeSelect
              label={`Book of ${series.title}`}
              value={bookId}
              onChange={(e) => setBookId(e.currentTarget.value)}
              data={books.map((b) => ({ value: b.id, label: `Book ${b.position}: ${b.title}` }))}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => void start()} loading={busy} disabled={!bookId || books.length === 0}>
              Start writing
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

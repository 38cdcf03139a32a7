import { type ReactNode, useState } from 'react';
import { Button, Group, SimpleGrid, Skeleton, Stack, Title } from '@mantine/core';
import { IconBook2, IconLock, IconPlus } from '@tabler/icons-react';
import { type Series, hasFeature } from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { EmptyPanel } from '@/components/EmptyPanel';
import { useSession } from '@/lib/session';
import { useSync } from '@/lib/sync';
import { useSeriesPace } from '@/lib/usePace';
import { useBooks } from '../hooks/useSeriesData';
import { limitNotice } from '../model/limits';
import { AddBookForm } from './AddBookForm';
import { BookCard } from './BookCard';
import { ChapterDragArea } from './ChapterDragArea';
import { LimitNotice } from './LimitNotice';

/**
 * 'Books in {series}' (001 §2): the Add Book dialog, the book cards, or 'No Books Yet'. `actions`
 * go before Add Book (the series list puts Export and Import there).
 */
export function BooksPanel({ series, actions = null }: { series: Series; actions?: ReactNode }) {
  const { userId } = useSync();
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  const books = useBooks(series.id);
  const [adding, setAdding] = useState(false);
  const count = books?.length ?? 0;
  // A shared series counts against its owner's plan, which only the server knows.
  const owned = series.ownerId === userId;
  const notice = owned ? limitNotice(plan, 'booksPerSeries', count) : null;
  const locked = notice?.locked ?? false;
  // Each card shows its book's pace where the plan has it (a shared series: the server judges).
  const paces = useSeriesPace(series.id);
  const showPace = !owned || hasFeature(plan, 'pacePredictions');

  const addButton = (
    <Button
      leftSection={locked ? <IconLock size={16} aria-hidden /> : <IconPlus size={16} aria-hidden />}
      onClick={() => setAdding(true)}
      disabled={locked || books === undefined}
    >
      Add Book
    </Button>
  );

  return (
    <Stack gap="md" component="section" aria-labelledby="books-heading">
      <Group justify="space-between" align="center" gap="sm">
        <Title order={2} id="books-heading" fz={{ base: 20, sm: 24 }}>
          Books in {series.title}
        </Title>
        <Group gap="xs">
          {actions}
          {addButton}
        </Group>
      </Group>
      {notice && books !== undefined ? <LimitNotice notice={notice} testId="book-limit" /> : null}

      {books === undefined ? (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
          <Skeleton height={260} radius="md" />
          <Skeleton height={260} radius="md" />
        </SimpleGrid>
      ) : books.length === 0 ? (
        <EmptyPanel
          compact
          icon={<IconBook2 size={28} stroke={1.5} />}
          title="No Books Yet"
          description={`Add the first book of ${series.title} to start planning its chapters.`}
          actions={
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)} disabled={locked}>
              Add Book
            </Button>
          }
        />
      ) : (
        <ChapterDragArea books={books}>
          <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
            {books.map((book) => (
              <BookCard key={book.id} book={book} pace={paces?.find((p) => p.book.id === book.id)} owned={owned} showPace={showPace} />
            ))}
          </SimpleGrid>
        </ChapterDragArea>
      )}

      <Modal opened={adding} onClose={() => setAdding(false)} title="Add Book" centered radius="md">
        <AddBookForm
          seriesId={series.id}
          bookCount={count}
          locked={locked}
          onCreated={() => setAdding(false)}
          onCancel={() => setAdding(false)}
        />
      </Modal>
    </Stack>
  );
}

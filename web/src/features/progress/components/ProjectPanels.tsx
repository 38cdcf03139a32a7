import { lazy, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ActionIcon, Anchor, Button, Group, Paper, Progress, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconBook, IconDots, IconPencil, IconPlus } from '@tabler/icons-react';
import { type Book, type Chapter, MESSAGES, type Series, bookProgress } from '@chronicler/schema';
import { DeferredPopover } from '@/lib/first-load';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { toast } from '@/lib/toast';
import { useMutators } from '@/lib/sync';
import { useSeriesProgress } from '@/lib/useSeriesProgress';

// The more-menu (Mantine's Menu and Floating UI) is downloaded and mounted when first opened:
// mounted closed, it re-rendered synchronously inside the dashboard's first commit.
const ProjectMoreMenu = lazy(() => import('./ProjectMoreMenu'));

/** The Current Project panel (000 §2): the current series, its pencil and its more-menu's five links. */
export function CurrentProjectPanel({ series, onEdit }: { series: Series | null; onEdit: () => void }) {
  // Completed chapters against the books planned (docs/spec-differences.md), read live.
  const percent = useSeriesProgress(series);
  if (!series) {
    return (
      <Paper withBorder radius="md" p="md" component="section" aria-label="Current Project" data-testid="current-project">
        <Title order={2} fz="md">
          Current Project
        </Title>
        <Text size="sm" c="dimmed" mt="xs">
          No active series selected
        </Text>
        <Button component={Link} to="/series" mt="sm" leftSection={<IconPlus size={16} />}>
          Create New Series
        </Button>
      </Paper>
    );
  }
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Current Project" data-testid="current-project">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.5}>
            Current Project
          </Text>
          <Title order={2} fz="lg" data-testid="current-project-title">
            {series.title}
          </Title>
        </div>
        <Group gap={4} wrap="nowrap">
          <ActionIcon variant="subtle" aria-label="Edit series" onClick={onEdit}>
            <IconPencil size={18} />
          </ActionIcon>
          <DeferredPopover
            popup="menu"
            trigger={
              <ActionIcon variant="subtle" aria-label="More actions">
                <IconDots size={18} />
              </ActionIcon>
            }
          >
            {(layer) => <ProjectMoreMenu {...layer} seriesId={series.id} />}
          </DeferredPopover>
        </Group>
      </Group>
      {series.description ? (
        <Text size="sm" c="dimmed" mt="xs" lineClamp={3}>
          {series.description}
        </Text>
      ) : null}
      <Group justify="space-between" mt="sm">
        <Text size="sm">
          Book {series.currentBook} of {series.totalBooks}
        </Text>
        <Text size="sm" fw={600}>
          {percent}%
        </Text>
      </Group>
      <Progress value={percent} size="sm" mt={4} aria-label={`Series progress ${percent}%`} />
    </Paper>
  );
}

interface CurrentBookPanelProps {
  series: Series | null;
  book: Book | null | undefined;
  chapters: Chapter[] | undefined;
  /** The series feature's chapter list (progress bars, drag and keyboard reorder), composed by the route. */
  renderChapterList: (book: Book, chapters: Chapter[]) => ReactNode;
}

/** The side column's current-book panel (000 §2): its chapters and the add-chapter form. */
export function CurrentBookPanel({ series, book, chapters, renderChapterList }: CurrentBookPanelProps) {
  const mutators = useMutators();
  const [title, setTitle] = useState('');
  const [adding, setAdding] = useState(false);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = title.trim();
    if (trimmed === '' || adding) return; // blank titles are ignored (000 §5)
    if (!book) {
      toast.show(withError(TOASTS.chapterSaveFailed, new Error(MESSAGES.chapter.noCurrentBook)));
      return;
    }
    setAdding(true);
    try {
      // No position: the mutator puts it after the book's chapters as the database has them at the
      // write. Counted from the drawn list (a deferred value), two quick adds both took position 1.
      await mutators.chapters.create({ bookId: book.id, title: trimmed, wordCount: 0, status: 'in_progress' });
      setTitle('');
      toast.show(TOASTS.chapterAdded);
    } catch (error) {
      toast.show(withError(TOASTS.chapterSaveFailed, error));
    } finally {
      setAdding(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Current Book" data-testid="current-book">
      <Group gap="xs" mb="xs">
        <IconBook size={18} aria-hidden />
        <Title order={2} fz="md">
          {book ? book.title : 'Current Book'}
        </Title>
      </Group>
      {!series ? (
        <Text size="sm" c="dimmed">
          No active series selected
        </Text>
      ) : book === null ? (
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {MESSAGES.chapter.noCurrentBook}
          </Text>
          <Anchor component={Link} to={`/series/${series.id}/books/new`} size="sm">
            Add New Book
          </Anchor>
        </Stack>
      ) : book && chapters ? (
        <>
          <Text size="xs" c="dimmed" mb="xs">
            {chapters.length} {chapters.length === 1 ? 'chapter' : 'chapters'} · {bookProgress(chapters)}% complete
          </Text>
          {chapters.length === 0 ? (
            <Text size="sm" c="dimmed">
              No chapters yet. Add the first one below.
            </Text>
          ) : (
            renderChapterList(book, chapters)
          )}
          <form onSubmit={add}>
            <Group gap="xs" mt="sm" wrap="nowrap">
              <TextInput
                aria-label="New chapter title"
                placeholder="New chapter title"
                value={title}
                onChange={(e) => setTitle(e.currentTarget.value)}
                style={{ flex: 1 }}
                size="sm"
              />
              <Button type="submit" size="sm" loading={adding} leftSection={<IconPlus size={14} />}>
                Add
              </Button>
            </Group>
          </form>
        </>
      ) : (
        <Text size="sm" c="dimmed" aria-busy="true">
          Loading chapters…
        </Text>
      )}
    </Paper>
  );
}

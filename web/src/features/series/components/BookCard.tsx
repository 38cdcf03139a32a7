import { Suspense, useMemo, useState, type FormEvent } from 'react';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  ScrollArea,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDots, IconPencil, IconPlus, IconShare, IconTarget, IconTrash } from '@tabler/icons-react';
import {
  BOOK_STATUSES,
  MESSAGES,
  bookProgress,
  BOOK_STATUS_LABELS,
  type Book,
} from '@chronicler/schema';
import { Menu, OpenedOnce } from '@/lib/first-load';
import type { ShareCardContent } from '@/lib/shareCard';
import { ShareCardDialog } from '@/components/ShareCardDialog';
import { TOASTS, withError } from '@/lib/copy/toasts';

type BookStatus = (typeof BOOK_STATUSES)[number];
import { BookStatusBadge } from '@/components/BookStatusBadge';
import { PaceSummary } from '@/components/pace';
import { LazyBookGoalDialog } from '@/components/pace/lazyGoalDialog';
import type { BookPace } from '@/lib/usePace';
import { toast } from '@/lib/toast';
import { RESTRUCTURE_COPY, useRestructure, withUndoToast } from '@/lib/restructure';
import { useSeriesRole } from '@/lib/useSeriesRole';
import { useMutators } from '@/lib/sync';
import { useChapters } from '../hooks/useSeriesData';
import { AddChapterDialog } from './AddChapterDialog';
import { ChapterList } from './ChapterList';
import { ChapterOutline } from './ChapterOutline';
import { type ChapterView, useChapterView } from '../hooks/useChapterView';
import { ProgressLine } from './ProgressLine';

const STATUS_OPTIONS = BOOK_STATUSES.map((value) => ({ value, label: BOOK_STATUS_LABELS[value] }));

interface Draft {
  title: string;
  description: string;
  status: BookStatus;
}

/**
 * A book (001 §2): view mode and inline edit mode (Save, or Cancel which restores the original
 * values), status, progress (completed chapters), the chapter list (about 7rem, scrollable,
 * reorderable) or their outline (synopses; the view remembered on this device) with 'Add Chapter',
 * and delete with confirmation.
 */
export interface BookCardProps {
  book: Book;
  /** The book's words and projection (undefined while read). */
  pace?: BookPace;
  /** Whether the author owns the series (their plan governs it). */
  owned?: boolean;
  /** Whether the plan shows pace predictions (docs/decisions/0018-pace-predictions.md). */
  showPace?: boolean;
}

export function BookCard({ book, pace, owned = true, showPace = false }: BookCardProps) {
  const mutators = useMutators();
  const restructure = useRestructure();
  const { canEdit } = useSeriesRole(book.seriesId);
  const chapters = useChapters(book.id);
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [adding, setAdding] = useState(false);
  const [settingGoal, setSettingGoal] = useState(false);
  const [chapterView, setChapterView] = useChapterView();
  const [sharing, setSharing] = useState(false);
  // Drawn again only when the book's own title or length changes (the dialog redraws on a new card).
  const shareCard = useMemo(() => bookCompletedCard(book.title, book.wordCount), [book.title, book.wordCount]);
  const progress = bookProgress(chapters ?? []);
  const label = `Book ${book.position}`;

  const startEdit = () => {
    setDraft({ title: book.title, description: book.description, status: book.status });
    setTitleError(null);
  };
  const cancelEdit = () => {
    setDraft(null);
    setTitleError(null);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    if (draft.title.trim() === '') {
      setTitleError(MESSAGES.book.titleRequired);
      return;
    }
    setSaving(true);
    try {
      await mutators.books.update(book.id, { title: draft.title.trim(), description: draft.description.trim(), status: draft.status });
      toast.show(TOASTS.bookUpdated);
      setDraft(null);
      // Finishing a book is a milestone: offer its share card.
      if (draft.status === 'completed' && book.status !== 'completed') setSharing(true);
    } catch (error) {
      toast.show(withError(TOASTS.bookUpdateFailed, error));
    } finally {
      setSaving(false);
    }
  };

  // Into the series' Trash, with its chapters (docs/decisions/0014-trash-and-restructure.md): undone
  // from the toast, restored from the Trash, deleted for good only there.
  const remove = () => withUndoToast(() => restructure.trashBook(book.id), { title: TOASTS.bookDeleted.title, message: RESTRUCTURE_COPY.bookTrashed.message });

  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={`${label}: ${book.title}`} data-testid="book-card">
      {draft ? (
        <form onSubmit={save} noValidate aria-label={`Edit ${book.title}`}>
          <Stack gap="sm">
            <Text size="xs" c="dimmed" fw={600} tt="uppercase">
              {label}
            </Text>
            <TextInput
              label="Title"
              required
              value={draft.title}
              error={titleError}
              onChange={(e) => {
                const title = e.currentTarget.value;
                setDraft((d) => (d ? { ...d, title } : d));
                if (titleError && title.trim() !== '') setTitleError(null);
              }}
              data-autofocus
              autoFocus
            />
            <Textarea
              label="Description"
              autosize
              minRows={2}
              maxRows={6}
              value={draft.description}
              onChange={(e) => {
                const description = e.currentTarget.value;
                setDraft((d) => (d ? { ...d, description } : d));
              }}
            />
            <Select
              label="Status"
              data={STATUS_OPTIONS}
              value={draft.status}
              allowDeselect={false}
              onChange={(value) => value && setDraft((d) => (d ? { ...d, status: value as BookStatus } : d))}
              comboboxProps={{ withinPortal: true }}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={cancelEdit} disabled={saving}>
                Cancel
              </Button>
              <Button type="submit" loading={saving}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between" align="center" wrap="nowrap" gap="xs">
            <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
              <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ flex: 'none' }}>
                {label}
              </Text>
              <BookStatusBadge status={book.status} style={{ flex: 'none' }} />
            </Group>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${book.title}`}>
                  <IconDots size={18} aria-hidden />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconPencil size={14} aria-hidden />} onClick={startEdit}>
                  Edit
                </Menu.Item>
                <Menu.Item leftSection={<IconTarget size={14} aria-hidden />} onClick={() => setSettingGoal(true)} disabled={!canEdit}>
                  Goal
                </Menu.Item>
                {book.status === 'completed' ? (
                  <Menu.Item leftSection={<IconShare size={14} aria-hidden />} onClick={() => setSharing(true)}>
                    Share milestone
                  </Menu.Item>
                ) : null}
                <Menu.Item color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => void remove()} disabled={!canEdit}>
                  Delete
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
          <Text fw={700} size="lg" lineClamp={2} component="h3" m={0} mt={-6}>
            {book.title}
          </Text>
          {book.description ? (
            <Text size="sm" c="dimmed" lineClamp={3}>
              {book.description}
            </Text>
          ) : null}
          <div>
            <ProgressLine title={book.title} percent={progress} />
          </div>
          {showPace && pace?.projection ? <PaceSummary projection={pace.projection} compact /> : null}
        </Stack>
      )}

      <Group justify="space-between" mt="md" mb={6} gap="xs">
        <Text size="sm" fw={600}>
          Chapters{chapters ? ` (${chapters.length})` : ''}
        </Text>
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            aria-label={`Show the chapters of ${book.title} as`}
            value={chapterView}
            onChange={(v) => setChapterView(v as ChapterView)}
            data={[
              { value: 'list', label: 'List' },
              { value: 'outline', label: 'Outline' },
            ]}
          />
          <Button size="compact-sm" variant="light" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setAdding(true)}>
            Add Chapter
          </Button>
        </Group>
      </Group>
      {/* Up to about 7rem and scrollable on a large screen (001 §2); as tall as its chapters on a phone,
          where a box scrolling inside the page scroll is hard to use. No blank space either way. */}
      <ScrollArea.Autosize mah={phone ? undefined : chapterView === 'outline' ? '24rem' : '7rem'} type="auto" offsetScrollbars data-testid="chapter-scroll">
        {chapters === undefined ? (
          <Stack gap={6}>
            <Skeleton height={28} />
            <Skeleton height={28} />
          </Stack>
        ) : chapters.length === 0 ? (
          <Text size="sm" c="dimmed" py="xs">
            No chapters yet. Add the first one to start writing.
          </Text>
        ) : (
          chapterView === 'outline' ? (
            <ChapterOutline bookId={book.id} seriesId={book.seriesId} chapters={chapters} />
          ) : (
            <ChapterList bookId={book.id} seriesId={book.seriesId} chapters={chapters} />
          )
        )}
      </ScrollArea.Autosize>

      {settingGoal ? (
        <Suspense fallback={null}>
          <LazyBookGoalDialog book={book} words={pace?.words ?? 0} owned={owned} onClose={() => setSettingGoal(false)} />
        </Suspense>
      ) : null}
      <AddChapterDialog book={adding ? book : null} chapterCount={chapters?.length ?? 0} onClose={() => setAdding(false)} />
      <OpenedOnce opened={sharing}>
        {(opened) => <ShareCardDialog opened={opened} content={shareCard} onClose={() => setSharing(false)} />}
      </OpenedOnce>
    </Card>
  );
}

/** A finished book's share card: its title and length, never a word of its text. */
function bookCompletedCard(title: string, wordCount: number): ShareCardContent {
  return {
    kicker: 'Book completed',
    figure: `${wordCount.toLocaleString('en-US')} ${wordCount === 1 ? 'word' : 'words'}`,
    title,
    footer: `Finished on ${new Date().toLocaleDateString('en-US', { dateStyle: 'long' })}`,
  };
}

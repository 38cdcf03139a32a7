import { Checkbox, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { type Book, type Chapter, byPosition } from '@chronicler/schema';

interface IncludedPreviewProps {
  what: 'manuscript' | 'bible';
  allBooks: readonly Book[];
  chapters: readonly Chapter[];
  /** Chosen book ids; null means every book. */
  chosen: string[] | null;
  disabled: boolean;
  onChoose: (bookIds: string[] | null) => void;
}

const words = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'word' : 'words'}`;

/** Which books go in, and the chapters each holds, in the order they will be written. */
export function IncludedPreview({ what, allBooks, chapters, chosen, disabled, onChoose }: IncludedPreviewProps) {
  if (what === 'bible') {
    return (
      <Stack gap="xs">
        <Text fw={600}>What will be included</Text>
        <Text size="sm" c="dimmed">Every character, relationship, place and timeline event of the series, as they are on this device.</Text>
      </Stack>
    );
  }
  const books = [...allBooks].sort(byPosition);
  const isChosen = (id: string) => chosen === null || chosen.includes(id);
  const toggle = (id: string, on: boolean) => {
    const next = books.filter((b) => (b.id === id ? on : isChosen(b.id))).map((b) => b.id);
    onChoose(next.length === books.length ? null : next);
  };
  const included = chapters.filter((c) => isChosen(c.bookId));
  const total = included.reduce((n, c) => n + c.wordCount, 0);
  return (
    <Stack gap="sm">
      <Text fw={600}>What will be included</Text>
      {books.length === 0 ? <Text size="sm" c="dimmed">This series has no books yet.</Text> : null}
      <ScrollArea.Autosize mah={420}>
        <Stack gap="sm">
          {books.map((book) => {
            const own = chapters.filter((c) => c.bookId === book.id).sort(byPosition);
            return (
              <Stack key={book.id} gap={4}>
                <Checkbox
                  label={`${book.title} — ${own.length} ${own.length === 1 ? 'chapter' : 'chapters'}`}
                  checked={isChosen(book.id)}
                  disabled={disabled}
                  onChange={(e) => toggle(book.id, e.currentTarget.checked)}
                />
                {isChosen(book.id) ? (
                  <Stack gap={0} pl={34}>
                    {own.map((c) => (
                      <Group key={c.id} justify="space-between" gap="xs" wrap="nowrap">
                        <Text size="sm" truncate>{c.title}</Text>
                        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{words(c.wordCount)}</Text>
                      </Group>
                    ))}
                  </Stack>
                ) : null}
              </Stack>
            );
          })}
        </Stack>
      </ScrollArea.Autosize>
      <Text size="sm" c="dimmed" data-testid="export-summary">
        {included.length} {included.length === 1 ? 'chapter' : 'chapters'}, {words(total)}
      </Text>
    </Stack>
  );
}

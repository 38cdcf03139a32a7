import './styles';
/**
 * /series/{id}/import (beyond the spec; docs/web.md#exports-and-imports): a DOCX or Markdown
 * manuscript split into chapters by its headings, previewed with what it leaves out, then written into a new book or after
 * the chapters of an existing one — through the mutators, so it works offline and syncs later like
 * any edit. Or a whole Scrivener project (scrivener/ScrivenerImport.tsx).
 */
import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { Alert, Anchor, Button, Group, Paper, Progress, ScrollArea, SegmentedControl, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowLeft, IconFileImport } from '@tabler/icons-react';
import { type ImportedManuscript, type LeftOut, LIMITS, byPosition, chapterWordCount, describeLeftOut } from '@chronicler/schema';
import { booksOfSeries, getSeries } from '@chronicler/sync-client';
import { FeatureGate } from '@/components/FeatureGate';
import { PageHeader } from '@/components/PageHeader';
import { useDb, useMutators } from '@/lib/sync';
import { toast } from '@/lib/toast';
import { IMPORT_ACCEPT, readManuscript, suggestedTitle } from './model/read-manuscript';
import { ScrivenerImport } from './scrivener/ScrivenerImport';

type Target = 'new' | 'existing';
type Source = 'file' | 'scrivener';

export function ImportScreen({ seriesId }: { seriesId: string }) {
  const db = useDb();
  const mutators = useMutators();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const source = useLiveQuery(async () => {
    const series = await getSeries(db, seriesId);
    if (!series || series.deletedAt) return null;
    return { series, books: (await booksOfSeries(db, seriesId)).filter((b) => !b.deletedAt).sort(byPosition) };
  }, [db, seriesId]);
  const [file, setFile] = useState<{ name: string; manuscript: ImportedManuscript; leftOut: LeftOut } | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [target, setTarget] = useState<Target>('new');
  const [title, setTitle] = useState('');
  const [bookId, setBookId] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [sourceKind, setSourceKind] = useState<Source>('file');

  if (source === undefined) return <Skeleton height={240} radius="md" aria-label="Loading import" />;
  if (source === null) {
    return (
      <>
        <PageHeader title="Import manuscript" />
        <Alert color="gray" title="Series not found">This series does not exist on this device, or it was deleted.</Alert>
      </>
    );
  }
  const { series, books } = source;

  async function choose(chosen: File) {
    setReadError(null);
    setFile(null);
    setReading(true);
    try {
      const { manuscript, leftOut } = await readManuscript(chosen);
      setFile({ name: chosen.name, manuscript, leftOut });
      setTitle(suggestedTitle(manuscript, chosen.name).slice(0, LIMITS.title));
    } catch (error) {
      setReadError(error instanceof Error ? error.message : String(error));
    } finally {
      setReading(false);
      if (input.current) input.current.value = '';
    }
  }

  async function run() {
    if (!file) return;
    const chapters = file.manuscript.chapters;
    setProgress(0);
    try {
      let intoId = bookId;
      let intoTitle = books.find((b) => b.id === bookId)?.title ?? '';
      if (target === 'new') {
        const book = await mutators.books.create({ seriesId, title: title.trim() });
        intoId = book.id;
        intoTitle = book.title;
      }
      for (const [i, chapter] of chapters.entries()) {
        // An import is not writing: its words never count in the statistics (sync-client writing.ts).
        await mutators.chapters.create({ bookId: intoId!, title: chapter.title, content: chapter.content, status: 'draft', writing: { kind: 'import' } });
        setProgress((i + 1) / chapters.length);
      }
      toast.show({ title: 'Manuscript imported', message: `${chapters.length} ${chapters.length === 1 ? 'chapter' : 'chapters'} added to “${intoTitle}”.`, variant: 'default' });
      void navigate(`/series/${seriesId}`);
    } catch (error) {
      toast.show({ title: 'Import failed', message: error instanceof Error ? error.message : 'The manuscript could not be imported', variant: 'destructive' });
    } finally {
      setProgress(null);
    }
  }

  const running = progress !== null;
  // Said before anything is written: an import never leaves something out silently.
  const leftOutNotice = file ? describeLeftOut(file.leftOut) : null;
  const ready = file !== null && (target === 'new' ? title.trim() !== '' : bookId !== null);
  const importButton = (
    <Button leftSection={<IconFileImport size={16} aria-hidden />} onClick={() => void run()} disabled={!ready} loading={running}>
      Import {file ? `${file.manuscript.chapters.length} ${file.manuscript.chapters.length === 1 ? 'chapter' : 'chapters'}` : ''}
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Import manuscript"
        subtitle={series.title}
        actions={
          <Anchor component={Link} to={`/series/${seriesId}`} size="sm">
            <Group gap={4} component="span">
              <IconArrowLeft size={14} aria-hidden />
              Back to series
            </Group>
          </Anchor>
        }
      />
      <Stack gap="lg" maw={820}>
        <SegmentedControl
          aria-label="Import from"
          value={sourceKind}
          onChange={(v) => setSourceKind(v as Source)}
          data={[{ value: 'file', label: 'A manuscript file' }, { value: 'scrivener', label: 'A Scrivener project' }]}
          disabled={running || reading}
          maw={420}
        />
        {sourceKind === 'scrivener' ? <ScrivenerImport seriesId={seriesId} /> : null}
        {sourceKind === 'file' ? (
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm" align="flex-start">
            <Text size="sm" c="dimmed">
              Choose a Word document (.docx) or a Markdown file (.md). It is split into chapters at its headings; nothing leaves this device until it syncs.
            </Text>
            <input ref={input} type="file" accept={IMPORT_ACCEPT} hidden data-testid="import-file" aria-label="Manuscript file" onChange={(e) => {
              const chosen = e.currentTarget.files?.[0];
              if (chosen) void choose(chosen);
            }} />
            <Button variant="default" loading={reading} disabled={running} onClick={() => input.current?.click()}>
              Choose a file…
            </Button>
            {readError ? <Alert color="red" variant="light" title="Could not read the file" role="alert">{readError}</Alert> : null}
          </Stack>
        </Paper>
        ) : null}
        {sourceKind === 'file' && file ? (
          <Paper withBorder radius="md" p="md">
            <Stack gap="md">
              <Text fw={600}>{file.name}: {file.manuscript.chapters.length} {file.manuscript.chapters.length === 1 ? 'chapter' : 'chapters'}</Text>
              <ScrollArea.Autosize mah={320}>
                <Stack gap={2} data-testid="import-preview">
                  {file.manuscript.chapters.map((c, i) => (
                    <Group key={i} justify="space-between" wrap="nowrap">
                      <Text size="sm" truncate>{c.title}</Text>
                      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{chapterWordCount(c.content).toLocaleString('en-US')} words</Text>
                    </Group>
                  ))}
                </Stack>
              </ScrollArea.Autosize>
              {leftOutNotice ? (
                <Alert color="yellow" variant="light" title="Not everything in this file can be imported" data-testid="import-left-out">
                  {leftOutNotice}. The text, with its italic and bold, is imported.
                </Alert>
              ) : null}
              <SegmentedControl
                aria-label="Import into"
                value={target}
                onChange={(v) => setTarget(v as Target)}
                data={[{ value: 'new', label: 'A new book' }, { value: 'existing', label: 'An existing book', disabled: books.length === 0 }]}
                disabled={running}
                maw={360}
              />
              {target === 'new' ? (
                <TextInput label="Book title" value={title} maxLength={LIMITS.title} onChange={(e) => setTitle(e.currentTarget.value)} disabled={running} required />
              ) : (
                <Select
                  label="Book"
                  description="The chapters are added after the book's own."
                  data={books.map((b) => ({ value: b.id, label: b.title }))}
                  value={bookId}
                  onChange={setBookId}
                  disabled={running}
                  allowDeselect={false}
                />
              )}
              {running ? <Progress value={Math.round((progress ?? 0) * 100)} aria-label="Import progress" /> : null}
              {target === 'new' ? (
                <FeatureGate limit="booksPerSeries" count={books.length}>{importButton}</FeatureGate>
              ) : (
                importButton
              )}
            </Stack>
          </Paper>
        ) : null}
      </Stack>
    </>
  );
}

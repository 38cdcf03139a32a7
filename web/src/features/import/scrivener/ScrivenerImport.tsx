/**
 * The Scrivener side of the import screen (docs/web.md#exports-and-imports): the author picks a
 * project folder or a .zip of it; the worker reads it; the preview shows the books and chapters it
 * will make with their word counts, the author's choices (a chapter per text or per folder, the
 * Draft's top-level folders as books, characters and places), and everything left out with its
 * reason; then it is written through the mutators, and can be undone as one step until edited.
 */
import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { Alert, Anchor, Button, Checkbox, Group, List, Paper, Progress, ScrollArea, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import { IconFileImport, IconFolderOpen, IconFileZip } from '@tabler/icons-react';
import type { LimitName } from '@chronicler/schema';
import { booksOfSeries, charactersOfSeries, locationsOfSeries } from '@chronicler/sync-client';
import { useDb, useMutators } from '@/lib/sync';
import { useSession } from '@/lib/session';
import { planLimitState } from '@/lib/limits';
import { toast } from '@/lib/toast';
import { type ChapterUnit, otherTopLevel, planImport } from './plan';
import type { ScrivenerProject } from './project';
import { readScrivenerProject } from './read';
import type { PickedFile } from './source';
import { forgetImport, lastImport, rememberImport } from './last-import';
import { type ImportRecord, plannedCounts, undoImport, writeImport } from './write';

const words = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'word' : 'words'}`;
const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The directory picker's attributes, which React's input typings do not name. */
const DIRECTORY_PICKER = { webkitdirectory: '', directory: '' } as Record<string, string>;

export function ScrivenerImport({ seriesId }: { seriesId: string }) {
  const db = useDb();
  const mutators = useMutators();
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  const folderInput = useRef<HTMLInputElement>(null);
  const zipInput = useRef<HTMLInputElement>(null);
  const existing = useLiveQuery(async () => {
    const live = <T extends { deletedAt: string | null }>(rows: T[]) => rows.filter((r) => !r.deletedAt).length;
    return {
      books: live(await booksOfSeries(db, seriesId)),
      characters: live(await charactersOfSeries(db, seriesId)),
      locations: live(await locationsOfSeries(db, seriesId)),
    };
  }, [db, seriesId]);
  const [project, setProject] = useState<ScrivenerProject | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [reading, setReading] = useState<number | null>(null);
  const [unit, setUnit] = useState<ChapterUnit>('text');
  const [foldersAsBooks, setFoldersAsBooks] = useState(true);
  const [withCharacters, setWithCharacters] = useState(true);
  const [withLocations, setWithLocations] = useState(true);
  const [extraBooks, setExtraBooks] = useState<string[]>([]);
  const [writing, setWriting] = useState<number | null>(null);
  const [record, setRecord] = useState<ImportRecord | null>(() => lastImport(seriesId));
  const [justImported, setJustImported] = useState(false);
  const [undoing, setUndoing] = useState(false);
  const readAbort = useRef<AbortController | null>(null);

  const importPlan = useMemo(() => (project ? planImport(project, { unit, foldersAsBooks, extraBooks }) : null), [project, unit, foldersAsBooks, extraBooks]);
  const others = useMemo(() => (project ? otherTopLevel(project) : []), [project]);
  const choices = { characters: withCharacters && (importPlan?.characters.length ?? 0) > 0, locations: withLocations && (importPlan?.locations.length ?? 0) > 0 };
  const counts = importPlan ? plannedCounts(importPlan, choices) : null;

  // Plan limits, checked before anything is written (the server refuses past them too).
  const overLimit = (() => {
    if (!counts || !existing) return null;
    const checks: [LimitName, number, number][] = [
      ['booksPerSeries', existing.books, counts.books],
      ['charactersPerSeries', existing.characters, counts.characters],
      ['locationsPerSeries', existing.locations, counts.locations],
    ];
    for (const [name, have, adding] of checks) {
      if (adding === 0) continue;
      const { limit } = planLimitState(plan, name, have);
      if (limit !== null && have + adding > limit) return `This import adds ${adding.toLocaleString('en-US')} to the ${have.toLocaleString('en-US')} the series has. ${planLimitState(plan, name, limit).message}`;
    }
    return null;
  })();

  async function read(request: { kind: 'folder'; files: PickedFile[] } | { kind: 'zip'; file: Blob }) {
    setReadError(null);
    setProject(null);
    setExtraBooks([]);
    setJustImported(false);
    setReading(0);
    const abort = new AbortController();
    readAbort.current = abort;
    try {
      setProject(await readScrivenerProject(request, (fraction) => setReading(fraction), abort.signal));
    } catch (error) {
      if (!abort.signal.aborted) setReadError(error instanceof Error ? error.message : String(error));
    } finally {
      readAbort.current = null;
      setReading(null);
      if (folderInput.current) folderInput.current.value = '';
      if (zipInput.current) zipInput.current.value = '';
    }
  }

  async function run() {
    if (!project || !importPlan) return;
    setWriting(0);
    try {
      const made = await writeImport(mutators, seriesId, project.name, importPlan, choices, (fraction) => setWriting(fraction));
      rememberImport(made);
      setRecord(made);
      setJustImported(true);
      setProject(null);
      toast.show({ title: 'Scrivener project imported', message: `${count(made.books.length, 'book', 'books')} and ${count(made.chapters.length, 'chapter', 'chapters')} added from “${project.name}”.`, variant: 'default' });
    } catch (error) {
      toast.show({ title: 'Import failed', message: error instanceof Error ? error.message : 'The project could not be imported. Nothing was kept.', variant: 'destructive' });
    } finally {
      setWriting(null);
    }
  }

  async function undo() {
    if (!record) return;
    setUndoing(true);
    try {
      const result = await undoImport(db, mutators, record);
      forgetImport(seriesId);
      setRecord(null);
      setJustImported(false);
      if (result === 'undone') toast.show({ title: 'Import undone', message: `What was imported from “${record.projectName}” was removed.`, variant: 'default' });
      else toast.show({ title: 'Cannot undo the import', message: 'You have edited what it made since, so it stays. Delete the books yourself if you no longer want them.', variant: 'destructive' });
    } catch (error) {
      toast.show({ title: 'Undo failed', message: error instanceof Error ? error.message : 'The import could not be undone', variant: 'destructive' });
    } finally {
      setUndoing(false);
    }
  }

  const busy = reading !== null || writing !== null || undoing;

  return (
    <Stack gap="lg">
      {record ? (
        <Alert color={justImported ? 'green' : 'gray'} variant="light" title={justImported ? 'Imported' : 'Last Scrivener import'} data-testid="scrivener-imported">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {count(record.books.length, 'book', 'books')}, {count(record.chapters.length, 'chapter', 'chapters')}
              {record.characters.length ? `, ${count(record.characters.length, 'character', 'characters')}` : ''}
              {record.locations.length ? `, ${count(record.locations.length, 'location', 'locations')}` : ''} from “{record.projectName}”. You can undo the import as one step until you edit what it made.
            </Text>
            <Group gap="sm">
              <Button size="xs" component={Link} to={`/series/${seriesId}`} variant="default">
                Open the series
              </Button>
              <Button size="xs" variant="subtle" color="red" onClick={() => void undo()} loading={undoing} disabled={busy && !undoing}>
                Undo import
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm" align="flex-start">
          <Text size="sm" c="dimmed">
            Choose a Scrivener 3 project’s folder (the .scriv, from macOS or Windows) or a .zip of it. It is read on this device; you see what it makes before anything is written.
          </Text>
          <input ref={folderInput} type="file" multiple hidden {...DIRECTORY_PICKER} data-testid="scrivener-folder" aria-label="Scrivener project folder" onChange={(e) => {
            const files = Array.from(e.currentTarget.files ?? []);
            if (files.length) void read({ kind: 'folder', files: files.map((file) => ({ path: file.webkitRelativePath || file.name, file })) });
          }} />
          <input ref={zipInput} type="file" accept=".zip,application/zip" hidden data-testid="scrivener-zip" aria-label="Scrivener project .zip" onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            if (file) void read({ kind: 'zip', file });
          }} />
          <Group gap="sm">
            <Button variant="default" leftSection={<IconFolderOpen size={16} aria-hidden />} disabled={busy} onClick={() => folderInput.current?.click()}>
              Choose the project folder…
            </Button>
            <Button variant="default" leftSection={<IconFileZip size={16} aria-hidden />} disabled={busy} onClick={() => zipInput.current?.click()}>
              Choose a .zip…
            </Button>
          </Group>
          {reading !== null ? (
            <Group w="100%" wrap="nowrap">
              <Progress style={{ flex: 1 }} value={Math.round(reading * 100)} aria-label="Reading the project" animated />
              <Anchor component="button" type="button" size="sm" onClick={() => readAbort.current?.abort()}>
                Stop
              </Anchor>
            </Group>
          ) : null}
          {readError ? <Alert color="red" variant="light" title="Could not read the project" role="alert">{readError} Nothing was imported.</Alert> : null}
        </Stack>
      </Paper>
      {project && importPlan && counts ? (
        <Paper withBorder radius="md" p="md">
          <Stack gap="md">
            <Text fw={600}>
              {project.name}: {count(counts.books, 'book', 'books')}, {count(counts.chapters, 'chapter', 'chapters')}
            </Text>
            <SegmentedControl
              aria-label="Chapters"
              value={unit}
              onChange={(v) => setUnit(v as ChapterUnit)}
              data={[{ value: 'text', label: 'A chapter per text' }, { value: 'folder', label: 'A chapter per folder' }]}
              disabled={busy}
              maw={420}
            />
            <Text size="xs" c="dimmed" mt={-8}>
              {unit === 'text' ? 'Each text in the binder becomes a chapter, in binder order; a folder with words of its own does too.' : 'The texts of each folder become the scenes of one chapter, joined by scene breaks.'}
            </Text>
            <Switch label="Each top-level folder of the Draft is a book" checked={foldersAsBooks} onChange={(e) => setFoldersAsBooks(e.currentTarget.checked)} disabled={busy} />
            {others.length ? (
              <Checkbox.Group
                label="Also import as books"
                description="Top-level folders outside the Draft: other volumes, old drafts, front matter."
                value={extraBooks}
                onChange={setExtraBooks}
              >
                <Stack gap={4} mt={6}>
                  {others.map((o) => (
                    <Checkbox key={o.uuid} value={o.uuid} label={`${o.title} (${count(o.items, 'item', 'items')})`} disabled={busy} />
                  ))}
                </Stack>
              </Checkbox.Group>
            ) : null}
            <ScrollArea.Autosize mah={360}>
              <Stack gap="sm" data-testid="scrivener-preview">
                {importPlan.books.length === 0 ? <Text size="sm" c="dimmed">The Draft holds no texts to import.</Text> : null}
                {importPlan.books.map((book, b) => (
                  <Stack key={b} gap={2}>
                    <Group justify="space-between" wrap="nowrap">
                      <Text size="sm" fw={600} truncate>{book.title}</Text>
                      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{words(book.words)}</Text>
                    </Group>
                    {book.chapters.map((c, i) => (
                      <Group key={i} justify="space-between" wrap="nowrap" pl="md">
                        <Text size="sm" truncate>{c.title}</Text>
                        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{words(c.words)}</Text>
                      </Group>
                    ))}
                  </Stack>
                ))}
              </Stack>
            </ScrollArea.Autosize>
            {importPlan.characters.length ? (
              <Checkbox label={`Add ${count(importPlan.characters.length, 'character', 'characters')} from “Characters” (${importPlan.characters.map((c) => c.name).slice(0, 5).join(', ')}${importPlan.characters.length > 5 ? ', …' : ''})`} checked={withCharacters} onChange={(e) => setWithCharacters(e.currentTarget.checked)} disabled={busy} />
            ) : null}
            {importPlan.locations.length ? (
              <Checkbox label={`Add ${count(importPlan.locations.length, 'location', 'locations')} from “Places” (${importPlan.locations.map((c) => c.name).slice(0, 5).join(', ')}${importPlan.locations.length > 5 ? ', …' : ''})`} checked={withLocations} onChange={(e) => setWithLocations(e.currentTarget.checked)} disabled={busy} />
            ) : null}
            {importPlan.leftOut.length ? (
              <Alert color="yellow" variant="light" title={`Left out (${importPlan.leftOut.length})`} data-testid="scrivener-left-out">
                <ScrollArea.Autosize mah={200}>
                  <List size="sm" spacing={2}>
                    {importPlan.leftOut.map((line, i) => (
                      <List.Item key={i}>
                        <b>{line.item}</b>: {line.reason}
                      </List.Item>
                    ))}
                  </List>
                </ScrollArea.Autosize>
              </Alert>
            ) : null}
            {overLimit ? <Alert color="orange" variant="light" role="alert" title="Over your plan’s limit">{overLimit}</Alert> : null}
            {writing !== null ? <Progress value={Math.round(writing * 100)} aria-label="Import progress" /> : null}
            <Group>
              <Button leftSection={<IconFileImport size={16} aria-hidden />} onClick={() => void run()} disabled={busy || counts.books === 0 || overLimit !== null} loading={writing !== null}>
                Import {count(counts.books, 'book', 'books')}
              </Button>
              <Anchor component="button" type="button" size="sm" onClick={() => setProject(null)} disabled={busy}>
                Cancel
              </Anchor>
            </Group>
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
}

/**
 * The Writer's Toolkit (a premium product), for owners (entitlements on this device, so it works
 * offline): plot-structure templates that lay out a book of the current series as chapters with
 * beat notes, and character and world worksheets whose guided answers fill in a new character's or
 * location's fields. Everything is written through the mutators and syncs like any edit.
 */
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/List.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, Group, List, NativeSelect, Paper, SimpleGrid, Stack, Tabs, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { useLiveQuery } from 'dexie-react-hooks';
import { type Book, CHARACTER_ROLES, LOCATION_IMPORTANCE, LOCATION_TYPES } from '@chronicler/schema';
import { booksOfSeries } from '@chronicler/sync-client';
import { EmptyPanel } from '@/components/EmptyPanel';
import { PageHeader } from '@/components/PageHeader';
import { chapterEditorPath } from '@/lib/chapterEditorPath';
import { useCurrentSeries } from '@/lib/useCurrentSeries';
import { useOwnsProduct } from '@/lib/useOwnedProducts';
import { useSync } from '@/lib/sync';
import { toast } from '@/lib/toast';
import {
  CHARACTER_QUESTIONS,
  type CharacterWorksheet,
  PLOT_TEMPLATES,
  WORLD_QUESTIONS,
  type WorldWorksheet,
  characterFromWorksheet,
  layOutBook,
  locationFromWorksheet,
} from './templates';

const NO_BOOKS: Book[] = [];
const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, ' ');
const failed = (title: string, error: unknown) => toast.error({ title, message: error instanceof Error ? error.message : undefined });

function PlotStructures({ seriesId, currentBook }: { seriesId: string; currentBook: number }) {
  const { db, mutators } = useSync();
  const navigate = useNavigate();
  const books = useLiveQuery(() => booksOfSeries(db, seriesId), [db, seriesId], NO_BOOKS);
  const [templateId, setTemplateId] = useState(PLOT_TEMPLATES[0]!.id);
  const [bookId, setBookId] = useState('');
  const [busy, setBusy] = useState(false);
  const template = PLOT_TEMPLATES.find((t) => t.id === templateId)!;
  useEffect(() => {
    if (books.length > 0 && !books.some((b) => b.id === bookId)) setBookId((books.find((b) => b.position === currentBook) ?? books[0]!).id);
  }, [books, bookId, currentBook]);

  const layOut = async () => {
    setBusy(true);
    try {
      const chapters = await layOutBook(mutators, bookId, template);
      toast.success({ title: 'Chapters laid out', message: `${chapters.length} chapters with beat notes were added.` });
      if (chapters[0]) void navigate(chapterEditorPath(chapters[0]));
    } catch (error) {
      failed('Chapters not added', error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NativeSelect label="Structure" value={templateId} onChange={(e) => setTemplateId(e.currentTarget.value)} data={PLOT_TEMPLATES.map((t) => ({ value: t.id, label: t.name }))} />
        {books.length > 0 ? (
          <NativeSelect label="Book" value={bookId} onChange={(e) => setBookId(e.currentTarget.value)} data={books.map((b) => ({ value: b.id, label: `Book ${b.position}: ${b.title}` }))} />
        ) : (
          <Text size="sm" mt="lg">
            This series has no book yet: <Link to={`/series/${seriesId}`}>add one</Link>.
          </Text>
        )}
      </SimpleGrid>
      <Paper withBorder radius="lg" p="md">
        <Text fw={600}>{template.name}</Text>
        <Text size="sm" c="dimmed" mb="sm">
          {template.summary}
        </Text>
        <List type="ordered" spacing={6} size="sm" aria-label={`${template.name} beats`}>
          {template.beats.map((beat) => (
            <List.Item key={beat.title}>
              <Text span fw={600}>
                {beat.title}
              </Text>{' '}
              — {beat.note}
            </List.Item>
          ))}
        </List>
      </Paper>
      <Group justify="flex-end">
        <Button onClick={() => void layOut()} loading={busy} disabled={!bookId}>
          Lay out {template.beats.length} chapters
        </Button>
      </Group>
    </Stack>
  );
}

function CharacterSheet({ seriesId }: { seriesId: string }) {
  const { mutators } = useSync();
  const empty: CharacterWorksheet = { name: '', role: 'supporting', age: '', occupation: '', appearance: '', personality: '', goals: '', backstory: '', description: '' };
  const [sheet, setSheet] = useState(empty);
  const [error, setError] = useState<string | null>(null);
  const set = (key: keyof CharacterWorksheet) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setSheet((s) => ({ ...s, [key]: value }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sheet.name.trim() === '') return setError('Character name is required');
    setError(null);
    try {
      const made = await mutators.characters.create(characterFromWorksheet(seriesId, sheet));
      toast.success({ title: 'Character created', message: `${made.name} is in your cast.` });
      setSheet(empty);
    } catch (failure) {
      failed('Character not created', failure);
    }
  };
  return (
    <Stack gap="sm" component="form" onSubmit={(e: FormEvent) => void submit(e)} aria-label="Character worksheet">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Name" value={sheet.name} onChange={set('name')} error={error} withAsterisk />
        <NativeSelect label="Role" value={sheet.role} onChange={set('role')} data={CHARACTER_ROLES.map((r) => ({ value: r, label: label(r) }))} />
        <TextInput label="Age" value={sheet.age} onChange={set('age')} />
        <TextInput label="Occupation" value={sheet.occupation} onChange={set('occupation')} />
      </SimpleGrid>
      {CHARACTER_QUESTIONS.map((q) => (
        <Textarea key={q.field} label={q.question} description={q.hint} value={sheet[q.field]} onChange={set(q.field)} autosize minRows={2} />
      ))}
      <Group justify="flex-end">
        <Button type="submit">Create character</Button>
      </Group>
    </Stack>
  );
}

function WorldSheet({ seriesId }: { seriesId: string }) {
  const { mutators } = useSync();
  const empty: WorldWorksheet = { name: '', locationType: 'general', importance: 'secondary' };
  const [sheet, setSheet] = useState<WorldWorksheet>(empty);
  const [error, setError] = useState<string | null>(null);
  const set = (key: string) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setSheet((s) => ({ ...s, [key]: value }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sheet.name.trim() === '') return setError('Location name is required');
    setError(null);
    try {
      const made = await mutators.locations.create(locationFromWorksheet(seriesId, sheet));
      toast.success({ title: 'Location created', message: `${made.name} is on your map.` });
      setSheet(empty);
    } catch (failure) {
      failed('Location not created', failure);
    }
  };
  return (
    <Stack gap="sm" component="form" onSubmit={(e: FormEvent) => void submit(e)} aria-label="World worksheet">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput label="Place name" value={sheet.name} onChange={set('name')} error={error} withAsterisk />
        <NativeSelect label="Kind of place" value={sheet.locationType} onChange={set('locationType')} data={LOCATION_TYPES.map((t) => ({ value: t, label: label(t) }))} />
        <NativeSelect label="Importance" value={sheet.importance} onChange={set('importance')} data={LOCATION_IMPORTANCE.map((t) => ({ value: t, label: label(t) }))} />
      </SimpleGrid>
      {WORLD_QUESTIONS.map((q) => (
        <Textarea key={q.key} label={q.question} value={sheet[q.key] ?? ''} onChange={set(q.key)} autosize minRows={2} />
      ))}
      <Group justify="flex-end">
        <Button type="submit">Create location</Button>
      </Group>
    </Stack>
  );
}

export function ToolkitScreen() {
  const owns = useOwnsProduct('writers-toolkit');
  const { series } = useCurrentSeries();
  const header = <PageHeader title="Writer's Toolkit" subtitle={series ? `Templates and worksheets for ${series.title}` : 'Templates and worksheets for plotting, characters and worlds'} />;
  if (!owns) {
    return (
      <>
        {header}
        <EmptyPanel
          icon={<IconTools size={28} aria-hidden />}
          title="Part of the Writer's Toolkit"
          description="Three-act, hero's journey and seven-point templates that lay out your chapters, and worksheets for characters and places."
          actions={
            <Button component={Link} to="/products">
              See the Writer's Toolkit
            </Button>
          }
        />
      </>
    );
  }
  if (series === undefined) return header;
  if (series === null) {
    return (
      <>
        {header}
        <EmptyPanel icon={<IconTools size={28} aria-hidden />} title="Create a series first" description="The toolkit fills in the books, characters and places of a series." actions={<Button component={Link} to="/series">Go to your series</Button>} />
      </>
    );
  }
  return (
    <>
      {header}
      <Tabs defaultValue="plot" keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="plot">Plot structures</Tabs.Tab>
          <Tabs.Tab value="character">Character worksheet</Tabs.Tab>
          <Tabs.Tab value="world">World worksheet</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="plot">
          <PlotStructures seriesId={series.id} currentBook={series.currentBook} />
        </Tabs.Panel>
        <Tabs.Panel value="character">
          <Title order={2} fz="lg" mb="sm">
            Character worksheet
          </Title>
          <CharacterSheet seriesId={series.id} />
        </Tabs.Panel>
        <Tabs.Panel value="world">
          <Title order={2} fz="lg" mb="sm">
            World worksheet
          </Title>
          <WorldSheet seriesId={series.id} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

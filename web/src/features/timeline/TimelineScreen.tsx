/**
 * The Timeline page (spec 001 §2 "Timeline page", §4, §5, §8): a series selector and 'Add Event';
 * the views Chronological (by date text, undated first), Narrative (grouped by book, drag to
 * reorder within a group) and Character-Based (one character's events, or all); the add/edit
 * event dialog; deletion with confirmation.
 *
 * Reads come live from the local database and writes go through the mutators
 * (docs/architecture.md#the-data-loop), so the page works offline and the sync engine sends the
 * changes. The timeline is a Wordsmith feature (the `timeline` flag of the plan table): below it
 * the page is locked behind the FeatureGate, and the server refuses the writes (403) anyway.
 */
import './styles';
import { useCallback, useMemo, useState } from 'react';
import { Badge, Button, Center, EmptyState, Group, Loader, Paper, Select, Stack, Tabs } from '@mantine/core';
import { IconArrowsSort, IconCalendarTime, IconLock, IconListNumbers, IconPlus, IconTimeline, IconUser } from '@tabler/icons-react';
import {
  MESSAGES,
  hasFeature,
  type TimelineEvent,
} from '@chronicler/schema';
import {
  TIMELINE_TOASTS,
  timelineEventDeleteFailedToast,
  timelineEventSaveFailedToast,
  timelineReorderFailedToast,
} from '@/lib/copy/toasts';
import { FeatureGate } from '@/components/FeatureGate';
import { EmptyPanel, NoSeriesPanel, OfflineNote, SeriesListHeader } from '@/components/SeriesListScreen';
import { useSession } from '@/lib/session';
import { saveChanges, toast, toastOutcome } from '@/lib/toast';
import { useSync } from '@/lib/sync';
import { useSeriesRole } from '@/lib/useSeriesRole';
import { ReadOnlyNotice } from '@/components/ReadOnlyNotice';
import { ConfirmDeleteDialog } from '@/components/ConfirmDeleteDialog';
import { DatedLine } from './components/DatedLine';
import { type EventRefs } from './components/EventCard';
import { EventDialog } from './components/EventDialog';
import { NarrativeView } from './components/NarrativeView';
import { ScreenErrorBoundary } from '@/components/ScreenErrorBoundary';
import { useTimelineData } from './hooks/useTimelineData';
import { createBodyFromForm, updateBodyFromForm, type EventFormValues } from './model/event-form';
import { ALL_CHARACTERS, datesInStoryOrder, filterByCharacter, groupNarrative, nextPosition, sortChronological } from './model/timeline';
import { erasInUse } from './model/chronology';
import { EraOrderDialog } from './components/EraOrderDialog';

type View = 'chronological' | 'narrative' | 'character';
type Dialog = { kind: 'none' } | { kind: 'create' } | { kind: 'edit'; id: string } | { kind: 'delete'; event: TimelineEvent } | { kind: 'eras' };
const NO_ERA_ORDER: readonly string[] = [];

export function TimelineScreen() {
  return (
    <ScreenErrorBoundary title="Your timeline could not be loaded">
      <TimelinePage />
    </ScreenErrorBoundary>
  );
}

function TimelinePage() {
  const { db, mutators } = useSync();
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  const { series, seriesId, selectSeries, current, rows } = useTimelineData(db);
  const locked = !hasFeature(plan, 'timeline');
  // A viewer of a shared series reads its timeline: no adding, editing, deleting or reordering (ReadOnlyNotice says why).
  const { canEdit } = useSeriesRole(seriesId);
  const readOnly = !canEdit;

  const [view, setView] = useState<View>('chronological');
  const [characterChoice, setCharacterChoice] = useState<string | null>(null);
  // A series change resets the chosen character (001 §4; render-time state adjustment).
  const [choiceSeriesId, setChoiceSeriesId] = useState(seriesId);
  if (choiceSeriesId !== seriesId) {
    setChoiceSeriesId(seriesId);
    setCharacterChoice(null);
  }
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const close = useCallback(() => setDialog({ kind: 'none' }), []);

  const books = useMemo(() => rows?.books ?? [], [rows]);
  const characters = useMemo(() => rows?.characters ?? [], [rows]);
  const locations = useMemo(() => rows?.locations ?? [], [rows]);
  const events = useMemo(() => rows?.events ?? [], [rows]);

  const chosenCharacter = choiceSeriesId === seriesId ? characterChoice : null;
  const characterKnown = chosenCharacter === ALL_CHARACTERS || characters.some((c) => c.id === chosenCharacter);
  const characterFilter = chosenCharacter && characterKnown ? chosenCharacter : null;

  // The author's era order (the series' `eraOrder`), then the story's first use of each era.
  const eraOrder = current?.eraOrder ?? NO_ERA_ORDER;
  const chronological = useMemo(() => sortChronological(events, books, eraOrder), [events, books, eraOrder]);
  const eras = useMemo(() => erasInUse(datesInStoryOrder(events, books), eraOrder), [events, books, eraOrder]);
  const groups = useMemo(() => groupNarrative(events, books), [events, books]);
  const forCharacter = useMemo(() => filterByCharacter(chronological, characterFilter), [chronological, characterFilter]);

  const refsOf = useMemo(() => {
    const bookById = new Map(books.map((b) => [b.id, b.title]));
    const characterById = new Map(characters.map((c) => [c.id, c.name]));
    const locationById = new Map(locations.map((l) => [l.id, l.name]));
    const chapterTitles = rows?.chapterTitles ?? new Map<string, string>();
    return (event: TimelineEvent): EventRefs => ({
      book: event.bookId ? (bookById.get(event.bookId) ?? null) : null,
      chapter: event.chapterId ? (chapterTitles.get(event.chapterId) ?? null) : null,
      location: event.locationId ? (locationById.get(event.locationId) ?? null) : null,
      characters: event.characterIds.flatMap((id) => (characterById.has(id) ? [characterById.get(id)!] : [])),
    });
  }, [books, characters, locations, rows]);

  const editing = dialog.kind === 'edit' ? (events.find((e) => e.id === dialog.id) ?? null) : null;

  const openCreate = useCallback(() => setDialog({ kind: 'create' }), []);
  const openEdit = useCallback((e: TimelineEvent) => setDialog({ kind: 'edit', id: e.id }), []);
  const askDelete = useCallback((e: TimelineEvent) => setDialog({ kind: 'delete', event: e }), []);

  const save = async (values: EventFormValues): Promise<boolean> => {
    if (dialog.kind === 'edit') {
      if (!editing) return true;
      return saveChanges(
        updateBodyFromForm(editing, values, nextPosition(events, values.bookId)),
        (body) => mutators.timelineEvents.update(editing.id, body),
        TIMELINE_TOASTS.eventUpdated,
        (error) => timelineEventSaveFailedToast('edit', error),
      );
    }
    if (!seriesId) return false;
    return toastOutcome(
      () => mutators.timelineEvents.create(createBodyFromForm(seriesId, values, nextPosition(events, values.bookId))),
      TIMELINE_TOASTS.eventCreated,
      (error) => timelineEventSaveFailedToast('create', error),
    );
  };

  const remove = async (event: TimelineEvent) => {
    await toastOutcome(() => mutators.timelineEvents.delete(event.id), TIMELINE_TOASTS.eventDeleted, timelineEventDeleteFailedToast);
    close();
  };

  const saveEraOrder = (order: string[]) =>
    seriesId ? toastOutcome(() => mutators.series.update(seriesId, { eraOrder: order }), TIMELINE_TOASTS.eraOrderSaved, TIMELINE_TOASTS.eraOrderFailed) : Promise.resolve(false);

  const reorder = useCallback(
    async (order: { id: string; position: number }[]) => {
      try {
        await mutators.timelineEvents.reorder({ events: order });
        toast.show(TIMELINE_TOASTS.timelineUpdated);
      } catch (error) {
        toast.show(timelineReorderFailedToast(error));
        throw error;
      }
    },
    [mutators],
  );

  const characterOptions = useMemo(
    () => [{ value: ALL_CHARACTERS, label: 'All Characters' }, ...characters.map((c) => ({ value: c.id, label: c.name }))],
    [characters],
  );
  const noSeries = series !== undefined && series.length === 0;
  const loading = series === undefined || (seriesId !== null && rows === undefined);

  let body;
  if (loading) {
    body = (
      <Center mih={240} role="status" aria-label="Loading timeline" data-testid="timeline-loading">
        <Loader type="dots" aria-hidden />
      </Center>
    );
  } else if (noSeries || !seriesId) {
    body = <NoSeriesPanel description="Create a series first, then chart the events of its story here." />;
  } else if (events.length === 0) {
    body = (
      <EmptyPanel
        icon={<IconTimeline size={30} stroke={1.5} />}
        title="No Timeline Events"
        description={`${current?.title ?? 'This series'} has no events yet. Add the first one to start building your timeline.`}
        actions={
          readOnly ? null : (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={openCreate} disabled={locked}>
              Add First Event
            </Button>
          )
        }
      />
    );
  } else {
    body = (
      <Tabs value={view} onChange={(v) => v && setView(v as View)} keepMounted={false} variant="outline" radius="md">
        <Tabs.List>
          <Tabs.Tab value="chronological" leftSection={<IconCalendarTime size={16} aria-hidden />}>
            Chronological
          </Tabs.Tab>
          <Tabs.Tab value="narrative" leftSection={<IconListNumbers size={16} aria-hidden />}>
            Narrative
          </Tabs.Tab>
          <Tabs.Tab value="character" leftSection={<IconUser size={16} aria-hidden />}>
            Character-Based
          </Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="chronological" pt="lg">
          {eras.length > 1 && !readOnly ? (
            <Group justify="flex-end" mb="sm">
              <Button variant="default" size="xs" leftSection={<IconArrowsSort size={14} aria-hidden />} onClick={() => setDialog({ kind: 'eras' })} disabled={locked}>
                Era order
              </Button>
            </Group>
          ) : null}
          <DatedLine events={chronological} refsOf={refsOf} onEdit={openEdit} onDelete={askDelete} label="Events in chronological order" readOnly={readOnly} />
        </Tabs.Panel>

        <Tabs.Panel value="narrative" pt="lg">
          <NarrativeView groups={groups} refsOf={refsOf} onEdit={openEdit} onDelete={askDelete} onReorder={reorder} readOnly={readOnly} />
        </Tabs.Panel>

        <Tabs.Panel value="character" pt="lg">
          <Stack gap="lg">
            <Group gap="sm" align="flex-end">
              <Select
                label="Character"
                placeholder="Select character"
                data={characterOptions}
                value={characterFilter}
                onChange={setCharacterChoice}
                searchable
                w={{ base: '100%', xs: 280 }}
                comboboxProps={{ withinPortal: true }}
                nothingFoundMessage="No character by that name"
              />
              <Badge variant="light" radius="sm" size="lg" mb={4} data-testid="character-event-count">
                {forCharacter.length === 1 ? '1 event' : `${forCharacter.length} events`}
              </Badge>
            </Group>
            {forCharacter.length === 0 ? (
              <Paper withBorder radius="lg" p="lg">
                <EmptyState
                  size="sm"
                  icon={<IconUser size={24} stroke={1.5} />}
                  title="No events for this character"
                  description="Add the character to an event in the event dialog to see it here."
                />
              </Paper>
            ) : (
              <DatedLine events={forCharacter} refsOf={refsOf} onEdit={openEdit} onDelete={askDelete} label="Events of the chosen character" readOnly={readOnly} />
            )}
          </Stack>
        </Tabs.Panel>
      </Tabs>
    );
  }

  return (
    <>
      <SeriesListHeader title="Timeline" subtitle="Chart the chronology of your story" picker={{ series, seriesId, onSelect: selectSeries }}>
        {readOnly ? null : (
          <Button
            leftSection={locked ? <IconLock size={16} aria-hidden /> : <IconPlus size={16} aria-hidden />}
            onClick={openCreate}
            disabled={!seriesId || locked || rows === undefined}
          >
            Add Event
          </Button>
        )}
      </SeriesListHeader>
      <FeatureGate feature="timeline">
        <Stack gap="lg">
          <OfflineNote />
          <ReadOnlyNotice seriesId={seriesId} />
          {body}
        </Stack>
      </FeatureGate>

      {seriesId ? (
        <EventDialog
          opened={dialog.kind === 'create' || (dialog.kind === 'edit' && editing !== null)}
          mode={dialog.kind === 'edit' ? 'edit' : 'create'}
          event={editing}
          seriesId={seriesId}
          books={books}
          characters={characters}
          locations={locations}
          onClose={close}
          onSubmit={save}
        />
      ) : null}
      <EraOrderDialog opened={dialog.kind === 'eras'} eras={eras} onClose={close} onSave={saveEraOrder} />
      <ConfirmDeleteDialog
        opened={dialog.kind === 'delete'}
        title="Delete event"
        message={MESSAGES.confirm.deleteTimelineEvent}
        onCancel={close}
        onConfirm={() => (dialog.kind === 'delete' ? remove(dialog.event) : undefined)}
      />
    </>
  );
}

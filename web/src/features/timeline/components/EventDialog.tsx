import { useMemo } from 'react';
import { ColorInput, MultiSelect, Select, SimpleGrid, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { DEFAULT_EVENT_COLOR, type Book, type Character, type Location, type TimelineEvent } from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { FormActions } from '@/components/FormActions';
import { useEntityForm, useHeldWhileClosing } from '@/lib/useEntityForm';
import { useDb } from '@/lib/sync';
import { useChapters } from '../hooks/useTimelineData';
import { emptyEventForm, formFromEvent, validateEventForm, type EventFormValues } from '../model/event-form';
import { EVENT_TYPE_OPTIONS, IMPORTANCE_OPTIONS, bookGroupLabel, type EventImportance, type EventType } from '../model/timeline';

/** The spec's default first, then a few that read well as borders in every theme. */
const SWATCHES = [DEFAULT_EVENT_COLOR, '#0ea5e9', '#14b8a6', '#22c55e', '#eab308', '#f97316', '#ef4444', '#ec4899', '#8b5cf6', '#64748b'];

export interface EventDialogProps {
  opened: boolean;
  mode: 'create' | 'edit';
  /** The event to edit (mode edit). */
  event: TimelineEvent | null;
  seriesId: string;
  books: readonly Book[];
  characters: readonly Character[];
  locations: readonly Location[];
  onClose: () => void;
  /** Saves; resolves true when the dialog may close. */
  onSubmit: (values: EventFormValues) => Promise<boolean>;
}

/**
 * Add or edit a timeline event (001 §2, §3, §5): title (required, 'Title is required'),
 * description, event type (plot), free-text date, book, chapter of that book, characters, location,
 * importance (medium), colour (#6366f1) and Plot Point.
 */
export function EventDialog(props: EventDialogProps) {
  const { opened, mode, event, onClose } = props;
  const current = { mode: useHeldWhileClosing(opened, mode), event: useHeldWhileClosing(opened, event) };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={current.mode === 'edit' ? 'Edit Event' : 'Add Event'}
      centered
      radius="md"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <EventForm key={current.event?.id ?? 'new'} {...props} mode={current.mode} event={current.event} />
    </Modal>
  );
}

function EventForm({ mode, event, books, characters, locations, onClose, onSubmit }: Omit<EventDialogProps, 'opened'>) {
  const db = useDb();
  const { values, setValues, errors, busy, set, submit } = useEntityForm<EventFormValues>({
    initial: () => (mode === 'edit' && event ? formFromEvent(event) : emptyEventForm()),
    validate: validateEventForm,
    onSubmit,
    onClose,
  });
  const chapters = useChapters(db, values.bookId);

  const bookOptions = useMemo(() => books.map((b) => ({ value: b.id, label: bookGroupLabel(b) })), [books]);
  const chapterOptions = useMemo(() => (chapters ?? []).map((c) => ({ value: c.id, label: c.title || 'Untitled chapter' })), [chapters]);
  const characterOptions = useMemo(() => characters.map((c) => ({ value: c.id, label: c.name })), [characters]);
  const locationOptions = useMemo(() => locations.map((l) => ({ value: l.id, label: l.name })), [locations]);

  const combobox = { withinPortal: true } as const;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Title"
          placeholder="e.g. The fall of the tower"
          required
          value={values.title}
          onChange={(e) => set('title', e.currentTarget.value)}
          error={errors.title}
          maxLength={500}
          data-autofocus
        />
        <Textarea
          label="Description"
          placeholder="What happens, and why it matters"
          autosize
          minRows={2}
          maxRows={8}
          value={values.description}
          onChange={(e) => set('description', e.currentTarget.value)}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <Select
            label="Event type"
            data={EVENT_TYPE_OPTIONS}
            value={values.eventType}
            onChange={(v) => set('eventType', (v ?? 'plot') as EventType)}
            allowDeselect={false}
            comboboxProps={combobox}
          />
          <TextInput
            label="Date"
            placeholder="e.g. Year 302, Spring"
            value={values.date}
            onChange={(e) => set('date', e.currentTarget.value)}
            maxLength={200}
          />
          <Select
            label="Book"
            placeholder="No book (general event)"
            data={bookOptions}
            value={values.bookId}
            onChange={(v) => setValues((s) => ({ ...s, bookId: v, chapterId: v === s.bookId ? s.chapterId : null }))}
            clearable
            comboboxProps={combobox}
            nothingFoundMessage="No books in this series"
          />
          <Select
            label="Chapter"
            placeholder={values.bookId ? (chapters && chapters.length === 0 ? 'This book has no chapters' : 'No chapter') : 'Choose a book first'}
            data={chapterOptions}
            value={values.chapterId}
            onChange={(v) => set('chapterId', v)}
            clearable
            disabled={!values.bookId || chapterOptions.length === 0}
            comboboxProps={combobox}
          />
        </SimpleGrid>
        <MultiSelect
          label="Characters"
          placeholder={values.characterIds.length ? undefined : characterOptions.length ? 'Choose characters' : 'No characters in this series'}
          data={characterOptions}
          value={values.characterIds}
          onChange={(v) => set('characterIds', v)}
          searchable
          clearable
          disabled={characterOptions.length === 0}
          nothingFoundMessage="No character by that name"
          comboboxProps={combobox}
        />
        <Select
          label="Location"
          placeholder={locationOptions.length ? 'No location' : 'No locations in this series'}
          data={locationOptions}
          value={values.locationId}
          onChange={(v) => set('locationId', v)}
          clearable
          searchable
          disabled={locationOptions.length === 0}
          nothingFoundMessage="No location by that name"
          comboboxProps={combobox}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <Select
            label="Importance"
            data={IMPORTANCE_OPTIONS}
            value={values.importance}
            onChange={(v) => set('importance', (v ?? 'medium') as EventImportance)}
            allowDeselect={false}
            comboboxProps={combobox}
          />
          <ColorInput
            label="Colour"
            format="hex"
            swatches={SWATCHES}
            swatchesPerRow={10}
            value={values.color}
            onChange={(v) => set('color', v)}
            error={errors.color}
            withEyeDropper={false}
            popoverProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Switch
          label="Plot point"
          description="A turning point of the plot"
          checked={values.isPlotPoint}
          onChange={(e) => set('isPlotPoint', e.currentTarget.checked)}
        />
        <FormActions onCancel={onClose} busy={busy} submitLabel={mode === 'edit' ? 'Save Changes' : 'Create Event'} mt="xs" />
      </Stack>
    </form>
  );
}

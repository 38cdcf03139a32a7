// The tag and link pickers' Mantine CSS comes with the dialog (loaded with a world entries tab).
import '@mantine/core/styles/Pill.layer.css';
import '@mantine/core/styles/PillsInput.layer.css';
import { useMemo } from 'react';
import { Badge, Checkbox, Group, MultiSelect, Select, Stack, TagsInput, Text, TextInput, Textarea } from '@mantine/core';
import {
  type Book,
  type Character,
  type Location,
  WORLD_CATEGORY_NAMES,
  WORLD_FIELD_LABELS,
  WORLD_SUMMARY_MAX,
  WORLD_TAG_MAX_CHARS,
  WORLD_TAGS_MAX,
  type WorldCategory,
  type WorldEntry,
  bookAppearanceChoices,
} from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { FormActions } from '@/components/FormActions';
import { useEntityForm, useHeldWhileClosing } from '@/lib/useEntityForm';
import { DANGER_OPTIONS } from '../model/entries';
import { type EntryFormValues, emptyEntryForm, formFromEntry, validateEntryForm } from '../model/entry-form';
import { MarkedTextarea } from './MarkedTextarea';
import classes from './entries.module.css';

export interface LinkTargets {
  characters: readonly Character[];
  locations: readonly Location[];
  /** Every entry of the series (links name entries of any tab). */
  entries: readonly WorldEntry[];
}

interface WorldEntryDialogProps {
  opened: boolean;
  category: WorldCategory;
  /** The entry to edit; null to create one. */
  entry: WorldEntry | null;
  books: readonly Book[];
  targets: LinkTargets;
  seriesTitle?: string | undefined;
  onClose: () => void;
  /** Saves; resolves true when the dialog may close. */
  onSubmit: (values: EntryFormValues) => Promise<boolean>;
  /** Opens another entry (one that links to this one). */
  onOpenEntry: (entry: WorldEntry) => void;
  /** A viewer of a shared series, or a plan without advanced world building: every field locked. */
  readOnly?: boolean;
}

/** Create or edit a world entry: its name (required), summary, description, fields of its kind, tags, books and links. */
export function WorldEntryDialog(props: WorldEntryDialogProps) {
  const { opened, category, entry, readOnly = false, onClose } = props;
  const current = useHeldWhileClosing(opened, entry);
  const one = WORLD_CATEGORY_NAMES[category].one;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={readOnly ? `${one} Details` : current ? `Edit ${one}` : `New ${one}`}
      centered
      radius="md"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {/* Mounted while open only, keyed by the entry: every opening starts from fresh values. */}
      <EntryForm key={current?.id ?? 'new'} {...props} entry={current} readOnly={readOnly} />
    </Modal>
  );
}

type Option = { value: string; label: string };

/** Options for a picker: the live targets, then any id the entry holds that is gone (shown as removed). */
function options(rows: readonly { id: string; name: string }[], held: readonly string[], noun: string): Option[] {
  const known = new Set(rows.map((r) => r.id));
  return [
    ...rows.map((r) => ({ value: r.id, label: r.name })),
    ...held.filter((id) => !known.has(id)).map((id) => ({ value: id, label: `Removed ${noun}` })),
  ];
}

function EntryForm({ category, entry, books, targets, seriesTitle, onClose, onSubmit, onOpenEntry, readOnly }: Omit<WorldEntryDialogProps, 'opened'>) {
  const { values, errors, busy, set, submit } = useEntityForm<EntryFormValues>({
    initial: () => (entry ? formFromEntry(entry) : emptyEntryForm()),
    validate: (v) => validateEntryForm(category, v),
    onSubmit,
    onClose,
  });
  const names = WORLD_CATEGORY_NAMES[category];
  const editing = entry !== null;
  const others = useMemo(() => targets.entries.filter((e) => e.id !== entry?.id), [targets.entries, entry?.id]);
  const entryLabel = (e: WorldEntry) => ({ id: e.id, name: `${e.name} (${WORLD_CATEGORY_NAMES[e.category].one})` });
  const characterOptions = options(targets.characters, [...values.characterIds, ...(values.leaderId ? [values.leaderId] : [])], 'character');
  const linkedFrom = useMemo(
    () => (entry ? targets.entries.filter((e) => e.id !== entry.id && [e.entryIds, e.allyIds, e.enemyIds].some((ids) => ids.includes(entry.id))) : []),
    [targets.entries, entry],
  );
  const text = (field: keyof EntryFormValues, placeholder: string) => (
    <MarkedTextarea
      label={WORLD_FIELD_LABELS[field]}
      placeholder={placeholder}
      autosize
      minRows={2}
      maxRows={8}
      value={values[field] as string}
      onChange={(v) => set(field, v as never)}
    />
  );
  const entryPicker = (field: 'allyIds' | 'enemyIds' | 'entryIds', label: string, description: string) => (
    <MultiSelect
      label={label}
      description={description}
      data={options(others.map(entryLabel), values[field], 'entry')}
      value={values[field]}
      onChange={(v) => set(field, v)}
      searchable
      clearable
      limit={50}
      nothingFoundMessage="No entry of that name"
      comboboxProps={{ withinPortal: true }}
    />
  );

  return (
    <form onSubmit={submit} noValidate>
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="md">
          {!editing && seriesTitle ? (
            <Text size="sm" c="dimmed">
              Adds a {names.one.toLowerCase()} to {seriesTitle}.
            </Text>
          ) : null}
          <TextInput label="Name" required value={values.name} onChange={(e) => set('name', e.currentTarget.value)} error={errors.name} maxLength={200} data-autofocus />
          <Textarea
            label="Summary"
            description="A line or two, shown in the list"
            autosize
            minRows={1}
            maxRows={3}
            maxLength={WORLD_SUMMARY_MAX}
            value={values.summary}
            onChange={(e) => set('summary', e.currentTarget.value)}
          />
          {category === 'culture' ? (
            <>
              <TextInput label="Language" value={values.language} onChange={(e) => set('language', e.currentTarget.value)} maxLength={200} />
              {text('beliefs', 'What they hold sacred, fear or deny')}
              {text('customs', 'Greetings, feasts, taboos, rites of passage')}
            </>
          ) : null}
          {category === 'magicSystem' ? (
            <>
              {text('source', 'Where the power comes from')}
              {text('costs', 'What using it takes from the user')}
              {text('limitations', 'What it cannot do')}
            </>
          ) : null}
          {category === 'floraFauna' ? (
            <>
              {text('habitat', 'Where it lives or grows')}
              <Select label="Danger" data={DANGER_OPTIONS} value={values.danger} onChange={(v) => set('danger', (v ?? 'unknown') as EntryFormValues['danger'])} allowDeselect={false} comboboxProps={{ withinPortal: true }} />
            </>
          ) : null}
          {category === 'technology' ? <TextInput label="Era" placeholder="e.g. Second Age" value={values.era} onChange={(e) => set('era', e.currentTarget.value)} maxLength={200} /> : null}
          {category === 'politics' ? (
            <>
              <Select
                label="Leader"
                placeholder="No leader"
                data={characterOptions}
                value={values.leaderId || null}
                onChange={(v) => set('leaderId', v ?? '')}
                searchable
                clearable
                limit={50}
                comboboxProps={{ withinPortal: true }}
              />
              {text('goals', 'What the faction wants')}
              {entryPicker('allyIds', 'Allies', 'Factions, cultures or other entries on its side')}
              {entryPicker('enemyIds', 'Enemies', 'Factions, cultures or other entries against it')}
            </>
          ) : null}
          <MarkedTextarea
            label="Description"
            placeholder={`Everything else about this ${names.one.toLowerCase()}`}
            autosize
            minRows={3}
            maxRows={12}
            value={values.description}
            onChange={(v) => set('description', v)}
          />
          <TagsInput
            label="Tags"
            description={`Up to ${WORLD_TAGS_MAX}; press Enter after each`}
            value={values.tags}
            onChange={(v) => set('tags', v.map((t) => t.slice(0, WORLD_TAG_MAX_CHARS)))}
            maxTags={WORLD_TAGS_MAX}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
          <MultiSelect
            label="Characters"
            description={category === 'politics' ? 'Its members' : 'Characters it touches'}
            data={options(targets.characters, values.characterIds, 'character')}
            value={values.characterIds}
            onChange={(v) => set('characterIds', v)}
            searchable
            clearable
            limit={50}
            nothingFoundMessage="No character of that name"
            comboboxProps={{ withinPortal: true }}
          />
          <MultiSelect
            label="Places"
            description={category === 'culture' ? 'Its homeland and the places its people live' : category === 'floraFauna' ? 'Where it is found' : 'Places it belongs to'}
            data={options(targets.locations, values.locationIds, 'place')}
            value={values.locationIds}
            onChange={(v) => set('locationIds', v)}
            searchable
            clearable
            limit={50}
            nothingFoundMessage="No place of that name"
            comboboxProps={{ withinPortal: true }}
          />
          {entryPicker('entryIds', 'Related entries', 'Cultures, magic, species, technologies or factions it is tied to')}
          <Checkbox.Group
            label="Book appearances"
            description={books.length === 0 ? `Add books to the series to mark the ones this ${names.one.toLowerCase()} appears in` : undefined}
            value={values.bookAppearances.map(String)}
            onChange={(v) => set('bookAppearances', v.map(Number))}
          >
            <Group gap="lg" mt={8}>
              {bookAppearanceChoices(books, entry?.bookAppearances).map((choice) => (
                <Checkbox key={choice.number} value={String(choice.number)} label={choice.orphan ? `${choice.label} (not a book of this series)` : choice.label} />
              ))}
            </Group>
          </Checkbox.Group>
          {readOnly ? null : <FormActions onCancel={onClose} busy={busy} submitLabel={editing ? 'Save Changes' : `Add ${names.one}`} mt="xs" />}
        </Stack>
      </fieldset>
      {/* Outside the fieldset: a viewer follows links too. */}
      {linkedFrom.length > 0 ? (
        <Stack gap={4} mt="md" aria-label="Linked from">
          <Text size="sm" fw={500}>
            Linked from
          </Text>
          <Group gap={6} className={classes.links}>
            {linkedFrom.map((e) => (
              <Badge key={e.id} component="button" type="button" variant="light" radius="sm" style={{ cursor: 'pointer' }} onClick={() => onOpenEntry(e)}>
                {e.name}
              </Badge>
            ))}
          </Group>
        </Stack>
      ) : null}
    </form>
  );
}

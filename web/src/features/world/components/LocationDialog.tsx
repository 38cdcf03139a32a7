import { Box, Checkbox, Group, Radio, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { bookAppearanceChoices, type Book, type Location } from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { FormActions } from '@/components/FormActions';
import { PictureField } from '@/components/pictures/PictureField';
import { parsePictureRef } from '@chronicler/sync-client';
import { LinkedWorldEntries } from '@/components/LinkedWorldEntries';
import { useEntityForm, useHeldWhileClosing } from '@/lib/useEntityForm';
import { emptyLocationForm, formFromLocation, validateLocationForm, type LocationFormValues } from '../model/location-form';
import { IMPORTANCE_OPTIONS, LOCATION_TYPE_OPTIONS, type LocationImportance, type LocationType } from '../model/locations';
import { type LocationTree, breadcrumbsOf } from '../model/place-tree';
import { ParentSelect } from './ParentSelect';
import { PlaceBreadcrumbs } from './PlaceBreadcrumbs';

interface LocationDialogProps {
  opened: boolean;
  /** The location to edit; null to create one. */
  location: Location | null;
  /** The series' books: one "Book appearances" box each (packages/schema book-appearances.ts). */
  books: readonly Book[];
  /** The series name, shown under the title when creating. */
  seriesTitle?: string | undefined;
  onClose: () => void;
  /** Saves; resolves true when the dialog may close. */
  onSubmit: (values: LocationFormValues) => Promise<boolean>;
  /** A viewer of a shared series: the details, every field locked and nothing to save. */
  readOnly?: boolean;
  /** The series (where a chosen picture is kept and uploaded). */
  seriesId?: string | null;
  /** The author's own series: choosing a picture needs the plan's `multimedia` flag. */
  picturesGated?: boolean;
  /** The series' places: where this one is (breadcrumbs) and where it may go ("Inside"). */
  tree: LocationTree;
  /** A new place added inside another: that one. */
  initialParentId?: string | null;
  /** Opens the details of a place of the breadcrumbs. */
  onOpenPlace?: (location: Location) => void;
}

/** Create or edit a location (001 §3, §5): every field with its default; the name is required. */
export function LocationDialog({ opened, location, books, seriesTitle, onClose, onSubmit, readOnly = false, seriesId = null, picturesGated = true, tree, initialParentId = null, onOpenPlace }: LocationDialogProps) {
  const current = useHeldWhileClosing(opened, location);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={readOnly ? 'Location Details' : current ? 'Edit Location' : 'New Location'}
      centered
      radius="md"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {/* Mounted while open only, keyed by the location: every opening starts from fresh values. */}
      <LocationForm
        key={current?.id ?? `new-${initialParentId ?? ''}`}
        location={current}
        books={books}
        seriesTitle={seriesTitle}
        onClose={onClose}
        onSubmit={onSubmit}
        readOnly={readOnly}
        seriesId={seriesId}
        picturesGated={picturesGated}
        tree={tree}
        initialParentId={initialParentId}
        onOpenPlace={onOpenPlace}
      />
    </Modal>
  );
}

function LocationForm({ location, books, seriesTitle, onClose, onSubmit, readOnly, seriesId = null, picturesGated = true, tree, initialParentId = null, onOpenPlace }: Omit<LocationDialogProps, 'opened'>) {
  const { values, errors, busy, set, submit } = useEntityForm<LocationFormValues>({
    initial: () => (location ? formFromLocation(location) : emptyLocationForm(initialParentId)),
    validate: validateLocationForm,
    onSubmit,
    onClose,
  });
  const editing = location !== null;
  const ancestors = location ? breadcrumbsOf(tree, location.id) : [];

  return (
    <form onSubmit={submit} noValidate>
      {/* Outside the fieldset: a viewer walks up the breadcrumbs too. */}
      {location && ancestors.length > 0 ? (
        <Box mb="md">
          <PlaceBreadcrumbs ancestors={ancestors} place={location} onOpen={onOpenPlace} />
        </Box>
      ) : null}
      {/* A disabled fieldset locks every field at once. */}
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <Stack gap="md">
        {!editing && seriesTitle ? (
          <Text size="sm" c="dimmed">
            Adds a location to {seriesTitle}.
          </Text>
        ) : null}
        <TextInput
          label="Name"
          placeholder="e.g. The Shire"
          required
          value={values.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={errors.name}
          maxLength={200}
          data-autofocus
        />
        <Select
          label="Location type"
          data={LOCATION_TYPE_OPTIONS}
          value={values.locationType}
          onChange={(v) => set('locationType', (v ?? 'general') as LocationType)}
          allowDeselect={false}
          checkIconPosition="right"
          comboboxProps={{ withinPortal: true }}
        />
        <ParentSelect
          tree={tree}
          movingId={location?.id ?? null}
          value={values.parentId}
          onChange={(v) => set('parentId', v)}
          error={errors.parentId}
          description="The place this one is in: a tavern in a city, a city in a kingdom"
          disabled={readOnly}
        />
        <Radio.Group label="Importance" value={values.importance} onChange={(v) => set('importance', v as LocationImportance)}>
          <Group gap="lg" mt={6}>
            {IMPORTANCE_OPTIONS.map((o) => (
              <Radio key={o.value} value={o.value} label={o.label} />
            ))}
          </Group>
        </Radio.Group>
        <Textarea
          label="Description"
          placeholder="What is this place like? Who lives there, and why does it matter to the story?"
          autosize
          minRows={3}
          maxRows={10}
          value={values.description}
          onChange={(e) => set('description', e.currentTarget.value)}
        />
        <Checkbox.Group
          label="Book appearances"
          description={books.length === 0 ? 'Add books to the series to mark the ones this location appears in' : 'The books of the series this location appears in'}
          value={values.bookAppearances.map(String)}
          onChange={(v) => set('bookAppearances', v.map(Number))}
        >
          <Group gap="lg" mt={8}>
            {bookAppearanceChoices(books, location?.bookAppearances).map((choice) => (
              <Checkbox key={choice.number} value={String(choice.number)} label={choice.orphan ? `${choice.label} (not a book of this series)` : choice.label} />
            ))}
          </Group>
        </Checkbox.Group>
        <Checkbox
          label="Always include in companion context"
          description="Give this place to an AI model with every request, even when the text does not name it — never before the book it first appears in. Main locations are always included."
          checked={values.alwaysInclude}
          onChange={(e) => set('alwaysInclude', e.currentTarget.checked)}
        />
        <PictureField
          label="Picture"
          shape="place"
          value={values.image}
          onChange={(v) => set('image', v)}
          seriesId={location?.seriesId ?? seriesId}
          gated={picturesGated}
          disabled={readOnly}
        />
        <TextInput
          label="Image URL"
          placeholder="https://…"
          type="url"
          inputMode="url"
          description={parsePictureRef(values.image) ? 'A picture is chosen above; a URL here replaces it' : undefined}
          value={parsePictureRef(values.image) ? '' : values.image}
          onChange={(e) => set('image', e.currentTarget.value)}
          error={errors.image}
          maxLength={2048}
        />
        {/* The cultures, species … that link this place (docs/decisions/0020-world-entries.md). */}
        {location ? <LinkedWorldEntries target={{ locationId: location.id }} /> : null}
        {readOnly ? null : <FormActions onCancel={onClose} busy={busy} submitLabel={editing ? 'Save Changes' : 'Add Location'} mt="xs" />}
      </Stack>
      </fieldset>
    </form>
  );
}

import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Avatar,
  Button,
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconSparkles, IconUser } from '@tabler/icons-react';
import {
  CHARACTER_ALIASES_MAX,
  CHARACTER_ALIAS_MAX_CHARS,
  MESSAGES,
  bookAppearanceChoices,
  hasFeature,
  type Book,
  type Character,
  type PlanName,
} from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { AI_IMAGE_GATE_HELPER_TEXT, CHARACTER_TOASTS, GATE_TOASTS, VALIDATION_TOASTS } from '@/lib/copy/toasts';
import { FormActions } from '@/components/FormActions';
import { PictureField } from '@/components/pictures/PictureField';
import { usePictureSource } from '@/components/pictures/pictureSource';
import { parsePictureRef } from '@chronicler/sync-client';
import { LinkedWorldEntries } from '@/components/LinkedWorldEntries';
import { toast } from '@/lib/toast';
import {
  ROLE_OPTIONS,
  STATUS_OPTIONS,
  emptyCharacterForm,
  formFromCharacter,
  initials,
  withRole,
  type CharacterFormValues,
  type CharacterRole,
  type CharacterStatus,
} from '../model/character-form';
import { generateCharacterImage, type GenerateImageOptions } from '../model/image-generation';
import classes from '../characters.module.css';

export interface CharacterDialogProps {
  opened: boolean;
  /** The character being edited; null for New Character. */
  character: Character | null;
  /** The series' books: one "Book appearances" box each (packages/schema book-appearances.ts). */
  books: readonly Book[];
  plan: PlanName;
  /** The series the character belongs to (where a chosen portrait is kept and uploaded). */
  seriesId: string | null;
  /** The author's own series: choosing a portrait needs the plan's `multimedia` flag. */
  picturesGated: boolean;
  onClose: () => void;
  /** Saves; resolves true when the dialog may close. */
  onSubmit: (values: CharacterFormValues) => Promise<boolean>;
  /** Test seam for the simulated image generation. */
  imageOptions?: GenerateImageOptions;
}

/** The New Character / Edit Character dialog with every field of spec 001 §3 and the AI image action. */
export function CharacterDialog({ opened, character, books, plan, seriesId, picturesGated, onClose, onSubmit, imageOptions }: CharacterDialogProps) {
  const [values, setValues] = useState<CharacterFormValues>(emptyCharacterForm);
  const [nameError, setNameError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [generating, setGenerating] = useState(false);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  // Fresh values each time the dialog opens (or switches character) — not when the open character
  // changes underneath (a sync pull), which would throw away what the author is typing.
  const characterRef = useRef(character);
  characterRef.current = character;
  const characterId = character?.id ?? null;
  useEffect(() => {
    if (!opened) return;
    const c = characterRef.current;
    setValues(c ? formFromCharacter(c) : emptyCharacterForm());
    setNameError(null);
    setSaving(false);
    setGenerating(false);
    mainChosen.current = false;
  }, [opened, characterId]);

  const set = <K extends keyof CharacterFormValues>(key: K, value: CharacterFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  // Whether the author used the "Main character" switch since the dialog opened.
  const mainChosen = useRef(false);
  const setRole = (role: CharacterRole) => setValues((v) => withRole(v, role, mainChosen.current));

  const canGenerate = hasFeature(plan, 'aiCharacterImages');

  const generate = async () => {
    if (!canGenerate) {
      toast.show(GATE_TOASTS.premiumFeature);
      return;
    }
    if (values.description.trim() === '') {
      toast.show(VALIDATION_TOASTS.imageDescriptionRequired);
      return;
    }
    setGenerating(true);
    try {
      const url = await generateCharacterImage(imageOptions);
      if (!alive.current) return;
      set('avatarUrl', url);
      toast.show(CHARACTER_TOASTS.imageGenerated);
    } catch {
      if (alive.current) toast.show(CHARACTER_TOASTS.imageGenerationFailed);
    } finally {
      if (alive.current) setGenerating(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (values.name.trim() === '') {
      setNameError(MESSAGES.character.nameRequired);
      return;
    }
    setSaving(true);
    const done = await onSubmit(values);
    if (!alive.current) return;
    setSaving(false);
    if (done) onClose();
  };

  const editing = character !== null;
  const preview = usePictureSource(values.avatarUrl.trim(), seriesId, 'display').src;
  // A chosen picture is a `media:` reference, not a URL to show in the URL box.
  const chosenPicture = parsePictureRef(values.avatarUrl) !== null;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? 'Edit Character' : 'New Character'}
      size="xl"
      radius="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={submit} noValidate aria-label={editing ? 'Edit character' : 'New character'}>
        <Stack gap="md">
          <Group align="flex-start" gap="lg" wrap="nowrap">
            <Stack align="center" gap={6} w={156} style={{ flexShrink: 0 }}>
              <Avatar src={preview || null} alt={values.name ? `${values.name} portrait` : 'Character portrait'} size={112} radius={112} className={classes.portrait}>
                {values.name.trim() ? initials(values.name) : <IconUser size={48} stroke={1.5} aria-hidden />}
              </Avatar>
              <Button
                size="xs"
                variant="light"
                radius="xl"
                fullWidth
                leftSection={<IconSparkles size={14} aria-hidden />}
                onClick={() => void generate()}
                loading={generating}
                aria-describedby={canGenerate ? undefined : 'ai-image-helper'}
              >
                Generate image
              </Button>
              {!canGenerate ? (
                <Text id="ai-image-helper" size="xs" c="dimmed" ta="center">
                  {AI_IMAGE_GATE_HELPER_TEXT}
                </Text>
              ) : null}
            </Stack>
            <Stack gap="sm" style={{ flex: 1 }} miw={0}>
              <TextInput
                label="Name"
                required
                data-autofocus
                value={values.name}
                error={nameError}
                onChange={(e) => {
                  set('name', e.currentTarget.value);
                  if (nameError) setNameError(null);
                }}
                maxLength={200}
              />
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                <Select
                  label="Role"
                  data={ROLE_OPTIONS}
                  value={values.role}
                  allowDeselect={false}
                  onChange={(v) => v && setRole(v as CharacterRole)}
                  comboboxProps={{ withinPortal: true }}
                />
                <Select
                  label="Status"
                  data={STATUS_OPTIONS}
                  value={values.status}
                  allowDeselect={false}
                  onChange={(v) => v && set('status', v as CharacterStatus)}
                  comboboxProps={{ withinPortal: true }}
                />
                <TextInput label="Age" value={values.age} onChange={(e) => set('age', e.currentTarget.value)} maxLength={200} />
                <TextInput
                  label="Occupation"
                  value={values.occupation}
                  onChange={(e) => set('occupation', e.currentTarget.value)}
                  maxLength={200}
                />
              </SimpleGrid>
            </Stack>
          </Group>

          <Textarea
            label="Description"
            description="Also used to generate the character's image"
            autosize
            minRows={2}
            maxRows={6}
            value={values.description}
            onChange={(e) => set('description', e.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Textarea label="Appearance" autosize minRows={2} maxRows={6} value={values.appearance} onChange={(e) => set('appearance', e.currentTarget.value)} />
            <Textarea label="Personality" autosize minRows={2} maxRows={6} value={values.personality} onChange={(e) => set('personality', e.currentTarget.value)} />
            <Textarea label="Goals" autosize minRows={2} maxRows={6} value={values.goals} onChange={(e) => set('goals', e.currentTarget.value)} />
            <Textarea label="Backstory" autosize minRows={2} maxRows={6} value={values.backstory} onChange={(e) => set('backstory', e.currentTarget.value)} />
          </SimpleGrid>

          <Checkbox.Group
            label="Book appearances"
            description={books.length === 0 ? 'Add books to the series to mark the ones this character appears in' : undefined}
            value={values.bookAppearances}
            onChange={(v) => set('bookAppearances', v)}
          >
            <Group gap="md" mt={6}>
              {bookAppearanceChoices(books, character?.bookAppearances).map((choice) => (
                <Checkbox key={choice.number} value={String(choice.number)} label={choice.orphan ? `${choice.label} (not a book of this series)` : choice.label} />
              ))}
            </Group>
          </Checkbox.Group>

          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TagsInput
              label="Aliases"
              description="Other names the story uses: nicknames, titles. The writing companion recognises them like the name. Enter or a comma after each."
              value={values.aliases}
              onChange={(v) => set('aliases', v)}
              splitChars={[',']}
              maxTags={CHARACTER_ALIASES_MAX}
              maxLength={CHARACTER_ALIAS_MAX_CHARS}
              clearable
            />
            <Switch
              mt={{ base: 0, sm: 30 }}
              label="Always include in companion context"
              description="Give this character to an AI model with every request, even when the text does not name them — never before the book they first appear in."
              checked={values.alwaysInclude}
              onChange={(e) => set('alwaysInclude', e.currentTarget.checked)}
            />
          </SimpleGrid>

          <PictureField
            label="Portrait"
            shape="portrait"
            value={values.avatarUrl}
            onChange={(v) => set('avatarUrl', v)}
            seriesId={seriesId}
            gated={picturesGated}
            showPreview={false}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Avatar URL"
              placeholder="https://…"
              description={chosenPicture ? 'A picture is chosen above; a URL here replaces it' : undefined}
              value={chosenPicture ? '' : values.avatarUrl}
              onChange={(e) => set('avatarUrl', e.currentTarget.value)}
              maxLength={2048}
            />
            <Switch
              mt={{ base: 0, sm: 30 }}
              label="Main character"
              checked={values.isProtagonist}
              onChange={(e) => {
                mainChosen.current = true;
                set('isProtagonist', e.currentTarget.checked);
              }}
            />
          </SimpleGrid>

          {/* The cultures, factions … that link this character (docs/decisions/0020-world-entries.md). */}
          {characterId ? <LinkedWorldEntries target={{ characterId }} /> : null}
          <FormActions onCancel={onClose} busy={saving} submitLabel={editing ? 'Save Changes' : 'Create Character'} mt="xs" />
        </Stack>
      </form>
    </Modal>
  );
}

import { Badge, Button, Divider, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconEdit, IconLink, IconStarFilled } from '@tabler/icons-react';
import { characterAppearanceLabel, type Character, type CharacterRelationship } from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { ROLE_LABELS, STATUS_LABELS } from '../model/character-form';
import { RELATIONSHIP_LABELS, linkStyle } from '../model/map-geometry';
import { CharacterAvatar } from './CharacterAvatar';
import classes from '../characters.module.css';
import { LinkedWorldEntries } from '@/components/LinkedWorldEntries';

export interface CharacterDetailDialogProps {
  character: Character | null;
  characters: readonly Character[];
  relationships: readonly CharacterRelationship[];
  /** Relationships can be added (the plan has relationship mapping). */
  canRelate: boolean;
  onClose: () => void;
  onEdit: (character: Character) => void;
  onAddRelationship: (character: Character) => void;
  /** false for a viewer of a shared series: details only. */
  canEdit?: boolean;
}

function Field({ label, value }: { label: string; value: string }) {
  if (!value.trim()) return null;
  return (
    <Stack gap={2}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.4}>
        {label}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {value}
      </Text>
    </Stack>
  );
}

/** The character detail dialog that opens on clicking a node of the map. */
export function CharacterDetailDialog({ character, characters, relationships, canRelate, onClose, onEdit, onAddRelationship, canEdit = true }: CharacterDetailDialogProps) {
  const names = new Map(characters.map((c) => [c.id, c.name]));
  const own = character
    ? relationships.filter((r) => r.sourceCharacterId === character.id || r.targetCharacterId === character.id)
    : [];
  return (
    <Modal opened={character !== null} onClose={onClose} title="Character details" size="lg" centered radius="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      {character ? (
        <Stack gap="md">
          <Group gap="md" wrap="nowrap">
            <CharacterAvatar character={character} size={72} radius="xl" />
            <Stack gap={4} miw={0}>
              <Group gap={6}>
                <Title order={3} fz="xl">
                  {character.name}
                </Title>
                {character.isProtagonist ? (
                  <Badge color="yellow" variant="light" leftSection={<IconStarFilled size={12} aria-hidden />}>
                    Main character
                  </Badge>
                ) : null}
              </Group>
              <Group gap={6}>
                <Badge variant="light">{ROLE_LABELS[character.role]}</Badge>
                <Badge variant="outline" color="gray">
                  {STATUS_LABELS[character.status]}
                </Badge>
                <Badge variant="default">{characterAppearanceLabel(character.bookAppearances)}</Badge>
              </Group>
            </Stack>
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Field label="Age" value={character.age} />
            <Field label="Occupation" value={character.occupation} />
          </SimpleGrid>
          <Field label="Description" value={character.description} />
          <Field label="Appearance" value={character.appearance} />
          <Field label="Personality" value={character.personality} />
          <Field label="Goals" value={character.goals} />
          <Field label="Backstory" value={character.backstory} />
          <Divider />
          <Stack gap={6}>
            <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.4}>
              Relationships
            </Text>
            {own.length === 0 ? (
              <Text size="sm" c="dimmed">
                No relationships yet.
              </Text>
            ) : (
              <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
                {own.map((r) => {
                  const other = r.sourceCharacterId === character.id ? r.targetCharacterId : r.sourceCharacterId;
                  const style = linkStyle(r.relationshipType);
                  return (
                    <Group key={r.id} component="li" gap="xs" wrap="nowrap">
                      <span
                        className={classes.legendSwatch}
                        data-dashed={style.strokeDasharray ? 'true' : 'false'}
                        style={{ ['--swatch' as string]: style.stroke }}
                        aria-hidden
                      />
                      <Text size="sm">
                        <Text span fw={600}>
                          {names.get(other) ?? 'Unknown character'}
                        </Text>{' '}
                        · {RELATIONSHIP_LABELS[r.relationshipType]}
                        {r.description ? ` — ${r.description}` : ''}
                      </Text>
                    </Group>
                  );
                })}
              </Stack>
            )}
          </Stack>
          <LinkedWorldEntries target={{ characterId: character.id }} />
          <Group justify="flex-end" gap="sm">
            {canRelate && canEdit ? (
              <Button variant="default" leftSection={<IconLink size={16} aria-hidden />} onClick={() => onAddRelationship(character)}>
                Add relationship
              </Button>
            ) : null}
            {canEdit ? (
              <Button leftSection={<IconEdit size={16} aria-hidden />} onClick={() => onEdit(character)}>
                Edit character
              </Button>
            ) : null}
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

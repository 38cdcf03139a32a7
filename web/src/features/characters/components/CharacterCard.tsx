import { memo } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconBook2, IconDotsVertical, IconEdit, IconStar, IconStarFilled, IconTrash } from '@tabler/icons-react';
import { characterAppearanceLabel, type Character } from '@chronicler/schema';
import { DeferredTooltip, Menu } from '@/lib/first-load';
import { ROLE_LABELS, STATUS_LABELS } from '../model/character-form';
import { CharacterAvatar } from './CharacterAvatar';
import classes from '../characters.module.css';

export interface CharacterCardProps {
  character: Character;
  onView: (character: Character) => void;
  onToggleMain: (character: Character) => void;
  onDelete: (character: Character) => void;
  /** A viewer of a shared series: the star is shown, not offered; the menu only opens the details. */
  readOnly?: boolean;
}

const STATUS_COLORS: Record<Character['status'], string> = { alive: 'teal', deceased: 'gray', unknown: 'yellow' };

/** One character: star toggle (main character), View Details, and a menu with Edit, Mark as main / Remove as main, Delete. */
export const CharacterCard = memo(function CharacterCard({ character, onView, onToggleMain, onDelete, readOnly = false }: CharacterCardProps) {
  const main = character.isProtagonist;
  const starLabel = main ? `Remove ${character.name} as main character` : `Mark ${character.name} as main character`;
  const details = [character.occupation, character.age ? `Age ${character.age}` : ''].filter(Boolean).join(' · ');
  return (
    <Card withBorder radius="lg" padding="lg" shadow="xs" className={classes.card} component="article" aria-label={character.name}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <CharacterAvatar character={character} size={48} radius="xl" />
          <Stack gap={2} miw={0}>
            <Title order={3} fz="lg" lineClamp={1}>
              {character.name}
            </Title>
            <Group gap={6}>
              <Badge size="sm" variant="light">
                {ROLE_LABELS[character.role]}
              </Badge>
              <Badge size="sm" variant="outline" color={STATUS_COLORS[character.status]}>
                {STATUS_LABELS[character.status]}
              </Badge>
            </Group>
          </Stack>
        </Group>
        <Group gap={2} wrap="nowrap">
          {readOnly ? (
            main ? <IconStarFilled size={18} color="var(--mantine-color-yellow-6)" aria-label="Main character" role="img" /> : null
          ) : (
          <DeferredTooltip label={main ? 'Remove as main' : 'Mark as main'} withArrow>
            <ActionIcon
              variant="subtle"
              color={main ? 'yellow' : 'gray'}
              aria-label={starLabel}
              aria-pressed={main}
              className={classes.star}
              data-active={main}
              onClick={() => onToggleMain(character)}
            >
              {main ? <IconStarFilled size={18} aria-hidden /> : <IconStar size={18} aria-hidden />}
            </ActionIcon>
          </DeferredTooltip>
          )}
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`More actions for ${character.name}`}>
                <IconDotsVertical size={18} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconEdit size={16} aria-hidden />} onClick={() => onView(character)}>
                {readOnly ? 'View details' : 'Edit'}
              </Menu.Item>
              {readOnly ? null : (
              <>
              <Menu.Item
                leftSection={main ? <IconStar size={16} aria-hidden /> : <IconStarFilled size={16} aria-hidden />}
                onClick={() => onToggleMain(character)}
              >
                {main ? 'Remove as main' : 'Mark as main'}
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => onDelete(character)}>
                Delete
              </Menu.Item>
              </>
              )}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>

      <Stack gap={6} mt="md" className={classes.cardBody}>
        {details ? (
          <Text size="sm" fw={500}>
            {details}
          </Text>
        ) : null}
        <Text size="sm" c="dimmed" lineClamp={3}>
          {character.description || 'No description yet.'}
        </Text>
      </Stack>

      <Group justify="space-between" mt="md" gap="xs">
        <Group gap={6} c="dimmed">
          <IconBook2 size={16} aria-hidden />
          <Text size="xs" c="dimmed" data-testid="appearance-label">
            {characterAppearanceLabel(character.bookAppearances)}
          </Text>
        </Group>
        <Button variant="light" size="xs" radius="xl" onClick={() => onView(character)} aria-label={`View details of ${character.name}`}>
          View Details
        </Button>
      </Group>
    </Card>
  );
});

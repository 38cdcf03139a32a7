import { memo } from 'react';
import { ActionIcon, Badge, Group, Text, UnstyledButton } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { WorldEntry } from '@chronicler/schema';
import { DeferredTooltip } from '@/lib/first-load';
import { DANGER_LABELS } from '../model/entries';
import classes from './entries.module.css';

/** The height every row has: the list draws only the rows in view (useWindowedRows). */
export const ENTRY_ROW_HEIGHT = 84;

interface EntryRowProps {
  entry: WorldEntry;
  /** Where the row sits in the list (px from its top). */
  top: number;
  /** How many links the entry has and how many entries link to it. */
  links: number;
  onOpen: (entry: WorldEntry) => void;
  onDelete: (entry: WorldEntry) => void;
  readOnly: boolean;
}

/** The one detail of its category a row shows beside the name. */
function detailOf(entry: WorldEntry): string | null {
  switch (entry.category) {
    case 'floraFauna':
      return entry.danger === 'unknown' ? null : `Danger: ${DANGER_LABELS[entry.danger]}`;
    case 'technology':
      return entry.era || null;
    case 'culture':
      return entry.language || null;
    default:
      return null;
  }
}

/** One entry of a tab's list: name, a detail of its kind, summary, tags; open (View Details), edit, delete. */
export const EntryRow = memo(function EntryRow({ entry, top, links, onOpen, onDelete, readOnly }: EntryRowProps) {
  const detail = detailOf(entry);
  return (
    <div className={classes.row} style={{ top, height: ENTRY_ROW_HEIGHT }} data-testid="world-entry-row" role="listitem" aria-label={entry.name}>
      <div className={classes.body}>
        <Group gap={8} wrap="nowrap" miw={0}>
          {/* The name opens the entry; the whole row is its target (entries.module.css), its name the name read. */}
          <UnstyledButton className={classes.open} onClick={() => onOpen(entry)} aria-label={`View details of ${entry.name}`}>
            <Text fw={600} truncate component="span" className={classes.rowName}>
              {entry.name}
            </Text>
          </UnstyledButton>
          {detail ? (
            <Badge size="xs" variant="light" radius="sm" style={{ flex: 'none' }}>
              {detail}
            </Badge>
          ) : null}
          {links > 0 ? (
            <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
              {links === 1 ? '1 link' : `${links} links`}
            </Text>
          ) : null}
        </Group>
        <Text size="sm" c={entry.summary ? undefined : 'dimmed'} fs={entry.summary ? undefined : 'italic'} truncate>
          {entry.summary || 'No summary yet'}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {entry.tags.map((t) => `#${t}`).join(' ')}
        </Text>
      </div>
      {readOnly ? null : (
        <Group gap={4} wrap="nowrap" className={classes.rowActions}>
          <DeferredTooltip label="Edit" withArrow openDelay={400}>
            <ActionIcon variant="subtle" color="gray" size="lg" onClick={() => onOpen(entry)} aria-label={`Edit ${entry.name}`}>
              <IconPencil size={18} aria-hidden />
            </ActionIcon>
          </DeferredTooltip>
          <DeferredTooltip label="Delete" withArrow openDelay={400}>
            <ActionIcon variant="subtle" color="red" size="lg" onClick={() => onDelete(entry)} aria-label={`Delete ${entry.name}`}>
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </DeferredTooltip>
        </Group>
      )}
    </div>
  );
});

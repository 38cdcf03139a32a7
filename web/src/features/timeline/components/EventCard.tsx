import { memo } from 'react';
import type { DraggableProvidedDragHandleProps } from '@hello-pangea/dnd';
import { ActionIcon, Badge, Group, Stack, Text } from '@mantine/core';
import { IconBook, IconCalendarEvent, IconFlag, IconGripVertical, IconMapPin, IconPencil, IconTrash, IconUsers } from '@tabler/icons-react';
import type { TimelineEvent } from '@chronicler/schema';
import { DeferredTooltip } from '@/lib/first-load';
import { dateLabel, eventTypeLabel, importanceLabel } from '../model/timeline';
import classes from '../timeline.module.css';
import { eventCssColor } from '../model/event-color';

/** Names of what an event refers to, resolved by the screen. */
export interface EventRefs {
  book: string | null;
  chapter: string | null;
  location: string | null;
  characters: string[];
}

const IMPORTANCE_COLOR: Record<string, string> = { major: 'red', medium: 'yellow', minor: 'gray' };

interface EventCardProps {
  event: TimelineEvent;
  refs: EventRefs;
  onEdit: (event: TimelineEvent) => void;
  onDelete: (event: TimelineEvent) => void;
  /** A viewer of a shared series: no edit or delete. */
  readOnly?: boolean;
  /** The drag handle's props in the narrative view; no handle elsewhere. */
  dragHandleProps?: DraggableProvidedDragHandleProps | null | undefined;
  dragging?: boolean;
}

/**
 * One timeline event (001 §2): title, date text, importance badge, Plot Point badge, event type
 * label, edit and delete buttons and, in the narrative view, a drag handle. Its colour is the border.
 */
export const EventCard = memo(function EventCard({ event, refs, onEdit, onDelete, readOnly = false, dragHandleProps, dragging = false }: EventCardProps) {
  return (
    <article
      className={classes.card}
      style={{ '--event-color': eventCssColor(event.color) } as React.CSSProperties}
      data-dragging={dragging || undefined}
      data-testid="timeline-event"
      aria-label={event.title}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        {dragHandleProps !== undefined ? (
          <div {...dragHandleProps} className={classes.handle} aria-label={`Reorder event ${event.title}`} data-testid="event-drag-handle">
            <IconGripVertical size={16} aria-hidden />
          </div>
        ) : null}
        <Stack gap={6} className={classes.cardBody}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Text fw={600} className={classes.title} data-testid="event-title">
              {event.title}
            </Text>
            {readOnly ? null : (
            <Group gap={2} wrap="nowrap" style={{ flex: 'none' }}>
              <DeferredTooltip label="Edit" withArrow openDelay={400}>
                <ActionIcon variant="subtle" color="gray" onClick={() => onEdit(event)} aria-label={`Edit ${event.title}`}>
                  <IconPencil size={16} aria-hidden />
                </ActionIcon>
              </DeferredTooltip>
              <DeferredTooltip label="Delete" withArrow openDelay={400}>
                <ActionIcon variant="subtle" color="red" onClick={() => onDelete(event)} aria-label={`Delete ${event.title}`}>
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </DeferredTooltip>
            </Group>
            )}
          </Group>

          <Group gap={6} wrap="wrap">
            <Group gap={4} wrap="nowrap" className={classes.date}>
              <IconCalendarEvent size={14} aria-hidden />
              <Text size="xs" c="dimmed" data-testid="event-date">
                {dateLabel(event.date)}
              </Text>
            </Group>
            <Badge size="sm" radius="sm" variant="light" color={IMPORTANCE_COLOR[event.importance] ?? 'gray'} data-testid="event-importance">
              {importanceLabel(event.importance)}
            </Badge>
            {event.isPlotPoint ? (
              <Badge size="sm" radius="sm" variant="filled" leftSection={<IconFlag size={11} aria-hidden />}>
                Plot Point
              </Badge>
            ) : null}
            <Badge size="sm" radius="sm" variant="outline" color="gray" data-testid="event-type">
              {eventTypeLabel(event.eventType)}
            </Badge>
          </Group>

          {event.description ? (
            <Text size="sm" lineClamp={3} className={classes.description}>
              {event.description}
            </Text>
          ) : null}

          {refs.book || refs.location || refs.characters.length > 0 ? (
            <Group gap="md" wrap="wrap" className={classes.meta}>
              {refs.book ? (
                <Group gap={4} wrap="nowrap">
                  <IconBook size={14} aria-hidden />
                  <Text size="xs" c="dimmed">
                    {refs.chapter ? `${refs.book} · ${refs.chapter}` : refs.book}
                  </Text>
                </Group>
              ) : null}
              {refs.location ? (
                <Group gap={4} wrap="nowrap">
                  <IconMapPin size={14} aria-hidden />
                  <Text size="xs" c="dimmed">
                    {refs.location}
                  </Text>
                </Group>
              ) : null}
              {refs.characters.length > 0 ? (
                <Group gap={4} wrap="nowrap" miw={0}>
                  <IconUsers size={14} aria-hidden style={{ flex: 'none' }} />
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {refs.characters.join(', ')}
                  </Text>
                </Group>
              ) : null}
            </Group>
          ) : null}
        </Stack>
      </Group>
    </article>
  );
});

import { useMemo, useState } from 'react';
import { DragDropContext, Draggable, Droppable, useKeyboardSensor, useTouchSensor, type DropResult } from '@hello-pangea/dnd';
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconBook } from '@tabler/icons-react';
import type { TimelineEvent } from '@chronicler/schema';
import { BookStatusBadge } from '@/components/BookStatusBadge';
import { usePointerSensor } from '../dnd/pointerSensor';
import { GENERAL_GROUP_ID, renumberAfterDrop, type NarrativeGroup } from '../model/timeline';
import classes from '../timeline.module.css';
import { DragHelp } from './DragHelp';
import { EventCard, type EventRefs } from './EventCard';

export const DRAG_INSTRUCTIONS =
  'Press space to pick up the event. Use the up and down arrow keys to move it within its book, space to drop it in its new place, or escape to cancel.';

const SENSORS = [usePointerSensor, useKeyboardSensor, useTouchSensor];

interface NarrativeViewProps {
  groups: NarrativeGroup<TimelineEvent>[];
  refsOf: (event: TimelineEvent) => EventRefs;
  onEdit: (event: TimelineEvent) => void;
  onDelete: (event: TimelineEvent) => void;
  /** A viewer of a shared series: no editing, and nothing to drag. */
  readOnly?: boolean;
  /** Saves the group's new order (positions from 1); rejects when it could not be saved. */
  onReorder: (events: { id: string; position: number }[]) => Promise<void>;
}

/**
 * The narrative view (001 §2, §4): events grouped by book ('Book {position}: {title}', each with a
 * card of the book), 'General Events' last; dragging (pointer after 8 px, or keyboard) reorders
 * events within their group only, and the group is renumbered from 1 and saved.
 */
export function NarrativeView({ groups, refsOf, onEdit, onDelete, onReorder, readOnly = false }: NarrativeViewProps) {
  // The order just dropped, shown until the local database answers with it.
  const [pending, setPending] = useState<{ groupId: string; ids: string[] } | null>(null);

  const shown = useMemo(() => {
    if (!pending) return groups;
    return groups.map((g) => {
      if (g.id !== pending.groupId) return g;
      const byId = new Map(g.events.map((e) => [e.id, e]));
      const ordered = pending.ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
      return { ...g, events: [...ordered, ...g.events.filter((e) => !pending.ids.includes(e.id))] };
    });
  }, [groups, pending]);

  if (pending) {
    const group = groups.find((g) => g.id === pending.groupId);
    // The database caught up (or the group is gone): drop the override (render-time adjustment).
    if (!group || group.events.map((e) => e.id).join() === pending.ids.join()) setPending(null);
  }

  const onDragEnd = async (result: DropResult) => {
    const { source, destination } = result;
    if (!destination || destination.droppableId !== source.droppableId || destination.index === source.index) return;
    const group = shown.find((g) => g.id === source.droppableId);
    if (!group) return;
    const events = renumberAfterDrop(group.events, source.index, destination.index);
    setPending({ groupId: group.id, ids: events.map((e) => e.id) });
    try {
      await onReorder(events);
    } catch {
      setPending(null);
    }
  };

  return (
    <DragDropContext onDragEnd={onDragEnd} enableDefaultSensors={false} sensors={SENSORS} dragHandleUsageInstructions={DRAG_INSTRUCTIONS}>
      <Stack gap="xl">
        <DragHelp />
        {shown.map((group) => (
          <section key={group.id} className={classes.group} aria-labelledby={`group-${group.id}`} data-testid="narrative-group">
            <Title order={3} fz="lg" id={`group-${group.id}`}>
              {group.label}
            </Title>
            {group.book ? (
              <Paper withBorder radius="md" p="sm" data-testid="group-book">
                <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                  <Group gap="sm" wrap="nowrap" align="flex-start" miw={0}>
                    <IconBook size={18} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
                    <Stack gap={2} miw={0}>
                      <Text fw={600} size="sm">
                        {group.book.title}
                      </Text>
                      <Text size="sm" c="dimmed" lineClamp={2} fs={group.book.description ? undefined : 'italic'}>
                        {group.book.description || 'No description provided'}
                      </Text>
                    </Stack>
                  </Group>
                  <BookStatusBadge status={group.book.status} variant={group.book.status === 'completed' ? 'filled' : 'light'} style={{ flex: 'none' }} />
                </Group>
              </Paper>
            ) : null}
            {/* One type per group: an event can only be dropped within its own group. */}
            <Droppable droppableId={group.id} type={group.id}>
              {(drop, snapshot) => (
                <div ref={drop.innerRef} {...drop.droppableProps} className={classes.dropZone} data-over={snapshot.isDraggingOver}>
                  {group.events.length === 0 ? (
                    <Text size="sm" c="dimmed" className={classes.groupEmpty}>
                      No events yet. Add an event to start building your timeline.
                    </Text>
                  ) : null}
                  {group.events.map((event, index) => (
                    <Draggable key={event.id} draggableId={event.id} index={index} isDragDisabled={readOnly}>
                      {(drag, dragSnapshot) => (
                        <div ref={drag.innerRef} {...drag.draggableProps} data-testid={group.id === GENERAL_GROUP_ID ? 'general-event' : 'book-event'}>
                          <EventCard
                            event={event}
                            refs={refsOf(event)}
                            onEdit={onEdit}
                            onDelete={onDelete}
                            readOnly={readOnly}
                            dragHandleProps={readOnly ? undefined : drag.dragHandleProps}
                            dragging={dragSnapshot.isDragging}
                          />
                        </div>
                      )}
                    </Draggable>
                  ))}
                  {drop.placeholder}
                </div>
              )}
            </Droppable>
          </section>
        ))}
      </Stack>
    </DragDropContext>
  );
}

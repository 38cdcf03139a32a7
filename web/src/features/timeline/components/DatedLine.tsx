import type { TimelineEvent } from '@chronicler/schema';
import { Text } from '@mantine/core';
import { dateLabel } from '../model/timeline';
import classes from '../timeline.module.css';
import { EventCard, type EventRefs } from './EventCard';
import { eventCssColor } from '../model/event-color';

interface DatedLineProps {
  /** Already in the order to draw. */
  events: readonly TimelineEvent[];
  refsOf: (event: TimelineEvent) => EventRefs;
  onEdit: (event: TimelineEvent) => void;
  onDelete: (event: TimelineEvent) => void;
  readOnly?: boolean;
  label: string;
}

/** The chronological and character views (001 §2): a vertical line of events, the date on the left. */
export function DatedLine({ events, refsOf, onEdit, onDelete, label, readOnly = false }: DatedLineProps) {
  return (
    <ol className={classes.line} aria-label={label} data-testid="dated-line">
      {events.map((event) => (
        <li key={event.id} className={classes.lineItem} style={{ '--event-color': eventCssColor(event.color) } as React.CSSProperties}>
          <Text size="sm" fw={600} className={classes.lineDate} c={event.date.trim() ? undefined : 'dimmed'} data-testid="line-date">
            {dateLabel(event.date)}
          </Text>
          <div className={classes.lineRail} aria-hidden>
            <span className={classes.dot} />
          </div>
          <EventCard event={event} refs={refsOf(event)} onEdit={onEdit} onDelete={onDelete} readOnly={readOnly} />
        </li>
      ))}
    </ol>
  );
}

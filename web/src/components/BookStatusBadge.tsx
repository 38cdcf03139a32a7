import { Badge, type BadgeProps } from '@mantine/core';
import { type BookStatusLabel, bookStatusDisplay } from '@chronicler/schema';

/**
 * A book's status as the author chose it (docs/spec-differences.md). Colours come from the theme:
 * the primary colour for work under way, teal for Completed, the theme's gray for Planning.
 */
const COLOR: Record<BookStatusLabel, string | undefined> = {
  'In Progress': undefined,
  Revision: undefined,
  Completed: 'teal',
  Planning: 'gray',
};

export function BookStatusBadge({ status, ...props }: { status: string } & Omit<BadgeProps, 'color' | 'children'>) {
  const label = bookStatusDisplay(status);
  return (
    <Badge variant="light" radius="sm" {...props} color={COLOR[label]} data-status={status} data-testid="book-status">
      {label}
    </Badge>
  );
}

import { Anchor, Group, Text } from '@mantine/core';
import type { Location } from '@chronicler/schema';

interface PlaceBreadcrumbsProps {
  /** The places it is inside, from the top level down. */
  ancestors: readonly Location[];
  /** The place itself, last and not a link. */
  place: Pick<Location, 'name'>;
  /** Opens an ancestor's details; without it the path is plain text. */
  onOpen?: (location: Location) => void;
}

/** Where a place is: "Earthsea › Archipelago › Roke" (a breadcrumb trail, docs/decisions/0021-places-inside-places.md). */
export function PlaceBreadcrumbs({ ancestors, place, onOpen }: PlaceBreadcrumbsProps) {
  if (ancestors.length === 0) return null;
  return (
    <nav aria-label={`Where ${place.name} is`} data-testid="location-breadcrumbs">
      <Group component="ol" gap={4} wrap="wrap" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {ancestors.map((a) => (
          <Group component="li" key={a.id} gap={4} wrap="nowrap">
            {onOpen ? (
              <Anchor component="button" type="button" size="sm" onClick={() => onOpen(a)}>
                {a.name}
              </Anchor>
            ) : (
              <Text span size="sm" c="dimmed">
                {a.name}
              </Text>
            )}
            <Text span size="sm" c="dimmed" aria-hidden>
              ›
            </Text>
          </Group>
        ))}
        <Text component="li" size="sm" fw={600} aria-current="location">
          {place.name}
        </Text>
      </Group>
    </nav>
  );
}

/**
 * The other side of world entry links (docs/decisions/0020-world-entries.md): on a character's or
 * a place's dialog, the cultures, factions, species … that link to it, each opening its entry on
 * the World page. Read live from the local database, so it works offline and follows every edit.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { Link } from 'react-router';
import { Anchor, Group, Stack, Text } from '@mantine/core';
import { WORLD_CATEGORY_NAMES, type WorldEntry } from '@chronicler/schema';
import { worldEntriesLinking } from '@chronicler/sync-client';
import { useSync } from '@/lib/sync';
import { worldEntryPath } from '@/lib/worldEntryPath';

type Target = { characterId: string } | { locationId: string };

function roleOf(entry: WorldEntry, target: Target): string {
  return 'characterId' in target && entry.leaderId === target.characterId ? ' (leader)' : '';
}

export function LinkedWorldEntries({ target }: { target: Target }) {
  const { db } = useSync();
  const key = 'characterId' in target ? target.characterId : target.locationId;
  const entries = useLiveQuery(() => worldEntriesLinking(db, target), [db, key]);
  if (!entries || entries.length === 0) return null;
  return (
    <Stack gap={6} data-testid="linked-world-entries">
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.4}>
        In the world
      </Text>
      <Group gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {entries.map((entry) => (
          <li key={entry.id}>
            <Anchor component={Link} to={worldEntryPath(entry)} size="sm">
              {entry.name}
            </Anchor>
            <Text span size="xs" c="dimmed">
              {' '}
              · {WORLD_CATEGORY_NAMES[entry.category].one}
              {roleOf(entry, target)}
            </Text>
          </li>
        ))}
      </Group>
    </Stack>
  );
}

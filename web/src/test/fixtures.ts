/** Rows as the server would send them, for the screens' tests (more in sync/testing/fixtures). */
import { createWorldEntryBodySchema, newId, type Character, type CharacterRelationship, type Location, type WorldCategory, type WorldEntry } from '@chronicler/schema';

const T = '2026-01-01T00:00:00.000Z';

function row() {
  return { id: newId(), rev: 5, createdAt: T, updatedAt: T, deletedAt: null };
}

export function serverLocation(seriesId: string, over: Partial<Location> = {}): Location {
  return {
    ...row(),
    seriesId,
    name: 'Somewhere',
    locationType: 'general',
    description: '',
    importance: 'secondary',
    bookAppearances: [],
    image: null,
    alwaysInclude: false,
    parentId: null,
    ...over,
  };
}

export function serverRelationship(seriesId: string, a: Character, b: Character, over: Partial<CharacterRelationship> = {}): CharacterRelationship {
  return {
    ...row(),
    seriesId,
    sourceCharacterId: a.id,
    targetCharacterId: b.id,
    relationshipType: 'ally',
    description: '',
    ...over,
  };
}

/** A world entry (docs/decisions/0020-world-entries.md) with every field at its default. */
export function serverWorldEntry(seriesId: string, category: WorldCategory, over: Partial<WorldEntry> = {}): WorldEntry {
  return {
    ...row(),
    ...createWorldEntryBodySchema.parse({ seriesId, category, name: over.name ?? 'Something' }),
    ...over,
  } as WorldEntry;
}

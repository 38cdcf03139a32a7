/**
 * The resolver (docs/decisions/0017-canon-changes.md): the state of every character, location and
 * relationship "as of" a story point, from the series' narrative order and its canon changes.
 *
 * - Field-level: a change holds until the next change of the same field, in narrative order; before
 *   the first, the entity's own row holds. Nothing is copied between books: Book 2 begins with
 *   Book 1's end state because its chapters simply come later.
 * - A change is anchored at its chapter, wherever that chapter is now (a moved chapter takes its
 *   changes with it). A change whose chapter is deleted, trashed or unknown is unanchored: listed,
 *   never applied, never lost.
 * - Two changes of one field at the same chapter with different values contradict: reported, and
 *   the one recorded last holds (never a crash).
 * - `alias` reveals: each change adds one alias; an alias of the character that has a reveal is
 *   hidden before it. A relationship whose first `status` change is "active" has not started before it.
 *
 * Pure and fast: the timeline is built once per set of changes (a sort), and each state is a walk
 * over that entity's changes up to the cursor.
 */
import type { Character, CharacterRelationship, Location, RELATIONSHIP_TYPES } from '../entities.ts';
import type { StoryOrder } from './story-order.ts';
import type { CANON_CHARACTER_STATUSES, CANON_LOCATION_STATES, CanonChange, CanonEntityKind } from './wire.ts';

type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

/** A change placed in the story: `index` is its chapter's place in the narrative order. */
export interface AnchoredChange {
  readonly change: CanonChange;
  readonly index: number;
  /** The book its chapter is in now. */
  readonly bookId: string;
}

/** Changes of one field of one entity at one chapter that do not agree; the last one listed holds. */
export interface CanonContradiction {
  readonly entityKind: CanonEntityKind;
  readonly entityId: string;
  readonly field: string;
  readonly chapterId: string;
  readonly changes: readonly CanonChange[];
}

export interface CanonTimeline {
  /** Every anchored change in narrative order (chapter, then recorded order). */
  readonly anchored: readonly AnchoredChange[];
  /** Each entity's anchored changes, in the same order. */
  readonly byEntity: ReadonlyMap<string, readonly AnchoredChange[]>;
  /** Changes whose chapter is not in the story (deleted, trashed, or cleared by a restore). */
  readonly unanchored: readonly CanonChange[];
  readonly contradictions: readonly CanonContradiction[];
}

/** Recorded order: the server's creation stamp, then the id (UUIDv7, time-ordered) for ties. */
function byRecorded(a: CanonChange, b: CanonChange): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const sameValue = (a: CanonChange, b: CanonChange) => a.value === b.value && (a.locationId ?? null) === (b.locationId ?? null);

/** Places the live changes in the story. Deleted changes (tombstones) are left out. */
export function canonTimeline(order: StoryOrder, changes: readonly CanonChange[]): CanonTimeline {
  const anchored: AnchoredChange[] = [];
  const unanchored: CanonChange[] = [];
  for (const change of changes) {
    if (change.deletedAt !== null) continue;
    const index = change.chapterId === null ? undefined : order.chapterIndex.get(change.chapterId);
    if (index === undefined) unanchored.push(change);
    else anchored.push({ change, index, bookId: order.bookOfChapter.get(change.chapterId!)! });
  }
  anchored.sort((a, b) => a.index - b.index || byRecorded(a.change, b.change));
  unanchored.sort(byRecorded);

  const byEntity = new Map<string, AnchoredChange[]>();
  const contradictions: CanonContradiction[] = [];
  for (const placed of anchored) {
    const list = byEntity.get(placed.change.entityId);
    if (list) list.push(placed);
    else byEntity.set(placed.change.entityId, [placed]);
  }
  for (const list of byEntity.values()) {
    // Runs of one chapter: a field changed more than once there, to different values, contradicts.
    for (let start = 0; start < list.length; ) {
      let end = start + 1;
      while (end < list.length && list[end]!.index === list[start]!.index) end += 1;
      if (end - start > 1) {
        const byField = new Map<string, CanonChange[]>();
        for (let i = start; i < end; i += 1) {
          const change = list[i]!.change;
          if (change.field === 'alias') continue;
          byField.set(change.field, [...(byField.get(change.field) ?? []), change]);
        }
        for (const [field, group] of byField) {
          if (group.length > 1 && group.some((c) => !sameValue(c, group[0]!))) {
            const first = group[0]!;
            contradictions.push({ entityKind: first.entityKind, entityId: first.entityId, field, chapterId: first.chapterId!, changes: group });
          }
        }
      }
      start = end;
    }
  }
  return { anchored, byEntity, unanchored, contradictions };
}

/**
 * The change each field of an entity takes its value from as of `cursor` (fields never changed by
 * then are absent: the entity's own row holds), and the aliases revealed by then.
 */
export function fieldsAsOf(timeline: CanonTimeline, entityId: string, cursor: number): { fields: Map<string, AnchoredChange>; revealed: AnchoredChange[] } {
  const fields = new Map<string, AnchoredChange>();
  const revealed: AnchoredChange[] = [];
  for (const placed of timeline.byEntity.get(entityId) ?? []) {
    if (placed.index > cursor) break;
    if (placed.change.field === 'alias') revealed.push(placed);
    else fields.set(placed.change.field, placed);
  }
  return { fields, revealed };
}

/** A field's value as of the cursor and where it comes from (null: the entity's own row). */
export interface Sourced<T> {
  readonly value: T;
  readonly source: CanonChange | null;
}

const sourced = <T>(placed: AnchoredChange | undefined, own: T, read: (change: CanonChange) => T): Sourced<T> =>
  placed ? { value: read(placed.change), source: placed.change } : { value: own, source: null };

export type CanonCharacterStatus = (typeof CANON_CHARACTER_STATUSES)[number];
export type CanonLocationState = (typeof CANON_LOCATION_STATES)[number];

export interface CharacterAsOf {
  readonly id: string;
  readonly name: Sourced<string>;
  readonly status: Sourced<CanonCharacterStatus>;
  /** Where the character is: a place of the series and/or words; null until a change says. */
  readonly whereabouts: Sourced<{ locationId: string | null; detail: string } | null>;
  readonly affiliation: Sourced<string>;
  readonly age: Sourced<string>;
  readonly birthYear: Sourced<string>;
  readonly appearance: Sourced<string>;
  /** The other names known by then: the row's aliases without those revealed later, plus those revealed. */
  readonly aliases: readonly Sourced<string>[];
  /** Aliases of the row not yet revealed at the cursor (hidden from the screens, known to the checks). */
  readonly hiddenAliases: readonly string[];
}

type CharacterRow = Pick<Character, 'id' | 'name' | 'status' | 'age' | 'appearance' | 'aliases'>;

export function characterAsOf(timeline: CanonTimeline, character: CharacterRow, cursor: number): CharacterAsOf {
  const { fields, revealed } = fieldsAsOf(timeline, character.id, cursor);
  const text = (change: CanonChange) => change.value;
  // Aliases: the earliest reveal of each (case-insensitive) over the whole story decides when it is known.
  const firstReveal = new Map<string, AnchoredChange>();
  for (const placed of timeline.byEntity.get(character.id) ?? []) {
    const key = placed.change.value.trim().toLowerCase();
    if (placed.change.field === 'alias' && key !== '' && !firstReveal.has(key)) firstReveal.set(key, placed);
  }
  const aliases: Sourced<string>[] = [];
  const hiddenAliases: string[] = [];
  const shown = new Set<string>();
  for (const alias of character.aliases ?? []) {
    const reveal = firstReveal.get(alias.toLowerCase());
    if (reveal && reveal.index > cursor) hiddenAliases.push(alias);
    else aliases.push({ value: alias, source: reveal?.change ?? null });
    shown.add(alias.toLowerCase());
  }
  for (const placed of revealed) {
    const alias = placed.change.value.trim();
    if (alias === '' || shown.has(alias.toLowerCase())) continue;
    shown.add(alias.toLowerCase());
    aliases.push({ value: alias, source: placed.change });
  }
  return {
    id: character.id,
    name: sourced(fields.get('name'), character.name, text),
    status: sourced(fields.get('status'), character.status, (c) => c.value as CanonCharacterStatus),
    whereabouts: sourced(fields.get('whereabouts'), null, (c) => ({ locationId: c.locationId, detail: c.value })),
    affiliation: sourced(fields.get('affiliation'), '', text),
    age: sourced(fields.get('age'), character.age, text),
    birthYear: sourced(fields.get('birthYear'), '', text),
    appearance: sourced(fields.get('appearance'), character.appearance, text),
    aliases,
    hiddenAliases,
  };
}

/** Every character's state at one cursor (the characters screen, the companion's material). */
export function charactersAsOf(timeline: CanonTimeline, characters: readonly CharacterRow[], cursor: number): CharacterAsOf[] {
  return characters.map((character) => characterAsOf(timeline, character, cursor));
}

export interface LocationAsOf {
  readonly id: string;
  readonly name: Sourced<string>;
  readonly state: Sourced<CanonLocationState>;
  readonly description: Sourced<string>;
}

export function locationAsOf(timeline: CanonTimeline, location: Pick<Location, 'id' | 'name' | 'description'>, cursor: number): LocationAsOf {
  const { fields } = fieldsAsOf(timeline, location.id, cursor);
  return {
    id: location.id,
    name: sourced(fields.get('name'), location.name, (c) => c.value),
    state: sourced(fields.get('state'), 'standing', (c) => c.value as CanonLocationState),
    description: sourced(fields.get('description'), location.description, (c) => c.value),
  };
}

export interface RelationshipAsOf {
  readonly id: string;
  /** False before the relationship starts (its first status change is "active" and comes later). */
  readonly started: boolean;
  readonly status: Sourced<'active' | 'ended'>;
  readonly relationshipType: Sourced<RelationshipType>;
  readonly description: Sourced<string>;
}

export function relationshipAsOf(
  timeline: CanonTimeline,
  relationship: Pick<CharacterRelationship, 'id' | 'relationshipType' | 'description'>,
  cursor: number,
): RelationshipAsOf {
  const { fields } = fieldsAsOf(timeline, relationship.id, cursor);
  const firstStatus = (timeline.byEntity.get(relationship.id) ?? []).find((placed) => placed.change.field === 'status');
  const startsLater = firstStatus !== undefined && firstStatus.change.value === 'active' && firstStatus.index > cursor;
  return {
    id: relationship.id,
    started: !startsLater,
    status: sourced(fields.get('status'), 'active', (c) => c.value as 'active' | 'ended'),
    relationshipType: sourced(fields.get('relationshipType'), relationship.relationshipType, (c) => c.value as RelationshipType),
    description: sourced(fields.get('description'), relationship.description, (c) => c.value),
  };
}

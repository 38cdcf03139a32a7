/**
 * Canon changes (docs/decisions/0017-canon-changes.md): a change of one field of a character, a
 * location or a relationship at a story point — a book and a chapter, optionally an in-world date
 * or the timeline event that records it. Rows of their own, field-level: an earlier change holds
 * until the next change of the same field (resolve.ts). The entity's own row is what holds before
 * the first change of a field.
 */
import { z } from 'zod';
import { type EntityKind, LIMITS, RELATIONSHIP_TYPES, syncedRowSchema } from '../entities.ts';

const id = z.uuid({ error: 'Must be a valid id' });

/** The kinds of entity a change is about, as the API names them. */
export const CANON_ENTITY_KINDS = ['character', 'location', 'relationship'] as const;
export type CanonEntityKind = (typeof CANON_ENTITY_KINDS)[number];
/** The synced kind (table) holding each. */
export const CANON_ENTITY_TABLES = {
  character: 'characters',
  location: 'locations',
  relationship: 'characterRelationships',
} as const satisfies Record<CanonEntityKind, EntityKind>;
const NOUNS: Record<CanonEntityKind, string> = { character: 'A character', location: 'A location', relationship: 'A relationship' };

/** A character's status over time: the row's statuses and "missing". */
export const CANON_CHARACTER_STATUSES = ['alive', 'deceased', 'missing', 'unknown'] as const;
/** A place's state over time. */
export const CANON_LOCATION_STATES = ['standing', 'damaged', 'destroyed', 'abandoned', 'occupied', 'unknown'] as const;
/** Whether a relationship holds: one that starts later is hidden before it starts. */
export const CANON_RELATIONSHIP_STATES = ['active', 'ended'] as const;

/**
 * How a field's value is written: one of a list, free text up to a length, a year, or a place
 * (`locationId` names the place; `value` may add words such as "in the dungeons").
 */
export type CanonFieldRule =
  | { type: 'choice'; values: readonly string[] }
  | { type: 'text'; max: number; mayBeEmpty?: boolean }
  | { type: 'year' }
  | { type: 'place' };

const shortText = { type: 'text', max: LIMITS.shortText } as const;
/** Text that may be cleared (an affiliation given up, a description emptied). */
const clearableText = { type: 'text', max: LIMITS.shortText, mayBeEmpty: true } as const;
const longText = { type: 'text', max: LIMITS.longText, mayBeEmpty: true } as const;

/**
 * Every field a change may set, per entity kind. `alias` is a revealed alias: the value is one of
 * the character's other names, hidden before the change that reveals it (resolve.ts).
 */
export const CANON_FIELDS = {
  character: {
    status: { type: 'choice', values: CANON_CHARACTER_STATUSES },
    whereabouts: { type: 'place' },
    affiliation: clearableText,
    name: shortText,
    alias: shortText,
    age: shortText,
    birthYear: { type: 'year' },
    appearance: longText,
  },
  location: {
    state: { type: 'choice', values: CANON_LOCATION_STATES },
    name: shortText,
    description: longText,
  },
  relationship: {
    status: { type: 'choice', values: CANON_RELATIONSHIP_STATES },
    relationshipType: { type: 'choice', values: RELATIONSHIP_TYPES },
    description: longText,
  },
} as const satisfies Record<CanonEntityKind, Record<string, CanonFieldRule>>;

/** Each field's name for the author (the bible, the findings). */
export const CANON_FIELD_LABELS: Readonly<Record<string, string>> = {
  status: 'Status',
  whereabouts: 'Whereabouts',
  affiliation: 'Affiliation',
  name: 'Name',
  alias: 'Alias revealed',
  age: 'Age',
  birthYear: 'Birth year',
  appearance: 'Appearance',
  state: 'State',
  relationshipType: 'Type',
  description: 'Description',
};

export type CanonFieldOf<E extends CanonEntityKind> = keyof (typeof CANON_FIELDS)[E] & string;
export type CanonField = { [E in CanonEntityKind]: CanonFieldOf<E> }[CanonEntityKind];

/** The rule of `field` for `entityKind`, or null when a change of that kind cannot set it. */
export function canonFieldRule(entityKind: CanonEntityKind, field: string): CanonFieldRule | null {
  const fields = CANON_FIELDS[entityKind] as Record<string, CanonFieldRule>;
  return Object.hasOwn(fields, field) ? fields[field]! : null;
}

/** The most characters a change's note may have (why the change happened, or where it is told). */
export const CANON_NOTE_MAX = 2_000;
const YEAR = /^-?\d{1,6}$/;

/**
 * What is wrong with a change's field and value (and place), or null when they fit; the same
 * check on both sides (the server's create and update, the device's forms).
 */
export function canonValueProblem(
  entityKind: CanonEntityKind,
  field: string,
  value: string,
  locationId: string | null,
): { field: 'field' | 'value' | 'locationId'; message: string } | null {
  const rule = canonFieldRule(entityKind, field);
  if (!rule) return { field: 'field', message: `${NOUNS[entityKind]} has no field "${field}" to change` };
  if (rule.type !== 'place' && locationId !== null) return { field: 'locationId', message: 'Only a change of whereabouts names a place' };
  switch (rule.type) {
    case 'choice':
      return rule.values.includes(value) ? null : { field: 'value', message: `Must be one of: ${rule.values.join(', ')}` };
    case 'year':
      return YEAR.test(value.trim()) ? null : { field: 'value', message: 'Must be a year (a whole number)' };
    case 'text':
      if (!rule.mayBeEmpty && value.trim() === '') return { field: 'value', message: 'Must not be empty' };
      return value.length <= rule.max ? null : { field: 'value', message: `Must be at most ${rule.max} characters` };
    case 'place':
      return value.length <= LIMITS.shortText ? null : { field: 'value', message: `Must be at most ${LIMITS.shortText} characters` };
  }
}

export const canonEntityKindSchema = z.enum(CANON_ENTITY_KINDS);

export const canonChangeSchema = syncedRowSchema.extend({
  seriesId: id,
  entityKind: canonEntityKindSchema,
  /** The character, location or relationship changed; deleted with it. */
  entityId: id,
  field: z.string(),
  value: z.string(),
  /** The place of a whereabouts change; null otherwise (and when the place was deleted). */
  locationId: id.nullable(),
  /**
   * The story point. A chapter that is deleted leaves the change unanchored (listed, never
   * applied, never lost); the book is the one the chapter was in when the change was recorded —
   * the chapter's own book wins when it has moved since.
   */
  bookId: id.nullable(),
  chapterId: id.nullable(),
  /** The timeline event that records the change ("Mara dies"); cleared when it is deleted. */
  timelineEventId: id.nullable(),
  /** The in-world date, as the timeline writes dates (free text). */
  date: z.string(),
  note: z.string(),
});
export type CanonChange = z.infer<typeof canonChangeSchema>;

const valueText = z.string().max(LIMITS.longText, { error: `Must be at most ${LIMITS.longText} characters` });
const noteText = z.string().max(CANON_NOTE_MAX, { error: `Must be at most ${CANON_NOTE_MAX} characters` });
const dateText = z.string().max(LIMITS.shortText, { error: `Must be at most ${LIMITS.shortText} characters` });

export const createCanonChangeBodySchema = z
  .strictObject({
    id: id.optional(),
    seriesId: z.uuid({ error: 'Please select a series first' }),
    entityKind: canonEntityKindSchema,
    entityId: id,
    field: z.string().max(60),
    value: valueText.default(''),
    locationId: id.nullable().default(null),
    bookId: z.uuid({ error: 'Choose the book where the change happens' }),
    chapterId: z.uuid({ error: 'Choose the chapter where the change happens' }),
    timelineEventId: id.nullable().default(null),
    date: dateText.default(''),
    note: noteText.default(''),
  })
  .superRefine((body, ctx) => {
    const problem = canonValueProblem(body.entityKind, body.field, body.value, body.locationId);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.message, path: [problem.field] });
  });
export type CreateCanonChangeBody = z.input<typeof createCanonChangeBodySchema>;

/**
 * What an update may change: the value (checked against the stored field by the server), the story
 * point (re-anchoring an unanchored change), the place, the event, the date and the note. The
 * entity and the field are the change's identity: record another change instead.
 */
export const updateCanonChangeBodySchema = z.strictObject({
  value: valueText.optional(),
  locationId: id.nullable().optional(),
  bookId: z.uuid({ error: 'Choose the book where the change happens' }).optional(),
  chapterId: z.uuid({ error: 'Choose the chapter where the change happens' }).optional(),
  timelineEventId: id.nullable().optional(),
  date: dateText.optional(),
  note: noteText.optional(),
});
export type UpdateCanonChangeBody = z.input<typeof updateCanonChangeBodySchema>;

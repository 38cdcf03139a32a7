/**
 * World entries (docs/decisions/0020-world-entries.md): the World page's Cultures, Magic Systems,
 * Flora & Fauna, Technology and Politics tabs, one synced series-scoped kind with a `category`. An
 * entry has a name, a summary, a description in the manuscript's markup
 * (docs/decisions/0009-chapter-markup.md), tags, the books it appears in, the fields of its
 * category, and links to characters, places and other entries. Links are lists of ids, so the
 * delete cascade takes a deleted target out of them on both sides (delete-cascade.ts
 * `removeFromList`); screens still read an id they do not find as a removed link.
 */
import { z } from 'zod';
import { BOOK_APPEARANCE_MAX, LIMITS, syncedRowSchema } from '../entities.ts';

const id = z.uuid({ error: 'Must be a valid id' });

/** The categories, one per World tab after Locations (spec 001 §2's tab order). */
export const WORLD_CATEGORIES = ['culture', 'magicSystem', 'floraFauna', 'technology', 'politics'] as const;
export type WorldCategory = (typeof WORLD_CATEGORIES)[number];
export const worldCategorySchema = z.enum(WORLD_CATEGORIES, { error: 'Choose a kind of entry' });

/** How a category is named: its tab, one entry, and what the author reads in messages. */
export interface WorldCategoryNames {
  /** The tab's label (spec 001 §2). */
  readonly tab: string;
  /** One entry, capitalised: 'Culture', 'Faction'. */
  readonly one: string;
  /** Entries in a sentence: 'cultures', 'factions'. */
  readonly many: string;
}

export const WORLD_CATEGORY_NAMES: Readonly<Record<WorldCategory, WorldCategoryNames>> = {
  culture: { tab: 'Cultures', one: 'Culture', many: 'cultures' },
  magicSystem: { tab: 'Magic Systems', one: 'Magic system', many: 'magic systems' },
  floraFauna: { tab: 'Flora & Fauna', one: 'Species', many: 'species' },
  technology: { tab: 'Technology', one: 'Technology', many: 'technologies' },
  politics: { tab: 'Politics', one: 'Faction', many: 'factions' },
};

/** The messages of an entry's form and API, worded as the spec words a location's (001 §5). */
export const WORLD_MESSAGES = {
  /** 'Culture name is required', as 'Location name is required'. */
  nameRequired: (category: WorldCategory) => `${WORLD_CATEGORY_NAMES[category].one} name is required`,
  /** An update does not restate the category. */
  nameRequiredAny: 'Name is required',
  seriesRequired: 'No series selected',
  /** As the spec's confirmation for a location (001 §5). */
  confirmDelete: (category: WorldCategory) =>
    `Are you sure you want to delete this ${WORLD_CATEGORY_NAMES[category].one.toLowerCase()}? This action cannot be undone.`,
  selfLink: 'An entry cannot link to itself',
} as const;

/** How dangerous a species is (Flora & Fauna). */
export const WORLD_DANGER_LEVELS = ['unknown', 'harmless', 'low', 'moderate', 'high', 'deadly'] as const;
export type WorldDanger = (typeof WORLD_DANGER_LEVELS)[number];

/** The most tags an entry has, and the most characters of one. */
export const WORLD_TAGS_MAX = 20;
export const WORLD_TAG_MAX_CHARS = 40;
/** The most characters of an entry's summary (a line or two under its name). */
export const WORLD_SUMMARY_MAX = 500;

/**
 * The fields only one category has, with their "empty" value: a body setting another category's
 * field is refused (worldFieldProblem), so what an author types always shows on the entry's tab.
 * The category is fixed at creation (it is the entry's tab).
 */
export const WORLD_CATEGORY_FIELDS = {
  culture: { language: '', beliefs: '', customs: '' },
  magicSystem: { source: '', costs: '', limitations: '' },
  floraFauna: { habitat: '', danger: 'unknown' },
  technology: { era: '' },
  politics: { goals: '', leaderId: null, allyIds: [], enemyIds: [] },
} as const satisfies Record<WorldCategory, Record<string, unknown>>;

/** Every category-only field, and the category that has it. */
export const WORLD_FIELD_CATEGORY: Readonly<Record<string, WorldCategory>> = Object.fromEntries(
  WORLD_CATEGORIES.flatMap((category) => Object.keys(WORLD_CATEGORY_FIELDS[category]).map((field) => [field, category] as const)),
);

/** Labels of the category fields (the forms, the series bible). */
export const WORLD_FIELD_LABELS: Readonly<Record<string, string>> = {
  language: 'Language',
  beliefs: 'Beliefs',
  customs: 'Customs',
  source: 'Source',
  costs: 'Costs',
  limitations: 'Limits',
  habitat: 'Habitat',
  danger: 'Danger',
  era: 'Era',
  goals: 'Goals',
  leaderId: 'Leader',
  allyIds: 'Allies',
  enemyIds: 'Enemies',
};

function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 'unknown') return true;
  return Array.isArray(value) && value.length === 0;
}

/**
 * The first field of `body` that another category has and that carries a value, as an issue; null
 * when every field fits `category`. The same check on both sides (the create body, the server's
 * update against the stored category).
 */
export function worldFieldProblem(category: WorldCategory, body: Readonly<Record<string, unknown>>): { field: string; message: string } | null {
  for (const [field, owner] of Object.entries(WORLD_FIELD_CATEGORY)) {
    if (owner === category || isEmptyValue(body[field])) continue;
    const label = WORLD_FIELD_LABELS[field]!.toLowerCase();
    return { field, message: `A ${WORLD_CATEGORY_NAMES[category].one.toLowerCase()} has no ${label}; it belongs to ${WORLD_CATEGORY_NAMES[owner].many}` };
  }
  return null;
}

/** The link fields of an entry and the kind each names (the cascade, backups, the links shown on both sides). */
export const WORLD_LINK_FIELDS = {
  characterIds: 'characters',
  locationIds: 'locations',
  entryIds: 'worldEntries',
  allyIds: 'worldEntries',
  enemyIds: 'worldEntries',
} as const;
export type WorldLinkField = keyof typeof WORLD_LINK_FIELDS;
export const WORLD_LINK_LIST_FIELDS = Object.keys(WORLD_LINK_FIELDS) as WorldLinkField[];

// ---------------------------------------------------------------------------------------------
// The row

export const worldEntrySchema = syncedRowSchema.extend({
  seriesId: id,
  category: worldCategorySchema,
  name: z.string(),
  summary: z.string(),
  /** Marked text, as a chapter's (docs/decisions/0009-chapter-markup.md). */
  description: z.string(),
  tags: z.array(z.string()),
  /** Book numbers, as a character's (book-appearances.ts): the companion's spoiler rule reads them. */
  bookAppearances: z.array(z.number().int()),
  // Culture
  language: z.string(),
  beliefs: z.string(),
  customs: z.string(),
  // Magic system
  source: z.string(),
  costs: z.string(),
  limitations: z.string(),
  // Flora & fauna
  habitat: z.string(),
  danger: z.enum(WORLD_DANGER_LEVELS),
  // Technology
  era: z.string(),
  // Politics: the leader is a character (cleared when deleted); allies and enemies are entries.
  goals: z.string(),
  leaderId: id.nullable(),
  allyIds: z.array(id),
  enemyIds: z.array(id),
  // Links of every category.
  characterIds: z.array(id),
  locationIds: z.array(id),
  entryIds: z.array(id),
});
export type WorldEntry = z.infer<typeof worldEntrySchema>;

// ---------------------------------------------------------------------------------------------
// Bodies

function text(max: number) {
  return z.string().max(max, { error: `Must be at most ${max} characters` });
}
const shortText = text(LIMITS.shortText);
const longText = text(LIMITS.longText);

/** Ids, each once, at most LIMITS.characterIds. */
const idList = z
  .array(id)
  .max(LIMITS.characterIds, { error: `At most ${LIMITS.characterIds} links` })
  .transform((ids) => [...new Set(ids)]);

/** Trimmed, blanks dropped, repeats (ignoring case) kept once, in the author's order. */
const tags = z
  .array(text(WORLD_TAG_MAX_CHARS).transform((t) => t.trim()))
  .transform((list) => {
    const seen = new Set<string>();
    return list.filter((t) => t !== '' && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
  })
  .pipe(z.array(z.string()).max(WORLD_TAGS_MAX, { error: `At most ${WORLD_TAGS_MAX} tags` }));

const bookAppearances = z
  .array(z.number().int().min(1).max(BOOK_APPEARANCE_MAX))
  .max(BOOK_APPEARANCE_MAX)
  .transform((nums) => [...new Set(nums)].sort((a, b) => a - b));

/** The fields an update may set; a create sets them too (with defaults). */
const entryFields = {
  summary: text(WORLD_SUMMARY_MAX),
  description: longText,
  tags,
  bookAppearances,
  language: shortText,
  beliefs: longText,
  customs: longText,
  source: longText,
  costs: longText,
  limitations: longText,
  habitat: longText,
  danger: z.enum(WORLD_DANGER_LEVELS),
  era: shortText,
  goals: longText,
  leaderId: id.nullable(),
  allyIds: idList,
  enemyIds: idList,
  characterIds: idList,
  locationIds: idList,
  entryIds: idList,
};

/** The entry's own id among its entry links. */
function linksItself(entryId: string | undefined, body: { entryIds?: string[]; allyIds?: string[]; enemyIds?: string[] }): string | null {
  if (entryId === undefined) return null;
  for (const field of ['entryIds', 'allyIds', 'enemyIds'] as const) if (body[field]?.includes(entryId)) return field;
  return null;
}

export const createWorldEntryBodySchema = z
  .strictObject({
    id: id.optional(),
    seriesId: z.uuid({ error: WORLD_MESSAGES.seriesRequired }),
    category: worldCategorySchema,
    // The name's message names the category: checked below, where the category is known.
    name: z.string({ error: WORLD_MESSAGES.nameRequiredAny }).trim().max(LIMITS.shortText, { error: `Must be at most ${LIMITS.shortText} characters` }),
    summary: entryFields.summary.default(''),
    description: entryFields.description.default(''),
    tags: entryFields.tags.default([]),
    bookAppearances: entryFields.bookAppearances.default([]),
    language: entryFields.language.default(''),
    beliefs: entryFields.beliefs.default(''),
    customs: entryFields.customs.default(''),
    source: entryFields.source.default(''),
    costs: entryFields.costs.default(''),
    limitations: entryFields.limitations.default(''),
    habitat: entryFields.habitat.default(''),
    danger: entryFields.danger.default('unknown'),
    era: entryFields.era.default(''),
    goals: entryFields.goals.default(''),
    leaderId: entryFields.leaderId.default(null),
    allyIds: entryFields.allyIds.default([]),
    enemyIds: entryFields.enemyIds.default([]),
    characterIds: entryFields.characterIds.default([]),
    locationIds: entryFields.locationIds.default([]),
    entryIds: entryFields.entryIds.default([]),
  })
  .superRefine((body, ctx) => {
    if (body.name === '') ctx.addIssue({ code: 'custom', message: WORLD_MESSAGES.nameRequired(body.category), path: ['name'] });
    const problem = worldFieldProblem(body.category, body);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.message, path: [problem.field] });
    const self = linksItself(body.id, body);
    if (self) ctx.addIssue({ code: 'custom', message: WORLD_MESSAGES.selfLink, path: [self] });
  });
export type CreateWorldEntryBody = z.input<typeof createWorldEntryBodySchema>;

/**
 * Any field but the series and the category (the entry's tab): the server checks the category's
 * fields and self links against the stored entry.
 */
export const updateWorldEntryBodySchema = z.strictObject({
  name: z
    .string({ error: WORLD_MESSAGES.nameRequiredAny })
    .trim()
    .min(1, { error: WORLD_MESSAGES.nameRequiredAny })
    .max(LIMITS.shortText, { error: `Must be at most ${LIMITS.shortText} characters` })
    .optional(),
  ...Object.fromEntries(Object.entries(entryFields).map(([field, schema]) => [field, schema.optional()])),
} as { name: z.ZodOptional<z.ZodString> } & { [F in keyof typeof entryFields]: z.ZodOptional<(typeof entryFields)[F]> });
export type UpdateWorldEntryBody = z.input<typeof updateWorldEntryBodySchema>;

/** What is wrong with an update of a stored entry (another category's field, a link to itself), or null. */
export function worldUpdateProblem(entry: Pick<WorldEntry, 'id' | 'category'>, body: Readonly<Record<string, unknown>>): { field: string; message: string } | null {
  const problem = worldFieldProblem(entry.category, body);
  if (problem) return problem;
  const self = linksItself(entry.id, body as { entryIds?: string[] });
  return self ? { field: self, message: WORLD_MESSAGES.selfLink } : null;
}

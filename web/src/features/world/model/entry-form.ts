/**
 * The world entry dialog's values (docs/decisions/0020-world-entries.md): defaults, checks and the
 * request bodies. Only the fields of the entry's category are sent; an edit sends what changed.
 */
import {
  type CreateWorldEntryBody,
  type UpdateWorldEntryBody,
  WORLD_CATEGORY_FIELDS,
  WORLD_MESSAGES,
  type WorldCategory,
  type WorldDanger,
  type WorldEntry,
} from '@chronicler/schema';

export interface EntryFormValues {
  name: string;
  summary: string;
  /** Marked text (docs/decisions/0009-chapter-markup.md). */
  description: string;
  tags: string[];
  bookAppearances: number[];
  language: string;
  beliefs: string;
  customs: string;
  source: string;
  costs: string;
  limitations: string;
  habitat: string;
  danger: WorldDanger;
  era: string;
  goals: string;
  /** '' for none. */
  leaderId: string;
  allyIds: string[];
  enemyIds: string[];
  characterIds: string[];
  locationIds: string[];
  entryIds: string[];
}

export type EntryFormErrors = Partial<Record<keyof EntryFormValues, string>>;

export function emptyEntryForm(): EntryFormValues {
  return {
    name: '', summary: '', description: '', tags: [], bookAppearances: [],
    language: '', beliefs: '', customs: '', source: '', costs: '', limitations: '', habitat: '', danger: 'unknown', era: '', goals: '',
    leaderId: '', allyIds: [], enemyIds: [], characterIds: [], locationIds: [], entryIds: [],
  };
}

export function formFromEntry(entry: WorldEntry): EntryFormValues {
  return {
    name: entry.name, summary: entry.summary, description: entry.description, tags: [...entry.tags], bookAppearances: [...entry.bookAppearances],
    language: entry.language, beliefs: entry.beliefs, customs: entry.customs, source: entry.source, costs: entry.costs, limitations: entry.limitations,
    habitat: entry.habitat, danger: entry.danger, era: entry.era, goals: entry.goals,
    leaderId: entry.leaderId ?? '', allyIds: [...entry.allyIds], enemyIds: [...entry.enemyIds],
    characterIds: [...entry.characterIds], locationIds: [...entry.locationIds], entryIds: [...entry.entryIds],
  };
}

/** Field messages; empty when the form may be submitted. */
export function validateEntryForm(category: WorldCategory, values: EntryFormValues): EntryFormErrors {
  return values.name.trim() === '' ? { name: WORLD_MESSAGES.nameRequired(category) } : {};
}

const COMMON = ['name', 'summary', 'description', 'tags', 'bookAppearances', 'characterIds', 'locationIds', 'entryIds'] as const;

/** The fields a body of `category` carries, trimmed as the server stores them. */
function normalised(category: WorldCategory, values: EntryFormValues): Record<string, unknown> {
  const all: Record<string, unknown> = {
    ...values,
    name: values.name.trim(),
    summary: values.summary.trim(),
    description: values.description.trimEnd(),
    language: values.language.trim(),
    era: values.era.trim(),
    leaderId: values.leaderId === '' ? null : values.leaderId,
    bookAppearances: [...new Set(values.bookAppearances)].sort((a, b) => a - b),
  };
  const fields = [...COMMON, ...Object.keys(WORLD_CATEGORY_FIELDS[category])];
  return Object.fromEntries(fields.map((field) => [field, all[field]]));
}

export function createBodyFromForm(seriesId: string, category: WorldCategory, values: EntryFormValues): CreateWorldEntryBody {
  return { seriesId, category, ...normalised(category, values) } as CreateWorldEntryBody;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Only the fields that changed (a field the author did not touch keeps the server's value). */
export function updateBodyFromForm(original: WorldEntry, values: EntryFormValues): UpdateWorldEntryBody {
  const next = normalised(original.category, values);
  const stored = original as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.entries(next).filter(([field, value]) => !same(value, stored[field]))) as UpdateWorldEntryBody;
}

/**
 * The New Character / edit dialog's values (spec 001 §3) and their mapping to the mutators' bodies.
 */
import {
  CHARACTER_ROLES,
  CHARACTER_STATUSES,
  type Character,
  type CreateCharacterBody,
  type UpdateCharacterBody,
} from '@chronicler/schema';

export type CharacterRole = Character['role'];
export type CharacterStatus = Character['status'];

export const ROLE_LABELS: Readonly<Record<CharacterRole, string>> = {
  protagonist: 'Protagonist',
  antagonist: 'Antagonist',
  supporting: 'Supporting',
  mentor: 'Mentor',
  comic_relief: 'Comic Relief',
  minor: 'Minor',
};

export const STATUS_LABELS: Readonly<Record<CharacterStatus, string>> = {
  alive: 'Alive',
  deceased: 'Deceased',
  unknown: 'Unknown',
};

export const ROLE_OPTIONS = CHARACTER_ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }));
export const STATUS_OPTIONS = CHARACTER_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));

export interface CharacterFormValues {
  name: string;
  role: CharacterRole;
  age: string;
  occupation: string;
  status: CharacterStatus;
  description: string;
  appearance: string;
  personality: string;
  goals: string;
  backstory: string;
  /** Checkbox values: book numbers (positions in the series) as text (packages/schema book-appearances.ts). */
  bookAppearances: string[];
  isProtagonist: boolean;
  avatarUrl: string;
  /** Other names the character goes by (the companion matches them like the name). */
  aliases: string[];
  /** Always in the companion's context for an AI model (spoiler rule still applies). */
  alwaysInclude: boolean;
}

export function emptyCharacterForm(): CharacterFormValues {
  return {
    name: '',
    role: 'supporting',
    age: '',
    occupation: '',
    status: 'alive',
    description: '',
    appearance: '',
    personality: '',
    goals: '',
    backstory: '',
    bookAppearances: [],
    isProtagonist: false,
    avatarUrl: '',
    aliases: [],
    alwaysInclude: false,
  };
}

export function formFromCharacter(c: Character): CharacterFormValues {
  return {
    name: c.name,
    role: c.role,
    age: c.age,
    occupation: c.occupation,
    status: c.status,
    description: c.description,
    appearance: c.appearance,
    personality: c.personality,
    goals: c.goals,
    backstory: c.backstory,
    bookAppearances: c.bookAppearances.map(String),
    isProtagonist: c.isProtagonist,
    avatarUrl: c.avatarUrl ?? c.avatar ?? '',
    aliases: [...c.aliases],
    alwaysInclude: c.alwaysInclude,
  };
}

function books(values: readonly string[]): number[] {
  return [...new Set(values.map(Number).filter((n) => Number.isInteger(n) && n >= 1))].sort((a, b) => a - b);
}

/**
 * The role changes. A protagonist is a main character by default (docs/spec-differences.md):
 * choosing the role Protagonist turns "Main character" on, and choosing another role turns it back
 * off — unless the author set the switch themselves (`mainChosen`), which always wins.
 */
export function withRole(values: CharacterFormValues, role: CharacterRole, mainChosen: boolean): CharacterFormValues {
  if (mainChosen || role === values.role) return { ...values, role };
  if (role === 'protagonist') return { ...values, role, isProtagonist: true };
  if (values.role === 'protagonist') return { ...values, role, isProtagonist: false };
  return { ...values, role };
}

/** The create body: every field, bookAppearances always an array (001 §7). */
export function createBodyFromForm(seriesId: string, v: CharacterFormValues): CreateCharacterBody {
  const avatarUrl = v.avatarUrl.trim();
  return {
    seriesId,
    name: v.name.trim(),
    role: v.role,
    age: v.age.trim(),
    occupation: v.occupation.trim(),
    status: v.status,
    description: v.description,
    appearance: v.appearance,
    personality: v.personality,
    goals: v.goals,
    backstory: v.backstory,
    bookAppearances: books(v.bookAppearances),
    isProtagonist: v.isProtagonist,
    avatarUrl: avatarUrl === '' ? null : avatarUrl,
    // Trimmed and de-duplicated by the schema (packages/schema characterAliases) on the way to the store.
    aliases: v.aliases,
    alwaysInclude: v.alwaysInclude,
  };
}

/** Only the fields that changed (partial update, 001 §7); {} when nothing did. */
export function updateBodyFromForm(original: Character, v: CharacterFormValues): UpdateCharacterBody {
  const next = createBodyFromForm(original.seriesId, v);
  const body: Record<string, unknown> = {};
  const keys = [
    'name', 'role', 'age', 'occupation', 'status', 'description', 'appearance', 'personality', 'goals', 'backstory', 'isProtagonist', 'alwaysInclude',
  ] as const;
  for (const key of keys) if (next[key] !== original[key]) body[key] = next[key];
  const nextBooks = next.bookAppearances ?? [];
  const oldBooks = books(original.bookAppearances.map(String));
  if (nextBooks.join(',') !== oldBooks.join(',')) body.bookAppearances = nextBooks;
  const nextAliases = next.aliases ?? [];
  if (nextAliases.join('\n') !== original.aliases.join('\n')) body.aliases = nextAliases;
  const originalUrl = original.avatarUrl ?? original.avatar ?? null;
  if ((next.avatarUrl ?? null) !== originalUrl) body.avatarUrl = next.avatarUrl ?? null;
  return body as UpdateCharacterBody;
}

/** Initials for an avatar fallback: "Ged Sparrowhawk" → "GS". */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]![0], parts[parts.length - 1]![0]] : [parts[0]?.[0], parts[0]?.[1]];
  return letters.filter(Boolean).join('').toUpperCase() || '?';
}

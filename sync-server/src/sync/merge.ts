/**
 * Merging an update with what happened on the server since the client's base revision
 * (docs/sync-protocol.md#fields-merge and #chapter-text-merge). Pure functions: the entity update
 * helper loads the rows and the base snapshot, asks `planUpdate` what to write, and writes it.
 */
import { type MergeStatus, mergeChapterText } from '@chronicler/schema';

export type FieldValues = Readonly<Record<string, unknown>>;

/** Field equality as the wire sees it: arrays (bookAppearances, characterIds) compare by content. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fields of `incoming` the client changed relative to its base. Without a base snapshot every
 * field counts as changed (the client's intent cannot be told apart from stale copies).
 */
export function changedFields(incoming: FieldValues, base: FieldValues | null): string[] {
  return Object.keys(incoming).filter((key) => incoming[key] !== undefined && (base === null || !sameValue(incoming[key], base[key])));
}

// ---------------------------------------------------------------------------------------------
// Chapter text

export interface TextMerge {
  /** The text to save: the clean merge, or — when some region conflicts — the current text there. */
  text: string;
  /** True when some incoming change could not be merged; the caller keeps the incoming text as a copy. */
  conflict: boolean;
}

/**
 * Three-way merge of chapter text: the shared `mergeChapterText` (the editor's merge-before-save
 * is the same code), which also bounds the work (past the bound: a conflict, the current text
 * stays). `base` null (the base revision is unknown): nothing can be merged, so any difference
 * from the current text is a conflict.
 */
export function mergeText(base: string | null, current: string, incoming: string): TextMerge {
  if (incoming === current) return { text: current, conflict: false };
  if (base === null) return { text: current, conflict: true };
  const merged = mergeChapterText(base, current, incoming);
  return { text: merged.text, conflict: merged.conflict !== null };
}

// ---------------------------------------------------------------------------------------------
// Whole updates

export type ConflictReason = 'conflict' | 'edited-after-delete';

export interface UpdatePlanInput {
  /** The stored row (wire shape), possibly deleted. */
  current: FieldValues & { rev: number; deletedAt: string | null };
  /** X-Base-Rev, or null when the client sent none. */
  baseRev: number | null;
  /** The row as of `baseRev` (its latest snapshot at or before it), or null when unknown. */
  base: FieldValues | null;
  /** The body's fields (already validated; undefined means "not sent"). */
  incoming: FieldValues;
  /** The field merged as text rather than last-arrival-wins: `content` for chapters. */
  textField?: string | undefined;
}

export interface UpdatePlan {
  status: MergeStatus;
  /** Fields to write; empty when the row is deleted. */
  patch: Record<string, unknown>;
  /** Set when the incoming text must be kept as a conflict copy. */
  conflictCopy: { reason: ConflictReason } | null;
}

/**
 * What to write for an update:
 * - deleted row → nothing (deletes win), except changed text, which becomes an
 *   'edited-after-delete' copy;
 * - no base revision → plain write of the body ('applied');
 * - base at (or past) the current revision → plain write ('fast-forward');
 * - otherwise fields the client did not change keep the server's value, changed fields win
 *   (last arrival), and text is merged three-way ('merged', or 'conflict' with a copy).
 */
export function planUpdate(input: UpdatePlanInput): UpdatePlan {
  const { current, baseRev, base, textField } = input;
  const incoming = definedFields(input.incoming);

  if (current.deletedAt !== null) {
    const text = textField === undefined ? undefined : incoming[textField];
    const textChanged =
      typeof text === 'string' &&
      text !== current[textField!] &&
      (base === null || baseRev === null || text !== base[textField!]);
    return { status: 'deleted', patch: {}, conflictCopy: textChanged ? { reason: 'edited-after-delete' } : null };
  }
  if (baseRev === null) return { status: 'applied', patch: incoming, conflictCopy: null };
  if (baseRev >= current.rev) return { status: 'fast-forward', patch: incoming, conflictCopy: null };

  const patch: Record<string, unknown> = {};
  for (const key of changedFields(incoming, base)) patch[key] = incoming[key];

  let status: MergeStatus = 'merged';
  let conflictCopy: UpdatePlan['conflictCopy'] = null;
  if (textField !== undefined && typeof patch[textField] === 'string') {
    const baseText = base === null ? null : (base[textField] as string);
    const merged = mergeText(baseText, current[textField] as string, patch[textField] as string);
    patch[textField] = merged.text;
    if (merged.conflict) {
      status = 'conflict';
      conflictCopy = { reason: 'conflict' };
    }
  }
  return { status, patch, conflictCopy };
}

function definedFields(values: FieldValues): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/**
 * The chapter editor's decisions, without React (docs/web.md#the-chapter-editor, docs/sync-protocol.md#chapter-text-merge).
 *
 * Three versions meet in the editor: the BASE (the last saved state the editor's text derives
 * from), the LOCAL input (what the author has typed) and ELSEWHERE (a newer saved state that
 * arrived from sync or another tab while the author typed). Saving sends the author's changes
 * against the newest saved state the editor knows: as a fast-forward of the base, or — when text
 * was saved elsewhere meanwhile — merged with it paragraph by paragraph (the same three-way merge
 * the server runs); where both changed the same paragraph the author compares and chooses.
 */
import type { ChapterStatus } from './constants';
import { threeWayMerge } from './text-diff';

/** A saved state of the chapter (acknowledged locally, or arrived from sync). */
export interface SavedVersion {
  rev: number;
  title: string;
  content: string;
  status: ChapterStatus;
}

/** What the author has in the editor. */
export interface LocalInput {
  title: string;
  content: string;
  status: ChapterStatus;
}

/** The fields of an update, each present only when it differs from the version it is sent against. */
export type ChangedFields = Partial<LocalInput>;

export type SavePlan =
  | {
      kind: 'send';
      /** The revision the update is computed against: `elsewhere` when merged with it, else the base. */
      baseRev: number;
      fields: ChangedFields;
      /** What the editor shows once planned (the local input, merged with elsewhere's changes). */
      show: LocalInput;
      /** The saved state once the update lands: the editor's next base. */
      saved: SavedVersion;
      /** Elsewhere's changes were merged into the author's text. */
      merged: boolean;
    }
  /** Both sides changed the same paragraphs: nothing is sent; the author compares with `elsewhere`. */
  | { kind: 'conflict'; elsewhere: SavedVersion };

export const EMPTY_VERSION: SavedVersion = { rev: 0, title: '', content: '', status: 'in_progress' };

export function versionOf(row: SavedVersion): SavedVersion {
  return { rev: row.rev, title: row.title, content: row.content, status: row.status };
}

/** One field's three-way rule: the author's value when they changed it, otherwise the other side's. */
function pick<T>(base: T, local: T, other: T): T {
  return local === base ? other : local;
}

/** The update that turns `from` into `to` (empty when nothing differs). */
export function changedFields(from: LocalInput, to: LocalInput): ChangedFields {
  const fields: ChangedFields = {};
  if (to.title !== from.title) fields.title = to.title;
  if (to.content !== from.content) fields.content = to.content;
  if (to.status !== from.status) fields.status = to.status;
  return fields;
}

export function hasChanges(fields: ChangedFields): boolean {
  return fields.title !== undefined || fields.content !== undefined || fields.status !== undefined;
}

/** What a save sends and what the editor shows after it (see the file comment). */
export function planSave(base: SavedVersion, local: LocalInput, elsewhere: SavedVersion | null): SavePlan {
  let show = local;
  let against = base;
  let merged = false;
  if (elsewhere) {
    const text = threeWayMerge(base.content, local.content, elsewhere.content);
    if (!text.clean) return { kind: 'conflict', elsewhere };
    show = {
      title: pick(base.title, local.title, elsewhere.title),
      content: text.text,
      status: pick(base.status, local.status, elsewhere.status),
    };
    against = elsewhere;
    merged = show.content !== local.content || show.title !== local.title || show.status !== local.status;
  }
  return {
    kind: 'send',
    baseRev: against.rev,
    fields: changedFields(against, show),
    show,
    saved: { rev: against.rev, ...show },
    merged,
  };
}

/** Why a save cannot start (a toast says so when the author asked), or null. */
export type SaveRefusal = 'title-required' | 'book-required';

export function refuseSave(title: string, bookKnown: boolean): SaveRefusal | null {
  if (title.trim() === '') return 'title-required';
  if (!bookKnown) return 'book-required';
  return null;
}

/** Auto-save runs only for unsaved input it could save without asking anything. */
export function autoSaveReady(s: { dirty: boolean; saving: boolean; offering: boolean; title: string; content: string }): boolean {
  return s.dirty && !s.saving && !s.offering && s.title.trim() !== '' && s.content.trim() !== '';
}

/**
 * A saved state of the open chapter arrived (sync, another tab, this editor's own save echoed):
 * - 'echo': the same text as the base — take its rev (and its status when nothing is unsaved);
 * - 'wait': a save of this editor is in flight, its echo decides;
 * - 'adopt': nothing unsaved here — show it as the new base;
 * - 'hold': the author has unsaved input — keep it as `elsewhere`, merged on the next save.
 */
export type IncomingAction = 'echo' | 'wait' | 'adopt' | 'hold';

export function classifyIncoming(
  base: SavedVersion,
  incoming: SavedVersion,
  editor: { dirty: boolean; saving: boolean; offering: boolean },
): IncomingAction {
  if (incoming.title === base.title && incoming.content === base.content) return 'echo';
  if (editor.saving) return 'wait';
  if (!editor.dirty && !editor.offering) return 'adopt';
  return 'hold';
}

/** A keystroke draft found when the chapter opens: offered when it holds words the saved text lacks. */
export type DraftDecision = { kind: 'offer'; olderThanSaved: boolean } | { kind: 'discard' } | { kind: 'none' };

export interface DraftLike {
  title: string;
  content: string;
  /** Epoch ms. */
  updatedAt: number;
}

export function decideDraft(draft: DraftLike | undefined, saved: SavedVersion, savedAtMs: number | null): DraftDecision {
  if (!draft) return { kind: 'none' };
  if (draft.title === saved.title && draft.content === saved.content) return { kind: 'discard' };
  const olderThanSaved = savedAtMs !== null && Number.isFinite(savedAtMs) && savedAtMs > draft.updatedAt;
  return { kind: 'offer', olderThanSaved };
}

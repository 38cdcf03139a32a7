/**
 * What other domains hear of an author's story writes, inside the write: the listeners run in its
 * transaction, so what they write takes the write's seq and commits with it or not at all
 * (docs/sync-protocol.md#the-server-transaction). The story routes reach the protocol directly —
 * the create step (create.ts), the update path and a chapter save (update.ts) — and the protocol
 * tells the listeners; the story never imports a listener's folder. Today's listener is writing
 * progress (progress/story-writes.ts): the words a chapter save adds
 * (docs/server.md#writing-statistics), the achievements a create or a completed book may earn.
 *
 * Listeners are the process's, registered by name by their plugin (progress/plugin.ts): every app
 * built in one process (the tests build many) has the same ones, each once.
 */
import type { EntityKind, WritingMark } from '@chronicler/schema';
import type { WireRow } from '../entities/wire.ts';
import type { MutationContext } from '../entities/writes.ts';

/** Chapter text an author saved: a PUT carrying content, or a create carrying text typed offline. */
export interface ChapterTextSave {
  /** The chapter before the save, as stored (for a create: the new chapter with no text). */
  before: WireRow<'chapters'>;
  /** The chapter as the save left it (merged, or as it was when the text became a conflict copy). */
  after: WireRow<'chapters'>;
  /** The client's writing mark: what kind of save it was and when it was typed (none: plain writing, now). */
  mark: WritingMark | undefined;
  /** The revision the client edited (X-Base-Rev); null when it sent none. */
  baseRev: number | null;
}

/** What a listener may hear; each runs inside the write, after the rows it names were written. */
export interface StoryWriteListener {
  /** A row an author created through the create step (create.ts). */
  created?(ctx: MutationContext, kind: EntityKind, row: WireRow<EntityKind>): Promise<void>;
  /** A row an author updated through the update path (update.ts applyUpdate): the row as answered. */
  updated?(ctx: MutationContext, kind: EntityKind, row: WireRow<EntityKind>): Promise<void>;
  /** Chapter text an author saved. */
  chapterTextSaved?(ctx: MutationContext, save: ChapterTextSave): Promise<void>;
}

const listeners = new Map<string, StoryWriteListener>();

/** Registers `listener` under `name`, replacing one registered under that name before. */
export function listenToStoryWrites(name: string, listener: StoryWriteListener): void {
  listeners.set(name, listener);
}

export async function tellCreated(ctx: MutationContext, kind: EntityKind, row: WireRow<EntityKind>): Promise<void> {
  for (const listener of listeners.values()) await listener.created?.(ctx, kind, row);
}

export async function tellUpdated(ctx: MutationContext, kind: EntityKind, row: WireRow<EntityKind>): Promise<void> {
  for (const listener of listeners.values()) await listener.updated?.(ctx, kind, row);
}

export async function tellChapterTextSaved(ctx: MutationContext, save: ChapterTextSave): Promise<void> {
  for (const listener of listeners.values()) await listener.chapterTextSaved?.(ctx, save);
}

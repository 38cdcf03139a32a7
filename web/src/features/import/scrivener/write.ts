/**
 * Writing an import plan into a series through the mutators (the normal local write path: works
 * offline, syncs like any edit, the server checks plan limits), its chapter text marked as an import
 * so it never counts as writing (packages/sync-client writing.ts). What was made is recorded so the
 * import can be undone as one step until the author edits any of it
 * (docs/decisions/0013-scrivener-import.md).
 */
import type { ChroniclerDb, Mutators } from '@chronicler/sync-client';
import { getBook, getChapter, getCharacter } from '@chronicler/sync-client';
import type { ImportPlan } from './plan';

export interface WriteChoices {
  characters: boolean;
  locations: boolean;
}

/** What one import made, and a fingerprint of each row as written (an edit changes it). */
export interface ImportRecord {
  seriesId: string;
  projectName: string;
  at: string;
  books: { id: string; print: string }[];
  chapters: { id: string; print: string }[];
  characters: { id: string; print: string }[];
  locations: { id: string; print: string }[];
}

/** FNV-1a over the fields an author edits: cheap to keep for thousands of rows. */
export function fingerprint(...fields: readonly (string | undefined)[]): string {
  let hash = 0x811c9dc5;
  const text = fields.map((f) => f ?? '').join('\u0000');
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${text.length.toString(36)}.${hash.toString(36)}`;
}

export function plannedCounts(plan: ImportPlan, choices: WriteChoices) {
  return {
    books: plan.books.length,
    chapters: plan.books.reduce((n, b) => n + b.chapters.length, 0),
    characters: choices.characters ? plan.characters.length : 0,
    locations: choices.locations ? plan.locations.length : 0,
  };
}

/**
 * Writes the plan; on a failure part way the rows made so far are removed again, so an import is
 * all or nothing on this device.
 */
export async function writeImport(
  mutators: Mutators,
  seriesId: string,
  projectName: string,
  plan: ImportPlan,
  choices: WriteChoices,
  onProgress: (fraction: number) => void,
): Promise<ImportRecord> {
  const record: ImportRecord = { seriesId, projectName, at: new Date().toISOString(), books: [], chapters: [], characters: [], locations: [] };
  const counts = plannedCounts(plan, choices);
  const total = counts.books + counts.chapters + counts.characters + counts.locations || 1;
  let done = 0;
  const step = () => onProgress(++done / total);
  try {
    for (const planned of plan.books) {
      const book = await mutators.books.create({ seriesId, title: planned.title, description: planned.description });
      record.books.push({ id: book.id, print: fingerprint(book.title, book.description) });
      step();
      for (const chapter of planned.chapters) {
        const row = await mutators.chapters.create({
          bookId: book.id,
          title: chapter.title,
          content: chapter.content,
          synopsis: chapter.synopsis,
          notes: chapter.notes,
          status: chapter.status,
          writing: { kind: 'import' },
        });
        record.chapters.push({ id: row.id, print: fingerprint(row.title, row.content, row.synopsis, row.notes, row.status) });
        step();
      }
    }
    if (choices.characters) {
      for (const entry of plan.characters) {
        const row = await mutators.characters.create({ seriesId, name: entry.name, description: entry.description });
        record.characters.push({ id: row.id, print: fingerprint(row.name, row.description) });
        step();
      }
    }
    if (choices.locations) {
      for (const entry of plan.locations) {
        const row = await mutators.locations.create({ seriesId, name: entry.name, description: entry.description });
        record.locations.push({ id: row.id, print: fingerprint(row.name, row.description) });
        step();
      }
    }
  } catch (error) {
    await removeRows(mutators, record).catch(() => undefined);
    throw error;
  }
  return record;
}

async function removeRows(mutators: Mutators, record: ImportRecord): Promise<void> {
  // Deleting a book deletes its chapters (the shared cascade table).
  for (const { id } of record.books) await mutators.books.delete(id);
  for (const { id } of record.characters) await mutators.characters.delete(id);
  for (const { id } of record.locations) await mutators.locations.delete(id);
}

/** Whether every row the import made is as it was written (deleted rows count as untouched). */
export async function untouchedSince(db: ChroniclerDb, record: ImportRecord): Promise<boolean> {
  for (const { id, print } of record.books) {
    const row = await getBook(db, id);
    if (row && !row.deletedAt && fingerprint(row.title, row.description) !== print) return false;
  }
  for (const { id, print } of record.chapters) {
    const row = await getChapter(db, id);
    if (row && !row.deletedAt && fingerprint(row.title, row.content, row.synopsis, row.notes, row.status) !== print) return false;
  }
  for (const { id, print } of record.characters) {
    const row = await getCharacter(db, id);
    if (row && !row.deletedAt && fingerprint(row.name, row.description) !== print) return false;
  }
  for (const { id, print } of record.locations) {
    const row = await db.table('locations').get(id);
    if (row && !row.deletedAt && fingerprint(row.name, row.description) !== print) return false;
  }
  return true;
}

export type UndoResult = 'undone' | 'edited';

/** Removes what the import made, as one step, unless the author has edited any of it since. */
export async function undoImport(db: ChroniclerDb, mutators: Mutators, record: ImportRecord): Promise<UndoResult> {
  if (!(await untouchedSince(db, record))) return 'edited';
  const live = async (table: string, id: string) => {
    const row = (await db.table(table).get(id)) as { deletedAt: string | null } | undefined;
    return row !== undefined && !row.deletedAt;
  };
  for (const { id } of record.books) if (await live('books', id)) await mutators.books.delete(id);
  for (const { id } of record.characters) if (await live('characters', id)) await mutators.characters.delete(id);
  for (const { id } of record.locations) if (await live('locations', id)) await mutators.locations.delete(id);
  return 'undone';
}

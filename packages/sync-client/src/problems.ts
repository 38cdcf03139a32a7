/**
 * Dead letters for people: what to copy, what to export, how to dismiss. Pure helpers behind
 * SyncProblemsPanel (and any other screen that lists refused changes).
 */
import type { ChroniclerDb, DeadLetter } from './db.ts';

const KIND_LABEL: Record<string, string> = {
  series: 'Series',
  books: 'Book',
  chapters: 'Chapter',
  characters: 'Character',
  characterRelationships: 'Relationship',
  locations: 'Location',
  timelineEvents: 'Timeline event',
  chapterConflicts: 'Conflict copy',
  canonChanges: 'Canon change',
  worldEntries: 'World entry',
};

const ACTION_LABEL: Record<string, string> = {
  create: 'New',
  update: 'Changes to',
  delete: 'Deletion of',
  reorder: 'New order of',
  resolve: 'Resolution of',
};

/** "Changes to chapter “Dawn”", "New book “Book Four”". */
export function deadLetterTitle(letter: DeadLetter): string {
  const kind = (KIND_LABEL[letter.content.entity] ?? letter.content.entity).toLowerCase();
  const action = ACTION_LABEL[letter.entry.kind] ?? 'Change to';
  const label = letter.content.label ? ` “${letter.content.label}”` : '';
  return `${action} ${kind}${label}`;
}

/** Why it was refused, in the server's words. */
export function deadLetterReason(letter: DeadLetter): string {
  return letter.response?.message ?? 'The server refused this change.';
}

/** The author's words to copy: the chapter text, else the fields they set. */
export function deadLetterText(letter: DeadLetter): string {
  const c = letter.content;
  if (c.text !== undefined) return c.label ? `${c.label}\n\n${c.text}` : c.text;
  return Object.entries(c.fields)
    .filter(([key]) => key !== 'id')
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

/** Everything the author may want to keep, as JSON (for "Export"). */
export function deadLettersJson(letters: readonly DeadLetter[]): string {
  return JSON.stringify(
    {
      exportedAt: new Date().toISOString(),
      app: 'Chronicler',
      refusedChanges: letters.map((l) => ({
        title: deadLetterTitle(l),
        reason: deadLetterReason(l),
        status: l.status,
        code: l.response?.code ?? null,
        at: new Date(l.createdAt).toISOString(),
        entity: l.content.entity,
        entityId: l.content.entityId,
        label: l.content.label,
        text: l.content.text ?? null,
        fields: l.content.fields,
        request: { method: l.entry.method, path: l.entry.path },
      })),
    },
    null,
    2,
  );
}

export async function dismissDeadLetter(db: ChroniclerDb, id: number): Promise<void> {
  await db.deadLetters.delete(id);
}

export async function dismissAllDeadLetters(db: ChroniclerDb): Promise<void> {
  await db.deadLetters.clear();
}

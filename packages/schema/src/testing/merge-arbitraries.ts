/**
 * Seeded generators of three-way chapter-text cases, shared by the merge's own tests and by the
 * editor's and the server's tests that check their wrappers against `mergeChapterText` on the same
 * cases (the web must not depend on the server, so both compare to the one function).
 */
import fc from 'fast-check';

/** Seed and runs for the cross-package agreement tests: both sides replay the same cases. */
export const MERGE_PROPERTY = { seed: 20_261_124, numRuns: 1_000 } as const;

const WORDS = ['sea', 'ship', 'rain', 'she', 'said', 'dawn', 'deck', 'old', 'new', 'light'] as const;

/** A short paragraph from a small vocabulary, so paragraphs often repeat across and within texts. */
export const paragraphArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((words) => words.join(' '));

/** Paragraph separators as authors type them: a line break, a blank line, Windows line ends. */
export const separatorArb = fc.constantFrom('\n', '\n\n', '\r\n\r\n');

/** A chapter of up to `maxParagraphs` paragraphs. */
export function chapterArb(maxParagraphs = 8): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(paragraphArb, separatorArb), { maxLength: maxParagraphs })
    .map((parts) => parts.map(([p, s], i) => (i === parts.length - 1 ? p : p + s)).join(''));
}

type Edit = { kind: 'replace' | 'insert' | 'delete'; at: number; text: string };
const editArb: fc.Arbitrary<Edit> = fc.record({ kind: fc.constantFrom('replace', 'insert', 'delete'), at: fc.nat(), text: paragraphArb });

/** `base` with a few paragraph edits (lines replaced, inserted, deleted) — what one author does. */
function edited(base: string, edits: Edit[]): string {
  const lines = base.split('\n');
  for (const edit of edits) {
    const at = edit.at % (lines.length + 1);
    if (edit.kind === 'insert') lines.splice(at, 0, edit.text);
    else if (at < lines.length) lines.splice(at, 1, ...(edit.kind === 'replace' ? [edit.text] : []));
  }
  return lines.join('\n');
}

export interface MergeCase {
  base: string;
  /** What the server has now (saved elsewhere). */
  current: string;
  /** What is being saved, made from `base`. */
  incoming: string;
}

/**
 * Three versions: a base and two authors' edits of it — mostly small edits (the realistic case:
 * clean merges and the occasional overlap), sometimes an unrelated text (a rewrite).
 */
export function mergeCaseArb(maxParagraphs = 8): fc.Arbitrary<MergeCase> {
  const side = (base: string) =>
    fc.oneof({ weight: 6, arbitrary: fc.array(editArb, { maxLength: 3 }).map((edits) => edited(base, edits)) }, { weight: 1, arbitrary: chapterArb(maxParagraphs) });
  return chapterArb(maxParagraphs).chain((base) => fc.record({ base: fc.constant(base), current: side(base), incoming: side(base) }));
}

/**
 * The three-way merge of chapter text (docs/sync-protocol.md#chapter-text-merge): the
 * server's merge of an update and the editor's merge-before-save are this one function.
 *
 * Tokens are lines: `text.split('\n')`, so the text round-trips exactly ('\r' stays on its line)
 * and a blank line between paragraphs is a token of its own. Each side's changes against the base
 * are hunks (base lines [start, end) replaced); hunks of the two sides conflict when they share a
 * base line, or when both insert at the same place. Hunks that only touch do not conflict, so two
 * authors editing neighbouring paragraphs — separated by a blank line or by nothing — both win.
 * Where both changed the same lines identically, the change is taken once.
 */
import { type Hunk, OverBudget, WorkMeter, diffLines, readLines } from './line-diff.ts';

/**
 * Units of work one merge may do: a line read is one unit, 32 characters one, a comparison inside
 * Myers' search three. A count, not a clock, so the editor and the server always agree. Chosen so
 * that the worst case stays far under the ~100 ms a request may hold the event loop: about 15 ms
 * of CPU on the 2-core machine of bench/text-merge.ts, which prints it. A 20,000-word chapter of
 * 1,000 paragraphs with edits scattered on both sides needs about 50,000 units, so chapters of up
 * to ~3,000 paragraphs (60,000 words) merge; past that, or past ~66,000 Myers comparisons, it is a
 * conflict copy.
 */
export const TEXT_MERGE_BUDGET = 200_000;

export type TextMergeConflict = 'overlap' | 'over-budget';

export interface TextMergeResult {
  /** The merged text; where the sides conflict, the current text there. */
  text: string;
  /** null when clean; otherwise why the incoming text must also be kept whole (a conflict copy). */
  conflict: TextMergeConflict | null;
  /** Units of work done (at most the budget): what the bound counts, for tests and the bench. */
  work: number;
}

/**
 * Merges `incoming` (the change being saved, made from `base`) into `current` (what is stored
 * now, also made from `base`). On conflict the text is the clean merge with the current version
 * of every conflicting region — or the current text itself when over budget — and the caller keeps
 * the whole incoming text apart, so nothing either side wrote is lost.
 */
export function mergeChapterText(base: string, current: string, incoming: string, budget: number = TEXT_MERGE_BUDGET): TextMergeResult {
  if (incoming === current || incoming === base) return { text: current, conflict: null, work: 0 };
  if (current === base) return { text: incoming, conflict: null, work: 0 };
  const meter = new WorkMeter(budget);
  try {
    const baseLines = readLines(base, meter);
    const currentHunks = diffLines(baseLines, readLines(current, meter), meter);
    const incomingHunks = diffLines(baseLines, readLines(incoming, meter), meter);
    const { lines, conflict } = combine(baseLines, currentHunks, incomingHunks);
    return { text: joinLines(lines), conflict: conflict ? 'overlap' : null, work: meter.spent };
  } catch (error) {
    if (error instanceof OverBudget) return { text: current, conflict: 'over-budget', work: meter.budget };
    throw error;
  }
}

interface Sided extends Hunk {
  side: 'current' | 'incoming';
}

/** Base with both sides' hunks applied; conflicting clusters take the current side's lines. */
function combine(base: readonly string[], current: Hunk[], incoming: Hunk[]): { lines: string[]; conflict: boolean } {
  const all: Sided[] = [...current.map((h) => ({ ...h, side: 'current' as const })), ...incoming.map((h) => ({ ...h, side: 'incoming' as const }))];
  // By start; at the same start an insertion comes before a replacement (it goes in front of it).
  all.sort((x, y) => x.start - y.start || Number(x.start !== x.end) - Number(y.start !== y.end));
  const out: string[] = [];
  let at = 0;
  let conflict = false;
  let i = 0;
  while (i < all.length) {
    const cluster = [all[i]!];
    let end = all[i]!.end;
    const start = all[i]!.start;
    i++;
    // A hunk joins the cluster when it starts inside it, or inserts where the cluster only inserts.
    while (i < all.length && (all[i]!.start < end || (all[i]!.start === start && end === start && all[i]!.start === all[i]!.end))) {
      end = Math.max(end, all[i]!.end);
      cluster.push(all[i]!);
      i++;
    }
    pushRange(out, base, at, start);
    at = end;
    if (cluster.length === 1) {
      pushRange(out, cluster[0]!.lines, 0, cluster[0]!.lines.length);
      continue;
    }
    const mine = sideOf(base, start, end, cluster, 'current');
    const theirs = sideOf(base, start, end, cluster, 'incoming');
    if (!sameLines(mine, theirs)) conflict = true;
    pushRange(out, mine, 0, mine.length);
  }
  pushRange(out, base, at, base.length);
  return { lines: out, conflict };
}

/** One side's lines for base [start, end): its hunks there, base lines elsewhere. */
function sideOf(base: readonly string[], start: number, end: number, cluster: Sided[], side: Sided['side']): string[] {
  const out: string[] = [];
  let at = start;
  for (const hunk of cluster) {
    if (hunk.side !== side) continue;
    pushRange(out, base, at, hunk.start);
    pushRange(out, hunk.lines, 0, hunk.lines.length);
    at = hunk.end;
  }
  pushRange(out, base, at, end);
  return out;
}

/** The lines joined by '\n'. By `+=`, not Array#join: V8's join of many sliced strings is ~50× slower. */
function joinLines(lines: readonly string[]): string {
  let out = lines.length > 0 ? lines[0]! : '';
  for (let k = 1; k < lines.length; k++) out += '\n' + lines[k]!;
  return out;
}

function pushRange(out: string[], from: readonly string[], start: number, end: number): void {
  for (let k = start; k < end; k++) out.push(from[k]!);
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, k) => line === b[k]);
}

/**
 * A two-way diff of chapter lines whose cost grows near-linearly with the text and the edits, and
 * whose work is bounded by a count (not a clock), so every machine reaches the same answer.
 *
 * The common head and tail are skipped. What is left goes to Myers' O(ND) algorithm (jsdiff
 * `diffArrays`) with a small allowance — enough for the usual few scattered edits. Past it, as
 * patience diff does: lines that occur exactly once in both versions and keep their order (the
 * longest increasing run of them) anchor the texts, and only the gaps between anchors go to Myers,
 * each after skipping its own common head and tail. Repeated lines (blank lines, "* * *", a word
 * written 2,000 times) never anchor, so they cannot blow up the cost: Myers handles them in
 * O((N+M)·D) comparisons, and the meter stops it at the budget.
 */
import { diffArrays } from 'diff';

/** Base lines [start, end) replaced by `lines`. An insertion has start === end. */
export interface Hunk {
  start: number;
  end: number;
  lines: string[];
}

/** Thrown by the meter when one merge has done all the work it may. */
export class OverBudget extends Error {
  constructor() {
    super('text merge over its work budget');
  }
}

/** Thrown out of one Myers search that needs more than it was allowed. */
class OverAllowance extends Error {}

/** Counts units of work (lines read, token comparisons) against a fixed budget. */
export class WorkMeter {
  spent = 0;
  constructor(readonly budget: number) {}

  spend(units: number): void {
    this.spent += units;
    if (this.spent > this.budget) throw new OverBudget();
  }

  get remaining(): number {
    return this.budget - this.spent;
  }
}

/**
 * Units one comparison inside Myers' search costs: besides comparing, jsdiff allocates a path node
 * per diagonal it tries, so a comparison there costs about three lines read (bench/text-merge.ts).
 */
const COMPARISON_UNITS = 3;

/** Characters read (split and hashed) that count as one unit of work. */
const CHARS_PER_UNIT = 32;

/** The lines of a text (its tokens): `text.split('\n')`, so they join back to the text exactly. */
export function readLines(text: string, meter: WorkMeter): string[] {
  // Characters are charged before splitting, so a huge text is refused before it costs anything.
  meter.spend(Math.ceil(text.length / CHARS_PER_UNIT));
  const lines = text.split('\n');
  meter.spend(lines.length);
  return lines;
}

/**
 * Myers' allowance on a window before anchoring, in comparisons per line of the window: a few
 * scattered edits need a handful; anchoring costs about one hashed line per line.
 */
const DIRECT_MYERS_PER_LINE = 4;
const DIRECT_MYERS_MAX = 25_000;

/** Base lines [bs, be) against other lines [os, oe). */
interface Window {
  bs: number;
  be: number;
  os: number;
  oe: number;
}

/** Hunks turning `base` into `other`, sorted and never touching (a common line between any two). */
export function diffLines(base: readonly string[], other: readonly string[], meter: WorkMeter): Hunk[] {
  return new LineDiff(base, other, meter).run();
}

class LineDiff {
  readonly hunks: Hunk[] = [];

  constructor(
    private readonly base: readonly string[],
    private readonly other: readonly string[],
    private readonly meter: WorkMeter,
  ) {}

  run(): Hunk[] {
    const { base, other } = this;
    const [head, tail] = this.commonEnds({ bs: 0, be: base.length, os: 0, oe: other.length });
    const whole = { bs: head, be: base.length - tail, os: head, oe: other.length - tail };
    const window = whole.be - whole.bs + (whole.oe - whole.os);
    // Wasted when it fails: at most DIRECT_MYERS_MAX, so anchoring can still run within the budget.
    const allowance = Math.min(DIRECT_MYERS_MAX, window * DIRECT_MYERS_PER_LINE * COMPARISON_UNITS);
    if (this.myers(whole, allowance)) return this.hunks;
    let b = whole.bs;
    let o = whole.os;
    for (const [anchorB, anchorO] of this.uniqueAnchors(whole)) {
      this.diffGap({ bs: b, be: anchorB, os: o, oe: anchorO });
      b = anchorB + 1;
      o = anchorO + 1;
    }
    this.diffGap({ bs: b, be: whole.be, os: o, oe: whole.oe });
    return this.hunks;
  }

  /** Lengths of the window's common head and tail (not overlapping). */
  private commonEnds({ bs, be, os, oe }: Window): [number, number] {
    const { base, other } = this;
    let head = 0;
    while (bs + head < be && os + head < oe && base[bs + head] === other[os + head]) head++;
    let tail = 0;
    while (be - tail > bs + head && oe - tail > os + head && base[be - tail - 1] === other[oe - tail - 1]) tail++;
    return [head, tail];
  }

  /**
   * Pairs (base index, other index) of lines unique in both ranges, in the order of both: the
   * longest increasing subsequence of other indexes taken in base order (patience sorting).
   */
  private uniqueAnchors({ bs, be, os, oe }: Window): [number, number][] {
    const { base, other, meter } = this;
    meter.spend(be - bs + (oe - os));
    // Per line: where it is, or -2 when repeated.
    const inBase = new Map<string, number>();
    for (let i = bs; i < be; i++) inBase.set(base[i]!, inBase.has(base[i]!) ? -2 : i);
    const inOther = new Map<string, number>();
    for (let j = os; j < oe; j++) {
      const line = other[j]!;
      if ((inBase.get(line) ?? -1) >= 0) inOther.set(line, inOther.has(line) ? -2 : j);
    }
    const pairs: [number, number][] = [];
    for (let i = bs; i < be; i++) {
      const j = inOther.get(base[i]!) ?? -1;
      if (j >= 0 && inBase.get(base[i]!) === i) pairs.push([i, j]);
    }
    meter.spend(pairs.length);
    return longestIncreasing(pairs);
  }

  /** Hunks of one gap between anchors: its common ends skipped, the rest by Myers. */
  private diffGap(window: Window): void {
    const { other, meter, hunks } = this;
    let { bs, be, os, oe } = window;
    const [head, tail] = this.commonEnds(window);
    meter.spend(head + tail + 1);
    bs += head;
    os += head;
    be -= tail;
    oe -= tail;
    if (bs === be && os === oe) return;
    if (bs === be || os === oe) {
      hunks.push({ start: bs, end: be, lines: other.slice(os, oe) });
      return;
    }
    this.myers({ bs, be, os, oe }, meter.remaining);
  }

  /**
   * Hunks of the window by jsdiff's Myers, every comparison metered: false when it needs more than
   * `allowance` units (which are spent), OverBudget when it needs more than the budget has left.
   * The answer never depends on the budget, only whether it suffices: client and server agree.
   */
  private myers({ bs, be, os, oe }: Window, allowance: number): boolean {
    const { meter, hunks } = this;
    const limit = Math.min(allowance, meter.remaining);
    let spent = 0;
    let changes;
    try {
      changes = diffArrays(this.base.slice(bs, be), this.other.slice(os, oe), {
        comparator: (a: string, b: string) => {
          // Equal lengths may be compared character by character: long lines cost more.
          spent += a.length === b.length ? COMPARISON_UNITS + (a.length >> 6) : COMPARISON_UNITS;
          if (spent > limit) throw new OverAllowance();
          return a === b;
        },
      });
    } catch (error) {
      if (!(error instanceof OverAllowance)) throw error;
      meter.spend(spent); // throws OverBudget when the limit was the budget's
      return false;
    }
    meter.spend(spent);
    let at = bs;
    let open: Hunk | null = null;
    for (const change of changes) {
      if (!change.added && !change.removed) {
        if (open) hunks.push(open);
        open = null;
        at += change.count;
        continue;
      }
      open ??= { start: at, end: at, lines: [] };
      if (change.removed) {
        at += change.count;
        open.end = at;
      } else {
        for (const line of change.value) open.lines.push(line);
      }
    }
    if (open) hunks.push(open);
    return true;
  }
}

/** Longest run of pairs whose second members increase (O(n log n)). */
function longestIncreasing(pairs: [number, number][]): [number, number][] {
  const tails: number[] = []; // tails[k]: index in pairs of the smallest end of a run of length k+1
  const previous = new Array<number>(pairs.length);
  for (let p = 0; p < pairs.length; p++) {
    const value = pairs[p]![1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < value) lo = mid + 1;
      else hi = mid;
    }
    previous[p] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = p;
  }
  const run: [number, number][] = [];
  for (let p = tails.length > 0 ? tails[tails.length - 1]! : -1; p >= 0; p = previous[p]!) run.push(pairs[p]!);
  return run.reverse();
}


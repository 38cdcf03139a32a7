/**
 * A two-way diff of chapter lines whose cost grows near-linearly with the text and the edits, and
 * whose work is bounded by a count (not a clock), so every machine reaches the same answer.
 *
 * Lines are interned to numbers first (one hash per line), so every later comparison is O(1)
 * whatever the paragraph's length. Then, as patience diff does: the common head and tail are
 * skipped; lines that occur exactly once in both versions and keep their order (the longest
 * increasing run of them) anchor the texts; only the gaps between anchors go to Myers' O(ND)
 * algorithm (jsdiff `diffArrays`), each after skipping its own common head and tail. Repeated
 * lines (blank lines, "* * *", a word written 2,000 times) never anchor, so they cannot blow up
 * the cost: Myers handles them in O((N+M)·D) comparisons, and the meter stops it at the budget.
 */
import { diffArrays } from 'diff';

/** Base lines [start, end) replaced by `lines` (line ids). An insertion has start === end. */
export interface Hunk {
  start: number;
  end: number;
  lines: number[];
}

/** Thrown by the meter when one merge has done all the work it may. */
export class OverBudget extends Error {
  constructor() {
    super('text merge over its work budget');
  }
}

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

/** Line ids: equal lines get equal numbers. */
export class LineTable {
  private readonly ids = new Map<string, number>();
  readonly text: string[] = [];

  constructor(private readonly meter: WorkMeter) {}

  intern(text: string): number[] {
    // Charged before splitting, so a huge text is refused before it costs anything: hashing
    // costs by the character, the tables by the line.
    this.meter.spend(Math.ceil(text.length / CHARS_PER_UNIT));
    const lines = text.split('\n');
    this.meter.spend(lines.length);
    const out = new Array<number>(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      let id = this.ids.get(line);
      if (id === undefined) {
        id = this.text.length;
        this.ids.set(line, id);
        this.text.push(line);
      }
      out[i] = id;
    }
    return out;
  }
}

/** Base lines [bs, be) against other lines [os, oe). */
interface Window {
  bs: number;
  be: number;
  os: number;
  oe: number;
}

/** Hunks turning `base` into `other`, sorted and never touching (a common line between any two). */
export function diffLineIds(base: readonly number[], other: readonly number[], meter: WorkMeter): Hunk[] {
  return new LineDiff(base, other, meter).run();
}

class LineDiff {
  readonly hunks: Hunk[] = [];

  constructor(
    private readonly base: readonly number[],
    private readonly other: readonly number[],
    private readonly meter: WorkMeter,
  ) {}

  run(): Hunk[] {
    const { base, other } = this;
    const [head, tail] = this.commonEnds({ bs: 0, be: base.length, os: 0, oe: other.length });
    const whole = { bs: head, be: base.length - tail, os: head, oe: other.length - tail };
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
    // Ids are dense (LineTable), so arrays indexed by id beat maps: where the line is, or -2 if repeated.
    let size = 0;
    for (let i = bs; i < be; i++) size = Math.max(size, base[i]! + 1);
    const inBase = new Int32Array(size).fill(-1);
    for (let i = bs; i < be; i++) {
      const id = base[i]!;
      inBase[id] = inBase[id] === -1 ? i : -2;
    }
    const inOther = new Int32Array(size).fill(-1);
    for (let j = os; j < oe; j++) {
      const id = other[j]!;
      if (id < size && inBase[id]! >= 0) inOther[id] = inOther[id] === -1 ? j : -2;
    }
    const pairs: [number, number][] = [];
    for (let i = bs; i < be; i++) {
      const id = base[i]!;
      if (inBase[id] === i && inOther[id]! >= 0) pairs.push([i, inOther[id]!]);
    }
    meter.spend(pairs.length);
    return longestIncreasing(pairs);
  }

  /** Hunks of one gap between anchors: its common ends skipped, the rest by Myers. */
  private diffGap(window: Window): void {
    const { base, other, meter, hunks } = this;
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
    // Every token comparison Myers makes is metered; past the budget the comparator throws out of it.
    const limit = Math.floor(meter.remaining / COMPARISON_UNITS);
    let compared = 0;
    const changes = diffArrays(base.slice(bs, be), other.slice(os, oe), {
      comparator: (a: number, b: number) => {
        if (++compared > limit) throw new OverBudget();
        return a === b;
      },
      maxEditLength: Math.max(1, limit),
    });
    meter.spend(compared * COMPARISON_UNITS);
    if (!changes) throw new OverBudget();
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


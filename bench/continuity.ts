/**
 * `pnpm --filter @chronicler/bench bench:continuity` — canon over time
 * (docs/decisions/0017-canon-changes.md): resolving every character's state at a story cursor, on
 * a series of the size at `--scale 1` (5 books, 1,000 chapters, 500 characters, 100
 * places, 2,000 canon changes of characters and places).
 *
 * Measured in one run:
 * - every character's state at a cursor in the middle of the series, the timeline already built
 *   (what a screen does when the author moves the "As of" cursor): target ≤ 20 ms;
 * - the same with the timeline built first (what it does after a change is recorded): target ≤ 20 ms;
 * - the timeline alone (placing and sorting the changes), for the record.
 * The target is set for Chromium; this run is Node's (the same pure code). The other continuity
 * targets (a full check ≤ 2 s, a re-check after a chapter save ≤ 100 ms) wait for the checks.
 *
 *   tsx continuity.ts [--scale 1] [--rounds 21]
 */
import { parseArgs } from 'node:util';
import { CANON_CHARACTER_STATUSES, type CanonChange, canonTimeline, charactersAsOf, cursorOf, locationAsOf, storyOrder } from '@chronicler/schema';
import { canonSeries } from '../packages/schema/src/testing/canon-series.ts';
import { seededRandom } from './lib/prose.ts';
import { type Verdict, finish, fmt, info, invalid, median, table } from './lib/report.ts';
import { benchArgs, describeLoad, describeMachine } from './lib/setting.ts';

const { values: flags } = parseArgs({ args: benchArgs(), options: { scale: { type: 'string', default: '1' }, rounds: { type: 'string', default: '21' } } });
const SCALE = Number(flags.scale);
const ROUNDS = Number(flags.rounds);
const BOOKS = 5;
const CHAPTERS = Math.max(BOOKS, Math.round(1_000 * SCALE));
const CHARACTERS = Math.max(1, Math.round(500 * SCALE));
const PLACES = Math.max(1, Math.round(100 * SCALE));
const CHANGES = Math.max(1, Math.round(2_000 * SCALE));

const p95 = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))]!;

function timed<T>(run: () => T): { ms: number; result: T } {
  const started = performance.now();
  const result = run();
  return { ms: performance.now() - started, result };
}

const verdicts: Verdict[] = [];
console.log(describeMachine());
try {
  const random = seededRandom(17);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const s = canonSeries();
  const books = Array.from({ length: BOOKS }, (_, i) => s.book(`Book ${i + 1}`));
  for (let i = 0; i < CHAPTERS; i += 1) s.chapter(books[Math.floor((i * BOOKS) / CHAPTERS)]!, `Chapter ${i + 1}`);
  const characters = Array.from({ length: CHARACTERS }, (_, i) => s.character(`Character ${i + 1}`, { aliases: [`Alias ${i + 1}`] }));
  const places = Array.from({ length: PLACES }, (_, i) => s.location(`Place ${i + 1}`));
  for (let i = 0; i < CHANGES; i += 1) {
    const chapter = pick(s.chapters);
    const roll = random();
    if (roll < 0.1) s.change(pick(places), 'location', 'state', 'destroyed', chapter);
    else if (roll < 0.4) s.change(pick(characters), 'character', 'status', pick(CANON_CHARACTER_STATUSES), chapter);
    else if (roll < 0.7) s.change(pick(characters), 'character', 'whereabouts', '', chapter, { locationId: pick(places).id });
    else if (roll < 0.8) s.change(pick(characters), 'character', 'alias', pick(characters).aliases[0]!, chapter);
    else s.change(pick(characters), 'character', 'affiliation', `Guild ${Math.floor(random() * 20)}`, chapter);
  }
  const changes: CanonChange[] = s.changes;
  const order = storyOrder(s.books, s.chapters);
  const middle = books[Math.floor(BOOKS / 2)]!;
  const cursor = cursorOf(order, { bookId: middle.id, chapterId: order.chapterIds[Math.floor(order.chapterIds.length / 2)] })!;

  const resolveOnly: number[] = [];
  const withTimeline: number[] = [];
  const timelineOnly: number[] = [];
  let shown = 0;
  charactersAsOf(canonTimeline(order, changes), characters, cursor); // warm-up, not counted
  for (let round = 0; round < ROUNDS; round += 1) {
    const built = timed(() => canonTimeline(order, changes));
    timelineOnly.push(built.ms);
    const resolved = timed(() => charactersAsOf(built.result, characters, cursor));
    resolveOnly.push(resolved.ms);
    const both = timed(() => charactersAsOf(canonTimeline(order, changes), characters, cursor));
    withTimeline.push(both.ms);
    shown = resolved.result.filter((c) => c.status.source !== null).length + places.filter((p) => locationAsOf(built.result, p, cursor).state.source !== null).length;
  }
  console.log(
    table(
      ['step', 'median', 'p95'],
      [
        ['every character at a cursor (timeline built)', fmt.ms(median(resolveOnly)), fmt.ms(p95(resolveOnly))],
        ['timeline + every character at a cursor', fmt.ms(median(withTimeline)), fmt.ms(p95(withTimeline))],
        ['timeline alone', fmt.ms(median(timelineOnly)), fmt.ms(p95(timelineOnly))],
      ],
    ),
  );
  if (shown === 0) verdicts.push(invalid('continuity, resolver', 'no entity had a change by the middle of the series'));
  const absolute = (name: string, ms: number, target: number) => {
    const pass = ms <= target;
    verdicts.push({ pass, line: `${pass ? 'PASS' : 'FAIL'} ${name}: ${fmt.ms(ms)} (target ≤ ${target} ms)` });
  };
  absolute('continuity, every character at a cursor p95, Node', p95(resolveOnly), 20);
  absolute('continuity, timeline + every character at a cursor p95, Node', p95(withTimeline), 20);
  verdicts.push(info(`continuity, timeline alone p95, Node: ${fmt.ms(p95(timelineOnly))}`));
} catch (error) {
  verdicts.push(invalid('continuity', error instanceof Error ? (error.stack ?? error.message) : String(error)));
}
console.log(describeLoad());
finish(verdicts);

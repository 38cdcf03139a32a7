/**
 * `pnpm --filter @chronicler/bench bench:chapter-move` — moving a chapter to another book of its
 * series (docs/decisions/0014-trash-and-restructure.md), against saving the same chapter once
 * (target: a move ≤ 2× a save).
 *
 * The real server (child process, file database in WAL, synchronous=FULL) holds a series of two
 * books, each with a few chapters, and one chapter of `--words` words (10,000) saved `--revisions`
 * times (200), so its history is long. Measured, alternating which goes first, `--rounds` times:
 * - move: PUT /api/chapters/{id} with the other book's id (the chapter keeps its id, so its
 *   revisions, conflict copies and statistics stay where they are; both books renumber);
 * - baseline: PUT /api/chapters/{id} of its text with one word changed, as the editor saves it.
 * Each from the row's current revision (X-Base-Rev), until the answer. Medians.
 *
 *   tsx chapter-move.ts [--words 10000] [--revisions 200] [--rounds 30]
 */
import { parseArgs } from 'node:util';
import { type Row, createStory } from './lib/api.ts';
import { type ChildServer, startServer } from './lib/child.ts';
import { type Verdict, atMost, finish, fmt, info, invalid, median, table } from './lib/report.ts';
import { chapterText } from './lib/prose.ts';
import { SERVERS, benchArgs, describeLoad, describeMachine, serverEnv, tempDataDir } from './lib/setting.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    words: { type: 'string', default: '10000' },
    revisions: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '30' },
  },
});
const WORDS = Number(flags.words);
const REVISIONS = Number(flags.revisions);
const ROUNDS = Number(flags.rounds);

console.log(describeMachine());
console.log(describeLoad());

interface ChapterRow extends Row {
  bookId: string;
  content: string;
}

const data = tempDataDir();
let server: ChildServer | null = null;
const verdicts: Verdict[] = [];
try {
  server = await startServer(SERVERS.chronicler, { env: serverEnv(data.dir) });
  const { client, bookIds } = await createStory(server.url, 2);
  for (const bookId of bookIds) {
    for (let i = 1; i <= 5; i++) await client.json('POST', '/api/chapters', { bookId, title: `Chapter ${i}`, content: chapterText(i, 300) });
  }
  const text = chapterText(42, WORDS);
  let chapter = await client.json<ChapterRow>('POST', '/api/chapters', { bookId: bookIds[0], title: 'The long one', content: text });
  // Its history: every save keeps a revision.
  const lines = text.split('\n');
  const edited = (n: number) => lines.map((line, i) => (i === n % lines.length ? `${line} (${n})` : line)).join('\n');
  for (let n = 1; n <= REVISIONS; n++) {
    chapter = await client.json<ChapterRow>('PUT', `/api/chapters/${chapter.id}`, { content: edited(n) }, { 'x-base-rev': String(chapter.rev) });
  }
  const history = await client.json<unknown[]>('GET', `/api/chapters/${chapter.id}/revisions?limit=500`);
  console.log(`chapter of ${fmt.int(WORDS)} words with ${history.length} revisions`);

  let saves = REVISIONS;
  const timed = async (work: () => Promise<ChapterRow>) => {
    const start = performance.now();
    chapter = await work();
    return performance.now() - start;
  };
  const move = () =>
    timed(() => client.json<ChapterRow>('PUT', `/api/chapters/${chapter.id}`, { bookId: bookIds[chapter.bookId === bookIds[0] ? 1 : 0] }, { 'x-base-rev': String(chapter.rev) }));
  const save = () => timed(() => client.json<ChapterRow>('PUT', `/api/chapters/${chapter.id}`, { content: edited(++saves) }, { 'x-base-rev': String(chapter.rev) }));

  // Warm-up, then alternate which goes first.
  for (let i = 0; i < 3; i++) {
    await move();
    await save();
  }
  const moves: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      moves.push(await move());
      baseline.push(await save());
    } else {
      baseline.push(await save());
      moves.push(await move());
    }
  }
  const after = await client.json<unknown[]>('GET', `/api/chapters/${chapter.id}/revisions?limit=500`);
  console.log(
    table(
      ['', 'median ms', 'min ms', 'max ms'],
      [
        ['move to the other book', fmt.ms(median(moves)), fmt.ms(Math.min(...moves)), fmt.ms(Math.max(...moves))],
        ['save once (baseline)', fmt.ms(median(baseline)), fmt.ms(Math.min(...baseline)), fmt.ms(Math.max(...baseline))],
      ],
    ),
  );
  if (after.length < history.length) verdicts.push(invalid('move keeps the history', `${after.length} revisions after, ${history.length} before`));
  verdicts.push(info(`history kept: ${history.length} revisions before the moves, ${after.length} after`));
  verdicts.push(atMost('chapter move', median(moves) / median(baseline), 2, 'one save of the same chapter'));
} finally {
  await server?.stop();
  data.remove();
}
finish(verdicts);

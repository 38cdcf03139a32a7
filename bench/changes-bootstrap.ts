/**
 * First sync of a big series: `GET /api/sync/changes?since=0`, every page, over real HTTP on
 * 127.0.0.1, against the minimal baseline of "read and serialise" — the same rows read straight
 * from better-sqlite3 (`SELECT * … WHERE series_id = ?` per table) and JSON.stringify'd.
 * Target: the feed walk ≤ 3× the baseline.
 *
 * The series: 3 books and 2,000 chapters of 1,000 words each (2 million words). The author, the
 * series, the books and the first chapter are made through the API; the other chapters are copies
 * of the first chapter's stored row and revision snapshot (so the exact shapes the server writes),
 * each with its own seq as if saved one by one, inserted in one SQL transaction (fast).
 *
 * A checked warm-up walk parses every page and counts every series, book, chapter and word once
 * (lib/feed.ts): a feed that skips or repeats a row fails the run, since its timing would not be
 * honest. The timed walks read only each page's cursor, so they measure the server and the
 * transport, not the client's JSON.parse.
 *
 *   tsx changes-bootstrap.ts [--chapters 2000] [--words 1000] [--rounds 5] [--limit N] [--profile DIR]
 * --limit: page size sent to the feed (default: the server's own default).
 * --profile DIR: one more feed walk after the rounds with the server's CPU profile recorded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { countWords, newId } from '@chronicler/schema';
import { type Row, createStory } from './lib/api.ts';
import { type ChildServer, startServer } from './lib/child.ts';
import { type FeedWalk, SYNCED_TABLES, feedChecker, walkFeed } from './lib/feed.ts';
import { summariseProfile } from './lib/profile.ts';
import { chapterText } from './lib/prose.ts';
import { type Verdict, atMost, finish, fmt, invalid, median, table } from './lib/report.ts';
import { SERVERS, benchArgs, describeLoad, describeMachine, serverEnv, tempDataDir } from './lib/setting.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    chapters: { type: 'string', default: '2000' },
    words: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
    limit: { type: 'string' },
    profile: { type: 'string' },
  },
});
const CHAPTERS = Number(flags.chapters);
const WORDS = Number(flags.words);
const ROUNDS = Number(flags.rounds);
const BOOKS = 3;

type SqlRow = Record<string, unknown>;

/**
 * Adds chapters 2..CHAPTERS next to `templateId` (the API-made chapter 1): its stored row and its
 * revision snapshot with the id, book, title, text, position, word count, rev and times replaced.
 * Each chapter takes the next seq, as `POST /api/chapters` one at a time would.
 */
function seedChapters(db: Database.Database, templateId: string, bookIds: readonly string[]): void {
  const template = db.prepare('SELECT * FROM chapters WHERE id = ?').get(templateId) as SqlRow;
  const templateRevision = db.prepare(`SELECT * FROM revisions WHERE entity = 'chapters' AND entity_id = ?`).get(templateId) as SqlRow;
  const templateSnapshot = JSON.parse(String(templateRevision.snapshot)) as SqlRow;
  const insert = (table: string, row: SqlRow) => {
    const columns = Object.keys(row);
    return db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => '@' + c).join(', ')})`);
  };
  const insertChapter = insert('chapters', template);
  const insertRevision = insert('revisions', templateRevision);
  const perBook = Math.ceil(CHAPTERS / bookIds.length);

  db.transaction(() => {
    let seq = Number((db.prepare(`SELECT value FROM sync_state WHERE name = 'seq'`).get() as { value: number }).value);
    const start = Date.parse(String(template.created_at));
    for (let n = 2; n <= CHAPTERS; n++) {
      seq += 1;
      const id = newId();
      const content = chapterText(n, WORDS);
      const at = new Date(start + n).toISOString();
      const fields = {
        id,
        bookId: bookIds[Math.floor((n - 1) / perBook)]!,
        title: `Chapter ${n}`,
        content,
        position: ((n - 1) % perBook) + 1,
        wordCount: countWords(content),
        rev: seq,
        createdAt: at,
        updatedAt: at,
      };
      insertChapter.run({
        ...template,
        id,
        book_id: fields.bookId,
        title: fields.title,
        content,
        position: fields.position,
        word_count: fields.wordCount,
        rev: seq,
        created_at: at,
        updated_at: at,
      });
      // Spreading the stored snapshot keeps the server's key order; only the values change.
      insertRevision.run({ ...templateRevision, entity_id: id, rev: seq, created_at: at, snapshot: JSON.stringify({ ...templateSnapshot, ...fields }) });
    }
    db.prepare(`UPDATE sync_state SET value = ? WHERE name = 'seq'`).run(seq);
  })();
}

/** The baseline: the series' rows of every synced table, read and serialised, nothing else. */
function readAndSerialise(db: Database.Database, seriesId: string): { ms: number; bytes: number } {
  const statements = SYNCED_TABLES.map(([table, column]) => [table, db.prepare(`SELECT * FROM ${table} WHERE ${column} = ?`)] as const);
  const start = performance.now();
  const rows: Record<string, unknown[]> = {};
  for (const [table, statement] of statements) rows[table] = statement.all(seriesId);
  const json = JSON.stringify(rows);
  return { ms: performance.now() - start, bytes: Buffer.byteLength(json) };
}

async function main(): Promise<void> {
  console.log(`changes-bootstrap — ${describeMachine()}`);
  console.log(`${CHAPTERS} chapters × ${WORDS} words in ${BOOKS} books; ${ROUNDS} rounds after a warm-up`);
  console.log(`${describeLoad()} at start\n`);

  const data = tempDataDir();
  let server: ChildServer | null = null;
  try {
    server = await startServer(SERVERS.chronicler, { env: serverEnv(data.dir) });
    const story = await createStory(server.url, BOOKS);
    const first = await story.client.json<Row>('POST', '/api/chapters', { bookId: story.bookIds[0], title: 'Chapter 1', content: chapterText(1, WORDS) });

    // The server is idle while the parent seeds its database file (WAL allows a second connection).
    const databaseFile = path.join(data.dir, 'chronicler.db');
    const db = new Database(databaseFile);
    db.pragma('busy_timeout = 5000');
    const seedStart = performance.now();
    seedChapters(db, first.id, story.bookIds);
    console.log(`seeded ${CHAPTERS - 1} chapters in ${fmt.ms(performance.now() - seedStart)}`);

    // The seeded rows must read back through the API exactly like the API-made one.
    const lastId = (db.prepare('SELECT id FROM chapters WHERE series_id = ? ORDER BY rev DESC LIMIT 1').get(story.seriesId) as { id: string }).id;
    const [apiMade, seeded] = await Promise.all([
      story.client.json<Record<string, unknown>>('GET', `/api/chapters/${first.id}`),
      story.client.json<Record<string, unknown>>('GET', `/api/chapters/${lastId}`),
    ]);
    if (Object.keys(apiMade).join() !== Object.keys(seeded).join() || seeded.wordCount !== WORDS) {
      throw new Error(`a seeded chapter differs in shape from an API-made one: ${Object.keys(seeded).join()}`);
    }

    // Warm-up walk, fully parsed: the feed must deliver everything exactly once.
    const checker = feedChecker();
    const warm = await walkFeed(story.client, { limit: flags.limit, check: checker.check });
    const { seen } = checker;
    const complete = seen.series.size === 1 && seen.books.size === BOOKS && seen.chapters.size === CHAPTERS && seen.words === CHAPTERS * WORDS;
    console.log(
      `warm-up walk: ${warm.pages} pages, ${fmt.mb(warm.bytes)}, ${seen.chapters.size} chapters, ` +
        `${fmt.int(seen.words)} words, ${seen.books.size} books, ${seen.series.size} series${complete ? '' : ' — INCOMPLETE'}`,
    );
    readAndSerialise(db, story.seriesId);

    const baseline: { ms: number; bytes: number }[] = [];
    const walks: FeedWalk[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      baseline.push(readAndSerialise(db, story.seriesId));
      walks.push(await walkFeed(story.client, { limit: flags.limit }));
    }

    const baselineMs = median(baseline.map((b) => b.ms));
    const feedMs = median(walks.map((w) => w.ms));
    console.log('');
    console.log(
      table(
        ['round', 'baseline read+stringify', 'feed walk (HTTP)', 'ratio', 'pages', 'slowest page'],
        [
          ...walks.map((w, i) => [
            String(i + 1),
            fmt.ms(baseline[i]!.ms),
            fmt.ms(w.ms),
            fmt.ratio(w.ms / baseline[i]!.ms),
            w.pages,
            fmt.ms(Math.max(...w.pageMs)),
          ]),
          ['median', fmt.ms(baselineMs), fmt.ms(feedMs), fmt.ratio(feedMs / baselineMs), '', ''],
        ],
      ),
    );
    console.log(`\nbytes: baseline JSON ${fmt.mb(baseline[0]!.bytes)}, feed ${fmt.mb(walks[0]!.bytes)} over ${walks[0]!.pages} pages`);
    console.log(`feed throughput: ${fmt.int((CHAPTERS * WORDS) / (feedMs / 1000))} words/s, ${fmt.mb(walks[0]!.bytes / (feedMs / 1000))}/s`);
    console.log(`${describeLoad()} at end`);

    const verdicts: Verdict[] = [
      complete
        ? atMost('changes', feedMs / baselineMs, 3, 'read+stringify in better-sqlite3')
        : invalid('changes', 'the feed did not deliver every row exactly once; the timing would not be honest'),
    ];

    if (flags.profile) {
      fs.mkdirSync(flags.profile, { recursive: true });
      const file = path.resolve(flags.profile, 'changes-bootstrap.cpuprofile');
      const walk = await server.profile(file, () => walkFeed(story.client, { limit: flags.limit }));
      console.log(`\nfeed walk while profiled: ${fmt.ms(walk.ms)}, ${walk.pages} pages`);
      console.log(summariseProfile(file, { requests: walk.pages, unit: 'page' }));
    }
    db.close();
    story.client.close();
    finish(verdicts);
  } finally {
    await server?.stop();
    data.remove();
  }
}

await main();

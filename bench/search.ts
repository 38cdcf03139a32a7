/**
 * `pnpm --filter @chronicler/bench bench:search` — the offline search index
 * (docs/decisions/0012-offline-search.md): the web app's LiveIndex and SearchIndex, in Node over
 * fake-indexeddb, on a series of the size at `--scale 1` (3 books, 1,000 chapters,
 * 1,000,000 words with emphasis, 500 characters, 500 locations, 1,000 timeline events).
 *
 * Measured in one run:
 * - cold build from the local database (LiveIndex.open with no stored index) against its baseline,
 *   reading the same rows from Dexie and tokenising their text (target ≤ 2×);
 * - the first 50 results of a one-word and a two-word query (p95 ≤ 100 ms), a quoted phrase
 *   (p95 ≤ 200 ms), a 10,000-character query;
 * - the index's update after a 1,000-word chapter save (p95 ≤ 20 ms);
 * - opening with a stored index to the first answer (≤ 300 ms);
 * - the heap the index holds (≤ 150 MB, Node's heapUsed after a GC).
 * The targets are set for Chromium; this run is Node's (the same code, fake-indexeddb in place of
 * Chromium's IndexedDB) until a page running the same code is written. `--expose-gc` lets the heap
 * be read after a collection (`bench:search` passes it).
 *
 *   tsx --expose-gc search.ts [--scale 1] [--rounds 21]
 */
import { parseArgs } from 'node:util';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { type Book, type Chapter, type Character, type Location, type TimelineEvent, newId } from '@chronicler/schema';
import { SEARCH_KINDS, SEARCH_TABLES, documentOfRow, foldedWords, kindOfTable, visibleText } from '@chronicler/schema/search';
import { openChroniclerDb } from '@chronicler/sync-client';
import { LiveIndex } from '../web/src/features/search/worker/live-index.ts';
import { chapterText, seededRandom, withEmphasis } from './lib/prose.ts';
import { type Verdict, atMost, finish, fmt, info, invalid, median, table } from './lib/report.ts';
import { benchArgs, describeLoad, describeMachine } from './lib/setting.ts';

const { values: flags } = parseArgs({ args: benchArgs(), options: { scale: { type: 'string', default: '1' }, rounds: { type: 'string', default: '21' } } });
const SCALE = Number(flags.scale);
const ROUNDS = Number(flags.rounds);
const USER = '0190a6f0-0000-7000-8000-0000000000b5';
const T0 = '2026-01-01T00:00:00.000Z';
const synced = () => ({ id: newId(), rev: 1, createdAt: T0, updatedAt: T0, deletedAt: null });

const CHAPTERS = Math.max(3, Math.round(1_000 * SCALE));
const WORDS_PER_CHAPTER = 1_000;
const CHARACTERS = Math.max(1, Math.round(500 * SCALE));
const LOCATIONS = Math.max(1, Math.round(500 * SCALE));
const EVENTS = Math.max(1, Math.round(1_000 * SCALE));

function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
}

async function seed(factory: IDBFactory): Promise<{ chapters: Chapter[] }> {
  const db = openChroniclerDb(USER, { indexedDB: factory, IDBKeyRange });
  const seriesId = newId();
  await db.series.add({ ...synced(), id: seriesId, ownerId: USER, title: 'The Long Road', description: '', totalBooks: 3, currentBook: 1, coverImage: null });
  const books: Book[] = [1, 2, 3].map((position) => ({ ...synced(), seriesId, title: `Book ${position}`, description: 'A crossing.', position, status: 'planning', wordCount: 0 }) as Book);
  await db.books.bulkAdd(books);
  const chapters: Chapter[] = [];
  for (let i = 0; i < CHAPTERS; i++) {
    const book = books[i % 3]!;
    chapters.push({ ...synced(), seriesId, bookId: book.id, title: `Chapter ${i + 1}`, content: withEmphasis(chapterText(i + 1, WORDS_PER_CHAPTER)), position: i, wordCount: WORDS_PER_CHAPTER, status: 'draft', synopsis: 'Eda crosses the river.', notes: '' } as Chapter);
  }
  await db.chapters.bulkAdd(chapters);
  const random = seededRandom(7);
  const words = (n: number) => chapterText(Math.floor(random() * 1e6), n);
  await db.characters.bulkAdd(
    Array.from({ length: CHARACTERS }, (_, i) => ({ ...synced(), seriesId, name: `Person ${i}`, aliases: [`Alias${i}`], role: 'supporting', age: '', occupation: 'ferrier', status: 'alive', description: words(40), appearance: words(20), personality: words(20), goals: words(20), backstory: words(60), bookAppearances: [], isProtagonist: false, avatar: null, avatarUrl: null, alwaysInclude: false }) as Character),
  );
  await db.locations.bulkAdd(Array.from({ length: LOCATIONS }, (_, i) => ({ ...synced(), seriesId, name: `Place ${i}`, locationType: 'city', description: words(60), importance: 'minor', bookAppearances: [], image: null, alwaysInclude: false, parentId: null }) as Location));
  await db.timelineEvents.bulkAdd(
    Array.from({ length: EVENTS }, (_, i) => ({ ...synced(), seriesId, title: `Event ${i}`, description: words(40), eventType: 'plot', date: '', bookId: null, chapterId: null, characterIds: [], locationId: null, importance: 'minor', color: '#336699', position: i, isPlotPoint: false }) as unknown as TimelineEvent),
  );
  db.close();
  return { chapters };
}

/** The baseline: the same rows read from Dexie and every field's visible text tokenised. */
async function readAndTokenise(factory: IDBFactory): Promise<number> {
  const db = openChroniclerDb(USER, { indexedDB: factory, IDBKeyRange });
  const tables = SEARCH_KINDS.map((k) => SEARCH_TABLES[k]);
  const lists = await db.transaction('r', tables, () => Promise.all(tables.map((t) => db.table(t).toArray())));
  let words = 0;
  lists.forEach((rows, i) => {
    const kind = kindOfTable(tables[i]!)!;
    for (const row of rows) for (const f of documentOfRow(kind, row)?.fields ?? []) words += foldedWords(f.markup ? visibleText(f.text) : f.text).length;
  });
  db.close();
  return words;
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

console.log(`search: ${describeMachine()}`);
console.log(describeLoad());
console.log(`series: ${fmt.int(CHAPTERS)} chapters × ${fmt.int(WORDS_PER_CHAPTER)} words, ${CHARACTERS} characters, ${LOCATIONS} locations, ${EVENTS} events; ${ROUNDS} rounds`);
const verdicts: Verdict[] = [];
try {
  const factory = new IDBFactory();
  const { chapters } = await seed(factory);

  // Cold build against reading + tokenising, alternately first.
  const builds: number[] = [];
  const baselines: number[] = [];
  const rounds = Math.max(3, Math.min(ROUNDS, 5));
  for (let r = 0; r < rounds; r++) {
    const runBase = async () => {
      const t = performance.now();
      await readAndTokenise(factory);
      baselines.push(performance.now() - t);
    };
    const runBuild = async () => {
      // The same rows with no stored index: its own database is deleted first.
      await new Promise<void>((resolve) => {
        const req = factory.deleteDatabase(`chronicler-search-${USER}`);
        req.onsuccess = () => resolve();
        req.onerror = () => resolve();
      });
      const t = performance.now();
      const live = await LiveIndex.open({ userId: USER, indexedDB: factory, IDBKeyRange, storeDelayMs: 1e9 });
      builds.push(performance.now() - t);
      if (live.origin !== 'built') throw new Error('expected a cold build');
      live.close();
    };
    if (r % 2 === 0) {
      await runBase();
      await runBuild();
    } else {
      await runBuild();
      await runBase();
    }
  }

  const heapBefore = heapMb();
  const live = await LiveIndex.open({ userId: USER, indexedDB: factory, IDBKeyRange, storeDelayMs: 1e9 });
  const heapIndex = heapMb() - heapBefore;
  const seriesId = chapters[0]!.seriesId;

  const timeQuery = (query: string) => {
    const times: number[] = [];
    let total = live.search(query, { seriesId }).total; // warm-up: the first run compiles the code paths
    for (let r = 0; r < ROUNDS; r++) {
      const t = performance.now();
      total = live.search(query, { seriesId }).total;
      times.push(performance.now() - t);
    }
    return { times, total };
  };
  const sample = chapters[1]!.content.split(/\s+/u).filter((w) => /^[a-z]{5,}$/u.test(w));
  const one = timeQuery(sample[0] ?? 'river');
  const two = timeQuery(`${sample[0] ?? 'river'} ${sample[3] ?? 'cold'}`);
  const phraseWords = visibleText(chapters[2]!.content).split(/\s+/u).slice(20, 23).join(' ').replace(/[^\p{L}\s]/gu, '');
  const phrase = timeQuery(`"${phraseWords}"`);
  const long = timeQuery(Array.from({ length: 2_000 }, (_, i) => `w${i}`).join(' ').slice(0, 10_000));

  // An update after a 1,000-word chapter save (the index's part: the row's document replaced).
  const updates: number[] = [];
  const { documentId } = await import('@chronicler/schema/search');
  const index = (live as unknown as { index: { put(id: string, doc: unknown): void } }).index;
  for (let r = 0; r < ROUNDS; r++) {
    const row = { ...chapters[r % chapters.length]!, content: withEmphasis(chapterText(10_000 + r, WORDS_PER_CHAPTER)), rev: 2 + r, updatedAt: new Date(Date.parse(T0) + r + 1).toISOString() };
    const t = performance.now();
    index.put(documentId('chapter', row.id), documentOfRow('chapter', row));
    updates.push(performance.now() - t);
  }

  // Opening with a stored index, to the first answer.
  await live.storeNow();
  live.close();
  const opens: number[] = [];
  for (let r = 0; r < Math.max(3, Math.min(ROUNDS, 5)); r++) {
    const t = performance.now();
    const again = await LiveIndex.open({ userId: USER, indexedDB: factory, IDBKeyRange, storeDelayMs: 1e9 });
    again.search(sample[0] ?? 'river', { seriesId });
    opens.push(performance.now() - t);
    if (again.origin !== 'stored') verdicts.push(invalid('search, open with a stored index', `rebuilt instead (${again.origin})`));
    again.close();
  }

  console.log(`\nNode: medians and p95 over ${ROUNDS} rounds\n`);
  console.log(
    table(
      ['measure', 'median', 'p95', 'results'],
      [
        ['cold build from Dexie', fmt.ms(median(builds)), fmt.ms(p95(builds)), ''],
        ['read + tokenise (baseline)', fmt.ms(median(baselines)), fmt.ms(p95(baselines)), ''],
        ['one-word query', fmt.ms(median(one.times)), fmt.ms(p95(one.times)), fmt.int(one.total)],
        ['two-word query', fmt.ms(median(two.times)), fmt.ms(p95(two.times)), fmt.int(two.total)],
        ['quoted phrase', fmt.ms(median(phrase.times)), fmt.ms(p95(phrase.times)), fmt.int(phrase.total)],
        ['10,000-character query', fmt.ms(median(long.times)), fmt.ms(p95(long.times)), fmt.int(long.total)],
        ['update after a 1,000-word save', fmt.ms(median(updates)), fmt.ms(p95(updates)), ''],
        ['open with a stored index → first answer', fmt.ms(median(opens)), fmt.ms(p95(opens)), ''],
      ],
    ),
  );
  if (phrase.total === 0) verdicts.push(invalid('search, quoted phrase', `"${phraseWords}" found nothing though it is in a chapter`));
  verdicts.push(atMost('search, cold build, Node', median(builds) / median(baselines), 2, `reading the rows and tokenising them (${fmt.ms(median(baselines))})`));
  const absolute = (name: string, ms: number, target: number) => {
    const pass = ms <= target;
    verdicts.push({ pass, line: `${pass ? 'PASS' : 'FAIL'} ${name}: ${fmt.ms(ms)} (target ≤ ${target} ms)` });
  };
  absolute('search, one-word query p95, Node', p95(one.times), 100);
  absolute('search, two-word query p95, Node', p95(two.times), 100);
  absolute('search, quoted phrase p95, Node', p95(phrase.times), 200);
  absolute('search, update after a 1,000-word save p95, Node', p95(updates), 20);
  absolute('search, open with a stored index to the first answer, Node', median(opens), 300);
  const heapPass = heapIndex <= 150e6;
  verdicts.push({ pass: heapPass, line: `${heapPass ? 'PASS' : 'FAIL'} search, heap held by the index, Node: ${fmt.mb(heapIndex)} (target ≤ 150 MB)${(globalThis as { gc?: unknown }).gc ? '' : ' — run with --expose-gc for a true figure'}` });
  verdicts.push(info(`search, 10,000-character query p95, Node: ${fmt.ms(p95(long.times))}`));
} catch (error) {
  verdicts.push(invalid('search', error instanceof Error ? (error.stack ?? error.message) : String(error)));
}
console.log(describeLoad());
finish(verdicts);

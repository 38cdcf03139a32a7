/**
 * The device half of progress.ts: the dashboard's data from IndexedDB (fake-indexeddb in Node)
 * through the sync-client's queries, against bare Dexie reads of the same rows. Prints a table and,
 * last, a JSON line with the medians. Args: rounds, the earned achievement ids (comma-separated).
 */
import { addDays, newId, writingDay } from '@chronicler/schema';
import { chaptersOfBook, currentBook, readProgress, userAchievementsTable, writingSettingsTable, writingStatsTable } from '@chronicler/sync-client';
import { freshDb } from '@chronicler/sync-client/testing';
import { chapterText } from '../lib/prose.ts';
import { fmt, median, table } from '../lib/report.ts';

const ROUNDS = Number(process.argv[2] ?? 5);
const earned = (process.argv[3] ?? '').split(',').filter(Boolean).map((achievementId) => ({ achievementId }));
const CHAPTERS = 2_000;
const WORDS = 1_000;
const DAYS = 365;
const userId = newId();
const series = { id: newId() };
const books = [{ id: newId() }, { id: newId() }, { id: newId() }];
const now = new Date().toISOString();
const stamps = { rev: 1, createdAt: now, updatedAt: now, deletedAt: null };
const text = chapterText(7, WORDS);

const device = freshDb(userId);
await device.open();
const seriesRow = { ...stamps, id: series.id, ownerId: userId, title: 'The Long Saga', description: '', totalBooks: 3, currentBook: 1, coverImage: null };
await device.series.put(seriesRow);
await device.books.bulkPut(books.map((b, i) => ({ ...stamps, id: b.id, seriesId: series.id, title: `Book ${i + 1}`, description: '', position: i + 1, status: 'in_progress' as const, wordCount: 0 })));
await device.chapters.bulkPut(
  Array.from({ length: CHAPTERS }, (_, i) => ({ ...stamps, id: newId(), seriesId: series.id, bookId: books[i % 3]!.id, title: `Chapter ${i + 1}`, content: text, position: Math.floor(i / 3) + 1, wordCount: WORDS, status: 'in_progress' as const })),
);
const today = writingDay(new Date(), 'UTC');
await writingStatsTable(device).bulkPut(Array.from({ length: DAYS }, (_, d) => ({ ...stamps, id: newId(), userId, day: addDays(today, -d), wordsWritten: 5_000, wordsRemoved: 0, wordsPasted: 0, edits: 1 })));
await userAchievementsTable(device).bulkPut(earned.map((e) => ({ ...stamps, id: newId(), userId, achievementId: e.achievementId, earnedAt: now })));
await writingSettingsTable(device).put({ ...stamps, id: userId, userId, dayEndHour: 4, restDays: [], freezesPerMonth: 2, dailyGoal: null });

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < 10; i++) await run();
  return (performance.now() - start) / 10;
}
const dashboard = async () => {
  const [progress, book] = await Promise.all([readProgress(device, { timeZone: 'UTC', dayEndHour: 4 }), currentBook(device, series.id)]);
  return [progress, book ? await chaptersOfBook(device, book.id) : []];
};
const bare = async () =>
  device.transaction('r', [writingStatsTable(device), userAchievementsTable(device), writingSettingsTable(device), device.outbox, device.series, device.books, device.chapters], () =>
    Promise.all([
      writingStatsTable(device).toArray(),
      userAchievementsTable(device).toArray(),
      writingSettingsTable(device).toArray(),
      device.outbox.toArray(),
      device.series.get(series.id),
      device.books.where('seriesId').equals(series.id).toArray(),
      device.chapters.where('bookId').equals(books[0]!.id).toArray(),
    ]),
  );
await timed(dashboard);
await timed(bare);
const deviceRows: (string | number)[][] = [];
const dashMs: number[] = [];
const bareMs: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  bareMs.push(await timed(bare));
  dashMs.push(await timed(dashboard));
  deviceRows.push([`round ${r + 1}`, fmt.ms(bareMs.at(-1)!), fmt.ms(dashMs.at(-1)!), fmt.ratio(dashMs.at(-1)! / bareMs.at(-1)!)]);
}
console.log(`\ndevice: ${DAYS} daily rows, ${earned.length} earned, current book of ${Math.ceil(CHAPTERS / 3)} chapters (fake-indexeddb in Node)`);
console.log(table(['', 'bare Dexie reads', 'dashboard data', 'ratio'], deviceRows));
device.close();
// The parent reads the last line.
console.log(JSON.stringify({ bareMs: median(bareMs), dashboardMs: median(dashMs) }));


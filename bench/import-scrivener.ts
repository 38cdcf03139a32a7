/**
 * `pnpm --filter @chronicler/bench bench:import-scrivener` — importing a Scrivener 3 project of
 * 1,000 texts and 500,000 words against restoring the same rows on the device (target: import
 * ≤ 2× the restore; docs/decisions/0013-scrivener-import.md).
 *
 * A synthetic project (a Draft of `--folders` part folders holding `--texts` texts of `--words`
 * words of deterministic prose with italics and bold, each with a synopsis, notes and a label, as
 * Scrivener for Windows writes its RTF) is built in memory as the directory picker hands it over.
 * Measured, alternating which goes first, each round on a fresh Dexie database (fake-indexeddb in
 * Node, like the other device benches):
 * - import: the web app's real code end to end: the folder checked (source.ts), the binder and every
 *   RTF read (project.ts, as the import worker runs it), the plan made (plan.ts), and every book and
 *   chapter written through the real mutators (write.ts: the normal local write path, outbox
 *   entries included);
 * - baseline (restore): the same book and chapter rows as a restore lands them on a device — the
 *   sync engine's pull writes each page of 2,000 rows in one transaction (bulkPut), no outbox.
 * Also printed: the read-and-parse alone (what the worker does), the longest single text's parse
 * (a slice of the worker's work; the page's main thread only writes), and the slowest single
 * mutator write (each is its own task on the page, so none may come near 100 ms).
 *
 * The baseline is stricter than restoring a Chronicler backup on the server (backup-restore.ts),
 * which also pays for the network and the server: here both sides write the same rows into the
 * same local database, so the ratio is the cost of the import's own work.
 *
 *   tsx import-scrivener.ts [--texts 1000] [--words 500] [--folders 20] [--rounds 3]
 */
import { parseArgs } from 'node:util';
import { createMutators } from '@chronicler/sync-client';
import { freshDb, serverSeries } from '@chronicler/sync-client/testing';
import { chapterText, withEmphasis } from './lib/prose.ts';
import { type Verdict, atMost, finish, fmt, info, invalid, median, table } from './lib/report.ts';
import { benchArgs, describeLoad, describeMachine } from './lib/setting.ts';
import { planImport } from '../web/src/features/import/scrivener/plan.ts';
import { readProject } from '../web/src/features/import/scrivener/project.ts';
import { readRtf } from '../web/src/features/import/scrivener/rtf.ts';
import { type PickedFile, folderSource } from '../web/src/features/import/scrivener/source.ts';
import { writeImport } from '../web/src/features/import/scrivener/write.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    texts: { type: 'string', default: '1000' },
    words: { type: 'string', default: '500' },
    folders: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
  },
});
const TEXTS = Number(flags.texts);
const WORDS = Number(flags.words);
const FOLDERS = Math.max(1, Math.min(Number(flags.folders), TEXTS));
const ROUNDS = Number(flags.rounds);
const PAGE = 2000;

console.log(describeMachine());
console.log(describeLoad());
console.log(`project: ${fmt.int(TEXTS)} texts of ${fmt.int(WORDS)} words in ${FOLDERS} folders (${fmt.int(TEXTS * WORDS)} words)`);

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`.toUpperCase();

/** Marked prose as Scrivener for Windows writes it: \i and \b groups, curly quotes as \uN. */
function rtfOf(text: string): string {
  const body = text
    .split('\n')
    .map((line) => {
      const escaped = line.replace(/[\\{}]/g, (c) => `\\${c}`).replace(/[\u0080-\uFFFF]/g, (c) => `\\uc1\\u${c.charCodeAt(0)}?`);
      // The prose's *italic* and **bold** markup → RTF groups.
      const styled = escaped.replace(/\*\*([^*]+)\*\*/g, '{\\b $1}').replace(/\*([^*]+)\*/g, '{\\i $1}');
      return `\\pard\\plain \\fi720\\ql\\ltrch\\loch {\\f0\\fs24\\b0\\i0 ${styled}}`;
    })
    .join('\r\n\\par');
  return `{\\rtf1\\ansi\\ansicpg1252\\uc1\\deff0\r\n{\\fonttbl{\\f0\\fnil\\fcharset0 Times New Roman;}}\r\n${body}\r\n}`;
}

function buildProject(): PickedFile[] {
  const files: PickedFile[] = [];
  const add = (path: string, text: string) => files.push({ path: `Bench.scriv/${path}`, file: new Blob([text]) });
  const perFolder = Math.ceil(TEXTS / FOLDERS);
  let items = '';
  let n = 1;
  for (let f = 0; f < FOLDERS; f++) {
    let children = '';
    for (let t = 0; t < perFolder && (f * perFolder + t) < TEXTS; t++) {
      const id = uuid(1000 + n);
      children += `<BinderItem UUID="${id}" Type="Text"><Title>Scene ${n}</Title><MetaData><LabelID>1</LabelID><StatusID>3</StatusID></MetaData></BinderItem>`;
      add(`Files/Data/${id}/content.rtf`, rtfOf(withEmphasis(chapterText(n, WORDS))));
      add(`Files/Data/${id}/synopsis.txt`, `Scene ${n}: what happens.`);
      add(`Files/Data/${id}/notes.rtf`, rtfOf(`Notes for scene ${n}.`));
      n += 1;
    }
    items += `<BinderItem UUID="${uuid(f + 10)}" Type="Folder"><Title>Part ${f + 1}</Title><Children>${children}</Children></BinderItem>`;
  }
  add(
    'Bench.scrivx',
    `<?xml version="1.0" encoding="UTF-8"?><ScrivenerProject Version="2.0" Creator="SCRWIN-3.1.5.1"><Binder><BinderItem UUID="${uuid(1)}" Type="DraftFolder"><Title>Draft</Title><Children>${items}</Children></BinderItem><BinderItem UUID="${uuid(2)}" Type="ResearchFolder"><Title>Research</Title></BinderItem><BinderItem UUID="${uuid(3)}" Type="TrashFolder"><Title>Trash</Title></BinderItem></Binder><LabelSettings><Labels><Label ID="1">POV: A</Label></Labels></LabelSettings><StatusSettings><StatusItems><Status ID="3">First Draft</Status></StatusItems></StatusSettings></ScrivenerProject>`,
  );
  return files;
}

const picked = buildProject();

async function seededDevice() {
  const db = freshDb();
  const series = serverSeries();
  await db.series.put(series);
  return { db, series };
}

async function runImport(): Promise<{ ms: number; parseMs: number; slowestWrite: number; chapters: number }> {
  const { db, series } = await seededDevice();
  const mutators = createMutators(db);
  const start = performance.now();
  const project = await readProject(folderSource(picked));
  const plan = planImport(project, { unit: 'text', foldersAsBooks: true });
  const parseMs = performance.now() - start;
  let slowestWrite = 0;
  let last = performance.now();
  const record = await writeImport(mutators, series.id, project.name, plan, { characters: false, locations: false }, () => {
    const now = performance.now();
    slowestWrite = Math.max(slowestWrite, now - last);
    last = now;
  });
  const ms = performance.now() - start;
  db.close();
  return { ms, parseMs, slowestWrite, chapters: record.chapters.length };
}

/** The same rows as a restore (the sync engine's pull) lands them: pages of 2,000 in one transaction each. */
async function runRestore(rows: { books: Record<string, unknown>[]; chapters: Record<string, unknown>[] }): Promise<number> {
  const { db } = await seededDevice();
  const start = performance.now();
  const all = [...rows.books.map((r) => ['books', r] as const), ...rows.chapters.map((r) => ['chapters', r] as const)];
  for (let i = 0; i < all.length; i += PAGE) {
    const page = all.slice(i, i + PAGE);
    await db.transaction('rw', db.books, db.chapters, async () => {
      const books = page.filter(([k]) => k === 'books').map(([, r]) => r);
      const chapters = page.filter(([k]) => k === 'chapters').map(([, r]) => r);
      if (books.length) await db.books.bulkPut(books as never[]);
      if (chapters.length) await db.chapters.bulkPut(chapters as never[]);
    });
  }
  const ms = performance.now() - start;
  db.close();
  return ms;
}

/** The rows an import makes, taken from one import's database, to restore in the baseline. */
async function importedRows() {
  const { db, series } = await seededDevice();
  const project = await readProject(folderSource(picked));
  await writeImport(createMutators(db), series.id, project.name, planImport(project, { unit: 'text', foldersAsBooks: true }), { characters: false, locations: false }, () => undefined);
  const rows = { books: (await db.books.toArray()).filter((b) => b.seriesId === series.id) as unknown as Record<string, unknown>[], chapters: (await db.chapters.toArray()) as unknown as Record<string, unknown>[] };
  db.close();
  return rows;
}

/** The slowest single text to parse (RTF → markup), a slice of the worker's work. */
async function slowestText(): Promise<number> {
  let slowest = 0;
  for (const { path, file } of picked) {
    if (!path.endsWith('content.rtf')) continue;
    const bytes = new Uint8Array(await file.arrayBuffer());
    const start = performance.now();
    readRtf(bytes);
    slowest = Math.max(slowest, performance.now() - start);
  }
  return slowest;
}

const verdicts: Verdict[] = [];
try {
  const rows = await importedRows();
  if (rows.chapters.length !== TEXTS) throw new Error(`the import made ${rows.chapters.length} chapters of ${TEXTS}`);
  // Warm-up.
  await runImport();
  await runRestore(rows);
  const imports: Awaited<ReturnType<typeof runImport>>[] = [];
  const restores: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      imports.push(await runImport());
      restores.push(await runRestore(rows));
    } else {
      restores.push(await runRestore(rows));
      imports.push(await runImport());
    }
  }
  const importMs = median(imports.map((r) => r.ms));
  const restoreMs = median(restores);
  const parseMs = median(imports.map((r) => r.parseMs));
  const slowestWrite = Math.max(...imports.map((r) => r.slowestWrite));
  const slowestParse = await slowestText();
  console.log(
    '\n' +
      table(
        ['', 'median', 'per text'],
        [
          ['import (read, parse, plan, write)', fmt.ms(importMs), fmt.ms(importMs / TEXTS)],
          ['  of which read + parse + plan', fmt.ms(parseMs), fmt.ms(parseMs / TEXTS)],
          ['restore of the same rows', fmt.ms(restoreMs), fmt.ms(restoreMs / TEXTS)],
        ],
      ),
  );
  verdicts.push(atMost('import', importMs / restoreMs, 2, 'restoring the same rows'));
  verdicts.push(info(`slowest single text parse ${fmt.ms(slowestParse)}; slowest single write ${fmt.ms(slowestWrite)} (each its own task; target < 100 ms)`));
  if (slowestWrite >= 100) verdicts.push(invalid('longest write task', `${fmt.ms(slowestWrite)} ≥ 100 ms`));
} catch (error) {
  verdicts.push(invalid('import', error instanceof Error ? error.message : String(error)));
}
console.log(describeLoad());
finish(verdicts);

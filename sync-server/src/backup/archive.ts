/**
 * The backup archive (format "chronicler-backup", version 1; the repository README, "Exports, imports and backups"):
 * a zip of `manifest.json` (format, version, time, account, counts and the SHA-256 of every other
 * file), `data/<kind>.json` (rows as the API answers them), `data/chapterHistory.json`, the
 * author's own rows (`data/writingEvents.json` and the others of kinds.ts AUTHOR_KINDS), the
 * series' pictures (`data/media.json`, their bytes as `media/<sha256>`, stored without compression:
 * they are compressed already) and a readable `markdown/` copy. Reading checks everything before anything is restored: a truncated,
 * edited or foreign archive is refused as a whole.
 */
import crypto from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Unzipped, strToU8, unzip, zipSync, type Zippable } from 'fflate';
import { z } from 'zod';
import {
  BACKUP_FORMAT,
  BACKUP_MESSAGES,
  BACKUP_VERSION,
  type Book,
  type Chapter,
  type Character,
  type CharacterRelationship,
  ERROR_CODES,
  type Location,
  type Series,
  type TimelineEvent,
  type CanonChange,
  type WorldEntry,
  buildManuscript,
  buildSeriesBible,
  manuscriptToMarkdown,
} from '@chronicler/schema';
import { inspectImage } from '@chronicler/schema/media';
import { HttpError } from '../http/errors.ts';
import { parseJsonArray } from './parse-off-thread.ts';
import {
  AUTHOR_KINDS,
  AUTHOR_KIND_NAMES,
  type AuthorRows,
  BACKUP_KINDS,
  type BackupData,
  type BackupRows,
  HISTORY_FILE,
  MEDIA_FILE,
  MEDIA_FOLDER,
  backupPictureSchema,
  chapterHistoryEntrySchema,
  dataFile,
  kindedTarget,
  mediaMember,
  rowSchemaOf,
} from './kinds.ts';

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().min(1),
  createdAt: z.string(),
  account: z.object({ username: z.string(), displayName: z.string() }),
  counts: z.record(z.string(), z.number().int()),
  files: z.record(z.string(), z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().min(0) })),
});

export interface ArchiveAccount {
  username: string;
  displayName: string;
}

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/** The same, hashed on libuv's thread pool (15 MB of chapters took ~200 ms of the event loop under load). */
async function sha256OffThread(bytes: Uint8Array): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
}

/** A file or folder name from a title: no path separators or characters file systems refuse. */
function safeName(index: number, title: string): string {
  // eslint-disable-next-line no-control-regex -- control codes are exactly what is removed here
  const cleaned = title.normalize('NFC').replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 80);
  return `${String(index + 1).padStart(2, '0')} ${cleaned || 'Untitled'}`;
}

function markdownCopy(data: BackupData, author: string): Record<string, string> {
  const out: Record<string, string> = {};
  const rows = data.rows;
  const series = (rows.series ?? []) as Series[];
  series.forEach((s, i) => {
    const folder = `markdown/${safeName(i, s.title)}`;
    const books = ((rows.books ?? []) as Book[]).filter((b) => b.seriesId === s.id).sort((a, b) => a.position - b.position);
    const chapters = (rows.chapters ?? []) as Chapter[];
    books.forEach((book, j) => {
      const m = buildManuscript({ series: s, author, books: [book], chapters, title: book.title });
      out[`${folder}/${safeName(j, book.title)}.md`] = manuscriptToMarkdown(m);
    });
    const bible = buildSeriesBible({
      series: s,
      author,
      characters: ((rows.characters ?? []) as Character[]).filter((c) => c.seriesId === s.id),
      relationships: ((rows.characterRelationships ?? []) as CharacterRelationship[]).filter((r) => r.seriesId === s.id),
      locations: ((rows.locations ?? []) as Location[]).filter((l) => l.seriesId === s.id),
      events: ((rows.timelineEvents ?? []) as TimelineEvent[]).filter((e) => e.seriesId === s.id),
      // The chapters' synopses and notes (docs/server.md#backups).
      books,
      chapters: chapters.filter((c) => c.seriesId === s.id),
      canonChanges: ((rows.canonChanges ?? []) as CanonChange[]).filter((c) => c.seriesId === s.id),
      worldEntries: ((rows.worldEntries ?? []) as WorldEntry[]).filter((e) => e.seriesId === s.id),
    });
    out[`${folder}/Series bible.md`] = manuscriptToMarkdown(bible);
  });
  return out;
}

const README = `Chronicler backup (format ${BACKUP_FORMAT}, version ${BACKUP_VERSION})

markdown/   your series, one folder each: every book as a Markdown file, and the series bible
data/       everything as JSON, the way Chronicler restores it (rows as its API answers them)
media/      the series' pictures, each named by the SHA-256 of its bytes (data/media.json says which series
            uses which; a picture listed there but not here is restored from the server that still has it)
manifest.json  what this archive holds, with a SHA-256 checksum of every file

Restore it from Chronicler's Backups page, into this account or another, on any server.
`;

export function writeArchive(data: BackupData, account: ArchiveAccount, now: Date): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const counts: Record<string, number> = {};
  for (const { kind } of BACKUP_KINDS) {
    const list = data.rows[kind] ?? [];
    counts[kind] = list.length;
    files[dataFile(kind)] = strToU8(JSON.stringify(list));
  }
  counts.chapterHistory = data.chapterHistory.length;
  files[HISTORY_FILE] = strToU8(JSON.stringify(data.chapterHistory));
  for (const name of AUTHOR_KIND_NAMES) {
    const list = data.author?.[name] ?? [];
    counts[name] = list.length;
    files[dataFile(name)] = strToU8(JSON.stringify(list));
  }
  counts.media = data.media?.length ?? 0;
  files[MEDIA_FILE] = strToU8(JSON.stringify(data.media ?? []));
  for (const [hash, bytes] of Object.entries(data.mediaBytes ?? {})) files[mediaMember(hash)] = bytes;
  for (const [path, text] of Object.entries(markdownCopy(data, account.displayName))) files[path] = strToU8(text);
  files['README.txt'] = strToU8(README);
  const manifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: now.toISOString(),
    account,
    counts,
    files: Object.fromEntries(Object.entries(files).map(([path, bytes]) => [path, { sha256: sha256(bytes), bytes: bytes.length }])),
  };
  const zip: Zippable = { 'manifest.json': strToU8(JSON.stringify(manifest, null, 2)) };
  // Pictures are compressed already: stored as they are.
  for (const [path, bytes] of Object.entries(files)) zip[path] = path.startsWith(MEDIA_FOLDER) ? [bytes, { level: 0 }] : bytes;
  return zipSync(zip, { level: 6, mtime: now });
}

const damaged = () => new HttpError(422, ERROR_CODES.validation, BACKUP_MESSAGES.damaged, { archive: BACKUP_MESSAGES.damaged });

/** Strict UTF-8 (fflate's own decoder is slower still). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseJson(bytes: Uint8Array | undefined): unknown {
  if (!bytes) throw damaged();
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    throw damaged();
  }
}

/** Rows checked between two turns of the event loop (a few milliseconds of a long chapter list). */
const ROWS_PER_TURN = 200;

/**
 * The rows of one data file, each checked with `schema`, a few hundred at a time with the event
 * loop's turns between (2,000 chapters take ~150 ms to check), a large file parsed off the loop
 * (parse-off-thread.ts); a file this version knows but an older archive lacks is simply empty.
 */
async function listOf<T>(entries: Record<string, Uint8Array>, path: string, schema: z.ZodType<T>): Promise<T[]> {
  const bytes = entries[path];
  if (!bytes) return [];
  const raw = await parseJsonArray(bytes);
  if (!raw) throw damaged();
  const rows: T[] = [];
  for (let i = 0; i < raw.length; i += ROWS_PER_TURN) {
    if (i > 0) await nextTurn();
    const parsed = z.array(schema).safeParse(raw.slice(i, i + ROWS_PER_TURN));
    if (!parsed.success) throw damaged();
    rows.push(...parsed.data);
  }
  return rows;
}

/** Inflates the files `keep` accepts on worker threads (fflate), off the event loop; every name is seen by `keep`. */
function inflate(bytes: Uint8Array, keep: (name: string) => boolean): Promise<Unzipped> {
  return new Promise((resolve, reject) => {
    unzip(bytes, { filter: (file) => keep(file.name) }, (error, entries) => (error ? reject(error) : resolve(entries)));
  });
}

/**
 * The archive's data, checked whole: format, version, every checksum, every row's shape, every
 * reference. Never holds the event loop long: inflated off it, rows checked in chunks.
 */
export async function readArchive(bytes: Uint8Array): Promise<BackupData & { account: ArchiveAccount }> {
  let entries: Unzipped;
  // Only what a restore reads is inflated (the Markdown copy is half the archive); every name is seen.
  const names: string[] = [];
  try {
    entries = await inflate(bytes, (name) => {
      names.push(name);
      return name === 'manifest.json' || name.startsWith('data/') || name.startsWith(MEDIA_FOLDER);
    });
  } catch {
    throw damaged();
  }
  const manifestRaw = parseJson(entries['manifest.json']) as { format?: unknown; version?: unknown };
  if (manifestRaw?.format === BACKUP_FORMAT && typeof manifestRaw.version === 'number' && manifestRaw.version > BACKUP_VERSION) {
    throw new HttpError(422, ERROR_CODES.validation, BACKUP_MESSAGES.newerVersion, { archive: BACKUP_MESSAGES.newerVersion });
  }
  const manifest = manifestSchema.safeParse(manifestRaw);
  if (!manifest.success) throw damaged();
  const listed = manifest.data.files;
  for (const path of names) {
    if (path === 'manifest.json' || path.endsWith('/')) continue;
    if (!(path in listed)) throw damaged();
  }
  for (const [path, { sha256: expected, bytes: size }] of Object.entries(listed)) {
    // The readable copy is not restored: it must be there, its contents are not read.
    if (!path.startsWith('data/') && !path.startsWith(MEDIA_FOLDER)) {
      if (!names.includes(path)) throw damaged();
      continue;
    }
    const file = entries[path];
    if (!file || file.length !== size || (await sha256OffThread(file)) !== expected) throw damaged();
  }
  const rows: BackupRows = {};
  for (const { kind } of BACKUP_KINDS) rows[kind] = await listOf(entries, dataFile(kind), rowSchemaOf(kind));
  const author: Record<string, unknown[]> = {};
  for (const name of AUTHOR_KIND_NAMES) author[name] = await listOf<unknown>(entries, dataFile(name), AUTHOR_KINDS[name]);
  const chapterHistory = await listOf(entries, HISTORY_FILE, chapterHistoryEntrySchema);
  const media = await listOf(entries, MEDIA_FILE, backupPictureSchema);
  const mediaBytes = await picturesOf(entries);
  const data = { rows, chapterHistory, author: author as unknown as AuthorRows, media, mediaBytes, account: manifest.data.account };
  assertReferencesHold(data);
  return data;
}

/**
 * The pictures an archive carries, each checked as an upload is (docs/decisions/0022-pictures-on-the-server.md):
 * named by the SHA-256 of its bytes, an accepted type, no markup, within the pixel limits, no metadata.
 */
async function picturesOf(entries: Unzipped): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  for (const [path, bytes] of Object.entries(entries)) {
    if (!path.startsWith(MEDIA_FOLDER)) continue;
    const hash = path.slice(MEDIA_FOLDER.length);
    const inspection = inspectImage(bytes);
    if ((await sha256OffThread(bytes)) !== hash || !inspection.ok || inspection.metadata.length > 0) throw damaged();
    out[hash] = bytes;
  }
  return out;
}

/** Every required reference names a row of the archive; every id is unique within its kind, every author row within its key. */
function assertReferencesHold(data: BackupData): void {
  const ids = new Map<string, Set<string>>();
  for (const { kind } of BACKUP_KINDS) {
    const set = new Set((data.rows[kind] ?? []).map((r) => String(r.id)));
    if (set.size !== (data.rows[kind] ?? []).length) throw damaged();
    ids.set(kind, set);
  }
  // The series of each row, to check that a reference stays inside its row's series.
  const seriesOf = new Map<string, string>();
  for (const { kind } of BACKUP_KINDS) {
    for (const r of data.rows[kind] ?? []) seriesOf.set(`${kind}:${String(r.id)}`, kind === 'series' ? String(r.id) : String(r.seriesId));
  }
  for (const { kind, refs, optionalRefs = [], kindedRefs = {} } of BACKUP_KINDS) {
    for (const r of data.rows[kind] ?? []) {
      for (const [field, ref] of Object.entries(kindedRefs)) {
        const target = kindedTarget(r, ref);
        if (target === undefined || seriesOf.get(`${target}:${String(r[field])}`) !== String(r.seriesId)) throw damaged();
      }
      for (const [field, target] of Object.entries(refs)) {
        const value = r[field];
        if (value === null && optionalRefs.includes(field)) continue;
        const targetSeries = seriesOf.get(`${target}:${String(value)}`);
        // An optional reference may name a row deleted before the backup: it is cleared on restore.
        if (targetSeries === undefined) {
          if (optionalRefs.includes(field)) continue;
          throw damaged();
        }
        if (kind !== 'series' && targetSeries !== String(r.seriesId)) throw damaged();
      }
    }
  }
  const chapters = ids.get('chapters')!;
  if (data.chapterHistory.some((h) => !chapters.has(h.chapterId))) throw damaged();
  // Every picture is of a series of the archive, and every carried picture is listed.
  const series = ids.get('series')!;
  const listed = new Set((data.media ?? []).map((m) => m.sha256));
  if ((data.media ?? []).some((m) => !series.has(m.seriesId)) || Object.keys(data.mediaBytes ?? {}).some((hash) => !listed.has(hash))) throw damaged();
  // The author's rows are one per event, per day, per achievement; one settings row at most.
  if (!data.author) return;
  const { writingEvents, writingStats, userAchievements, writingSettings } = data.author;
  const unique = (values: string[]) => new Set(values).size === values.length;
  if (!unique(writingEvents.map((e) => e.id)) || !unique(writingStats.map((s) => s.day)) || !unique(userAchievements.map((a) => a.achievementId)) || writingSettings.length > 1) {
    throw damaged();
  }
}

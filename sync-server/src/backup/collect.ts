/**
 * Reads everything an author owns for a backup: their live series and every live row under them
 * (rows of series shared with them stay their owners'), the revision history of each chapter, and
 * their own rows: the edit log, daily statistics, earned achievements and writing settings.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/tables.ts';
import { ENTITIES } from '../entities/registry.ts';
import { toWire } from '../entities/wire.ts';
import { picturesOfSeries, readPictureBytes } from '../media/store.ts';
import { type AuthorRows, BACKUP_KINDS, BACKUP_PICTURE_BYTES, type BackupData, type BackupPicture, type ChapterHistoryEntry, type WritingEventEntry } from './kinds.ts';

/** Ids per query: well under SQLite's bound-parameter limit. */
const CHUNK = 500;
/** Revisions per statement when reading the chapters' history. */
const REVISIONS_PER_READ = 8;

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/** A chapter revision as stored: its snapshot is JSON text, parsed where the archive is built. */
export interface StoredRevision {
  entityId: string;
  rev: number;
  createdAt: string;
  snapshot: string;
}

/**
 * What a backup is made from, as read: the rows, and the chapters' older revisions still as JSON
 * text (parsing a long history is seconds of work: it is done beside the archive, on a worker,
 * archive-tasks.ts).
 */
export type BackupSource = Omit<BackupData, 'chapterHistory'> & { revisions: StoredRevision[] };

export async function collectBackupSource(db: Kysely<DB>, userId: string): Promise<BackupSource> {
  const series = await db.selectFrom('series').selectAll().where('ownerId', '=', userId).where('deletedAt', 'is', null).orderBy('createdAt').orderBy('id').execute();
  const seriesIds = series.map((s) => s.id);
  const rows: BackupData['rows'] = { series: series.map((s) => toWire('series', s as unknown as Record<string, unknown>)) };
  for (const { kind } of BACKUP_KINDS) {
    if (kind === 'series') continue;
    const table = ENTITIES[kind].table as 'books';
    const list: Record<string, unknown>[] = [];
    for (const ids of chunks(seriesIds)) {
      const found = await db.selectFrom(table).selectAll().where('seriesId', 'in', ids).where('deletedAt', 'is', null).orderBy('createdAt').orderBy('id').execute();
      for (const r of found) list.push(toWire(kind, r as unknown as Record<string, unknown>));
    }
    rows[kind] = list;
  }
  const chapters = new Map((rows.chapters ?? []).map((c) => [String(c.id), Number(c.rev)]));
  const revisions: StoredRevision[] = [];
  for (const ids of chunks([...chapters.keys()])) {
    // A few revisions per statement (a long chapter's are megabytes each): other requests get the
    // connection between them, where one statement for the whole history held it for seconds.
    let after: { entityId: string; rev: number } | null = null;
    for (;;) {
      const from: { entityId: string; rev: number } | null = after;
      const found = await db
        .selectFrom('revisions')
        .select(['entityId', 'rev', 'createdAt', 'snapshot'])
        .where('entity', '=', 'chapters')
        .where('entityId', 'in', ids)
        .$if(from !== null, (q) => q.where((eb) => eb.or([eb('entityId', '>', from!.entityId), eb.and([eb('entityId', '=', from!.entityId), eb('rev', '>', from!.rev)])])))
        .orderBy('entityId')
        .orderBy('rev')
        .limit(REVISIONS_PER_READ)
        .execute();
      // The current state is the chapter row itself; older snapshots are its history.
      for (const r of found) if (r.rev < chapters.get(r.entityId)!) revisions.push(r);
      if (found.length < REVISIONS_PER_READ) break;
      after = found.at(-1)!;
    }
  }
  return { rows, revisions, author: await collectAuthorRows(db, userId), ...(await collectPictures(db, seriesIds)) };
}

/** The series' pictures, and the bytes of as many as fit BACKUP_PICTURE_BYTES (the rest by reference). */
async function collectPictures(db: Kysely<DB>, seriesIds: readonly string[]): Promise<{ media: BackupPicture[]; mediaBytes: Record<string, Uint8Array> }> {
  const media: BackupPicture[] = [];
  for (const ids of chunks(seriesIds)) media.push(...((await picturesOfSeries(db, ids)) as BackupPicture[]));
  const mediaBytes: Record<string, Uint8Array> = {};
  let carried = 0;
  for (const picture of media) {
    if (picture.sha256 in mediaBytes || carried + picture.bytes > BACKUP_PICTURE_BYTES) continue;
    const bytes = await readPictureBytes(db, picture.sha256);
    if (!bytes) continue;
    mediaBytes[picture.sha256] = new Uint8Array(bytes);
    carried += bytes.length;
  }
  return { media, mediaBytes };
}

/** The chapters' history from their stored revisions (deleted states left out). */
export function withHistory({ revisions, ...source }: BackupSource): BackupData {
  const chapterHistory: ChapterHistoryEntry[] = [];
  for (const r of revisions) {
    const s = JSON.parse(r.snapshot) as Record<string, unknown>;
    if (s.deletedAt) continue;
    chapterHistory.push({
      chapterId: r.entityId,
      createdAt: r.createdAt,
      title: String(s.title ?? ''),
      content: String(s.content ?? ''),
      wordCount: Number(s.wordCount ?? 0),
      status: String(s.status ?? 'draft'),
      position: Number(s.position ?? 0),
    });
  }
  return { ...source, chapterHistory };
}

/** Everything the author owns, history parsed (tests; the server builds archives on a worker from the source). */
export async function collectBackup(db: Kysely<DB>, userId: string): Promise<BackupData> {
  return withHistory(await collectBackupSource(db, userId));
}

async function collectAuthorRows(db: Kysely<DB>, userId: string): Promise<AuthorRows> {
  const events = await db.selectFrom('writingEvents').selectAll().where('userId', '=', userId).orderBy('recordedAt').orderBy('id').execute();
  const own = async <K extends 'writingStats' | 'userAchievements' | 'writingSettings'>(kind: K) => {
    const found = await db.selectFrom(ENTITIES[kind].table as 'writingStats').selectAll().where('userId', '=', userId).where('deletedAt', 'is', null).orderBy('createdAt').orderBy('id').execute();
    return found.map((r) => toWire(kind, r as unknown as Record<string, unknown>)) as unknown as AuthorRows[K];
  };
  return {
    writingEvents: events.map(({ userId: _user, rev: _rev, pasted, ...e }): WritingEventEntry => ({ ...e, kind: e.kind as WritingEventEntry['kind'], pasted: pasted === 1 })),
    writingStats: await own('writingStats'),
    userAchievements: await own('userAchievements'),
    writingSettings: await own('writingSettings'),
  };
}

/**
 * Backup snapshots kept on the server (docs/server.md#backups): per author, their archives in the
 * database (backup_archives: every instance serves every author's,
 * docs/decisions/0011-backup-archives-in-the-database.md; those taken before are read from
 * DATA_DIR/backups/<userId>/), made on the plan's schedule (weekly, daily, or following changes for
 * real-time plans) or when the author asks, pruned to the plan's retention, listed, downloaded and
 * restored by their author. The operator's `pnpm cli backup` (the whole database) is another thing
 * and stays as it is.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import {
  BACKUP_MESSAGES,
  BACKUP_SCHEDULES,
  type BackupSnapshotSummary,
  ERROR_CODES,
  isBackupDue,
  newId,
  PLANS,
  toPlanName,
} from '@chronicler/schema';
import type { DB } from '../db/tables.ts';
import { ENTITIES } from '../entities/registry.ts';
import { HttpError } from '../http/errors.ts';
import { collectBackupSource } from './collect.ts';
import type { WorkerPool } from '../workers/pool.ts';
import { buildArchiveOffThread, sharedBackupWorkers } from './heavy-work.ts';
import { BACKUP_KINDS } from './kinds.ts';

export interface SnapshotDeps {
  db: Kysely<DB>;
  dataDir: string;
  /** Where archives are built (the app's pool); the process's shared pool when absent. */
  workers?: WorkerPool;
}

export interface SnapshotOwner {
  id: string;
  username: string;
  displayName: string;
}

const fileOf = (deps: SnapshotDeps, userId: string, id: string) => path.join(deps.dataDir, 'backups', userId, `${id}.zip`);

const notFound = () => new HttpError(404, ERROR_CODES.notFound, BACKUP_MESSAGES.snapshotNotFound);

/** The newest write in anything the author's backup holds (tombstones included: a deletion is a change). */
export async function latestSeqOf(db: Kysely<DB>, userId: string): Promise<number> {
  const owned = await db.selectFrom('series').select(['id', 'rev']).where('ownerId', '=', userId).execute();
  let latest = owned.reduce((m, s) => Math.max(m, s.rev), 0);
  if (owned.length === 0) return 0;
  const ids = owned.map((s) => s.id);
  for (const { kind } of BACKUP_KINDS) {
    if (kind === 'series') continue;
    const table = ENTITIES[kind].table as 'books';
    const row = await db.selectFrom(table).select((eb) => eb.fn.max('rev').as('latest')).where('seriesId', 'in', ids).executeTakeFirst();
    latest = Math.max(latest, Number(row?.latest ?? 0));
  }
  // The author's own rows in the archive (statistics, achievements, settings) change it too.
  for (const table of ['writingStats', 'userAchievements', 'writingSettings'] as const) {
    const row = await db.selectFrom(table).select((eb) => eb.fn.max('rev').as('latest')).where('userId', '=', userId).executeTakeFirst();
    latest = Math.max(latest, Number(row?.latest ?? 0));
  }
  return latest;
}

export async function listSnapshots(db: Kysely<DB>, userId: string): Promise<BackupSnapshotSummary[]> {
  const rows = await db.selectFrom('backupSnapshots').selectAll().where('userId', '=', userId).orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
  return rows.map((r) => ({ id: r.id, createdAt: r.createdAt, sizeBytes: r.sizeBytes, reason: r.reason as BackupSnapshotSummary['reason'] }));
}

/** Takes a snapshot of everything the author owns now, then prunes to the plan's retention. */
export async function takeSnapshot(
  deps: SnapshotDeps,
  owner: SnapshotOwner,
  reason: BackupSnapshotSummary['reason'],
  now: Date,
): Promise<BackupSnapshotSummary> {
  const seq = await latestSeqOf(deps.db, owner.id);
  // Built on a worker thread (heavy-work.ts); written in one transaction below.
  const archive = await buildArchiveOffThread(deps.workers ?? sharedBackupWorkers(), await collectBackupSource(deps.db, owner.id), owner, now);
  const id = newId(now.getTime());
  const row = { id, userId: owner.id, createdAt: now.toISOString(), reason, sizeBytes: archive.length, seq };
  // One transaction: a snapshot is never listed without its archive.
  await deps.db.transaction().execute(async (trx) => {
    await trx.insertInto('backupSnapshots').values(row).execute();
    await trx.insertInto('backupArchives').values({ snapshotId: id, archive }).execute();
  });
  await prune(deps, owner.id);
  return { id, createdAt: row.createdAt, sizeBytes: row.sizeBytes, reason };
}

async function prune(deps: SnapshotDeps, userId: string): Promise<void> {
  const user = await deps.db.selectFrom('users').select('plan').where('id', '=', userId).executeTakeFirst();
  const keep = BACKUP_SCHEDULES[PLANS[toPlanName(user?.plan)].limits.backup].keep;
  const old = (await listSnapshots(deps.db, userId)).slice(keep);
  for (const snapshot of old) {
    // Its archive row goes with it (on delete cascade); a snapshot from before keeps its file.
    await deps.db.deleteFrom('backupArchives').where('snapshotId', '=', snapshot.id).execute();
    await deps.db.deleteFrom('backupSnapshots').where('id', '=', snapshot.id).execute();
    await fs.rm(fileOf(deps, userId, snapshot.id), { force: true });
  }
}

/** The archive of one of the author's snapshots; 404 for anyone else's or a missing file. */
export async function readSnapshot(deps: SnapshotDeps, userId: string, id: string): Promise<{ bytes: Uint8Array; summary: BackupSnapshotSummary }> {
  const row = await deps.db.selectFrom('backupSnapshots').selectAll().where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  if (!row) throw notFound();
  const stored = await deps.db.selectFrom('backupArchives').select('archive').where('snapshotId', '=', id).executeTakeFirst();
  const summary = { id: row.id, createdAt: row.createdAt, sizeBytes: row.sizeBytes, reason: row.reason as BackupSnapshotSummary['reason'] };
  if (stored) return { bytes: new Uint8Array(stored.archive), summary };
  try {
    const bytes = new Uint8Array(await fs.readFile(fileOf(deps, userId, id)));
    return { bytes, summary: { id: row.id, createdAt: row.createdAt, sizeBytes: row.sizeBytes, reason: row.reason as BackupSnapshotSummary['reason'] } };
  } catch {
    throw notFound();
  }
}

/**
 * Automatic snapshots one pass of the schedule takes at most: each is read on the main connection
 * and built on the worker pool, one after another; when many authors are due at once (a thousand
 * real-time authors after a busy minute), the rest wait for the next pass rather than keep the
 * pool and the database busy for minutes (docs/decisions/0015-isolation.md).
 */
export const SNAPSHOTS_PER_PASS = 20;

/**
 * One pass of the schedule at `now`: a snapshot for every author whose plan's interval has passed
 * since their last one and who changed something since, longest-waiting first, at most `limit`.
 * Answers how many were taken.
 */
export async function runScheduledBackups(
  deps: SnapshotDeps,
  now: Date,
  onError: (error: unknown) => void = () => {},
  limit: number = SNAPSHOTS_PER_PASS,
): Promise<number> {
  const owners = await deps.db
    .selectFrom('users')
    .select(['id', 'username', 'displayName', 'plan'])
    .where((eb) => eb.exists(eb.selectFrom('series').select('id').whereRef('series.ownerId', '=', 'users.id')))
    .execute();
  const due: Array<{ owner: (typeof owners)[number]; frequency: ReturnType<typeof frequencyOf>; lastAt: string }> = [];
  for (const owner of owners) {
    try {
      const frequency = frequencyOf(owner.plan);
      const last = await deps.db.selectFrom('backupSnapshots').select(['createdAt', 'seq']).where('userId', '=', owner.id).orderBy('createdAt', 'desc').executeTakeFirst();
      const latest = await latestSeqOf(deps.db, owner.id);
      if (isBackupDue(frequency, last ?? null, latest, now.getTime())) due.push({ owner, frequency, lastAt: last?.createdAt ?? '' });
    } catch (error) {
      onError(error);
    }
  }
  // Longest-waiting first (never backed up before all), so a capped pass starves nobody.
  due.sort((a, b) => (a.lastAt < b.lastAt ? -1 : a.lastAt > b.lastAt ? 1 : 0));
  let taken = 0;
  for (const { owner, frequency } of due.slice(0, limit)) {
    try {
      await takeSnapshot(deps, owner, frequency, now);
      taken += 1;
    } catch (error) {
      // One author's failure (a full disk, a worker that died) must not stop the others' backups.
      onError(error);
    }
  }
  return taken;
}

const frequencyOf = (plan: string | null | undefined) => PLANS[toPlanName(plan)].limits.backup;

/** How often the schedule looks for due snapshots (real-time plans follow changes within this). */
export const SCHEDULE_TICK_MS = 60_000;

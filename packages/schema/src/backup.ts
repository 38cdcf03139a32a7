/**
 * The account backup: its format's name and version, the restore request, the answers and the
 * messages both sides show. The archive layout is in the repository README ("Exports, imports and backups").
 */
import { z } from 'zod';
import type { BackupFrequency } from './plans.ts';

export const BACKUP_FORMAT = 'chronicler-backup';
/** Bumped when a reader of an older version could not read the archive correctly. */
export const BACKUP_VERSION = 1;

/** Largest archive a restore accepts (the zip, before base64). */
export const MAX_BACKUP_BYTES = 64 * 1024 * 1024;

export const BACKUP_MESSAGES = {
  damaged: 'This backup archive is damaged or is not a Chronicler backup. Nothing was restored.',
  newerVersion: 'This backup was made by a newer version of Chronicler. Nothing was restored.',
  tooLarge: `This backup archive is larger than ${MAX_BACKUP_BYTES / 1024 / 1024} MB. Nothing was restored.`,
  empty: 'Choose a backup archive (.zip) to restore.',
  snapshotNotFound: 'This backup no longer exists',
  /** A restore is written in parts; one stopped part-way is completed by restoring the same archive again. */
  interrupted: 'The restore stopped part-way. Restore the same archive again to complete it: nothing will be doubled.',
} as const;

/** POST /api/backup/restore: the zip, base64-encoded (the API speaks JSON only). */
export const restoreBackupBodySchema = z.strictObject({
  archive: z
    .string({ error: BACKUP_MESSAGES.empty })
    .min(1, { error: BACKUP_MESSAGES.empty })
    // base64 is 4/3 of the bytes.
    .max(Math.ceil((MAX_BACKUP_BYTES * 4) / 3) + 4, { error: BACKUP_MESSAGES.tooLarge }),
});
export type RestoreBackupBody = z.input<typeof restoreBackupBodySchema>;

export interface RestoreKindCount {
  /** Rows written by this restore. */
  restored: number;
  /** Rows already here from an earlier restore of the same archive (left as they are). */
  alreadyPresent: number;
  /** Of the restored rows, those given a new id because theirs was taken. */
  remapped: number;
}

export interface RestoreResult {
  /** Titles of the series in the archive, in its order. */
  series: string[];
  counts: Record<string, RestoreKindCount>;
}

/** A scheduled backup kept on the server (GET /api/backups). */
export interface BackupSnapshotSummary {
  id: string;
  createdAt: string;
  sizeBytes: number;
  /** What made it: the schedule of the author's plan, or the author ("Back up now"). */
  reason: BackupFrequency | 'manual';
}

// ---------------------------------------------------------------------------------------------
// Scheduled server backups (000 §6: weekly / daily / real-time by plan)

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export interface BackupSchedule {
  /** Least time between two scheduled snapshots. */
  readonly intervalMs: number;
  /** Snapshots kept per author; older ones are deleted when a new one is made. */
  readonly keep: number;
}

/** Real-time snapshots follow changes, at most one a minute while the author writes. */
export const BACKUP_SCHEDULES: Readonly<Record<BackupFrequency, BackupSchedule>> = {
  weekly: { intervalMs: 7 * DAY, keep: 8 },
  daily: { intervalMs: DAY, keep: 14 },
  realtime: { intervalMs: MINUTE, keep: 60 },
};

export interface LastSnapshot {
  createdAt: string;
  /** The server sequence the snapshot saw: later writes are changes since. */
  seq: number;
}

/**
 * Whether an author's scheduled snapshot is due at `now`: something changed since the last one
 * (`latestSeq`: the newest write in the author's series), and the plan's interval has passed.
 * An author with nothing written gets none; nothing is copied twice.
 */
export function isBackupDue(frequency: BackupFrequency, last: LastSnapshot | null, latestSeq: number, now: number): boolean {
  if (latestSeq <= (last?.seq ?? 0)) return false;
  if (last === null) return true;
  return now - Date.parse(last.createdAt) >= BACKUP_SCHEDULES[frequency].intervalMs;
}

/** GET /api/backups */
export interface BackupListResponse {
  frequency: BackupFrequency;
  keep: number;
  snapshots: BackupSnapshotSummary[];
}

/**
 * The backup work a worker thread does (workers/pool.ts; docs/decisions/0015-isolation.md): the
 * chapters' history parsed from their revisions, the rows serialised, the readable Markdown copy,
 * every checksum and the zip — seconds of CPU for a long series, none of it on the event loop.
 * Only pure code is reached from here: no database, no server state.
 */
import { type ArchiveAccount, writeArchive } from './archive.ts';
import { type BackupSource, withHistory } from './collect.ts';

export interface BuildArchiveInput {
  source: BackupSource;
  account: ArchiveAccount;
  /** The archive's time, as an ISO string. */
  createdAt: string;
}

export const tasks = {
  buildArchive: (input: BuildArchiveInput): Uint8Array => writeArchive(withHistory(input.source), input.account, new Date(input.createdAt)),
};

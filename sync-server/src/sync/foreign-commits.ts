/**
 * Commits made by another process (the operator command's `user:plan`, a second server on the
 * file) reach the SSE hub here: the hub hears only this process's writes. Every
 * FOREIGN_COMMIT_POLL_MS the storage's data version is read (SQLite `PRAGMA data_version`: changes
 * only when another connection commits; nothing else is read while it stays put). When it moved,
 * the authors whose record was written since the last look by another process (users.rev > last
 * seq, through the users_rev index, minus the seqs this process committed and announced itself)
 * are published to the hub as records changed — their cached sessions are forgotten (auth listens,
 * auth/plugin.ts) and their streams poked — and their apps pull the record (plan, settings) within
 * seconds.
 *
 * Only the author's record is looked for: it is what the operator command writes. Story rows a
 * second server instance writes reach other instances' clients by their periodic pull (every
 * minute); several instances would put a pub/sub behind the hub instead (hub.ts).
 */
import type { Kysely } from 'kysely';
import { dataVersion } from '../db/dialect.ts';
import type { DB } from '../db/tables.ts';
import { currentSeq } from './changes.ts';
import type { ChangeHub } from './hub.ts';

/** The README promises a plan set by the operator command shows within 10 s. */
export const FOREIGN_COMMIT_POLL_MS = 2_000;

export interface ForeignCommitWatch {
  /** One look now (the timer calls it; tests too). */
  check(): Promise<void>;
  /** Seqs of this process's commits not yet passed by a look (for tests: stays small). */
  pending(): number;
  stop(): void;
}

export async function watchForeignCommits(db: Kysely<DB>, hub: ChangeHub, intervalMs: number = FOREIGN_COMMIT_POLL_MS): Promise<ForeignCommitWatch> {
  let version = await dataVersion(db);
  let seenSeq = await currentSeq(db);
  let running: Promise<void> | null = null;
  /** Seqs this process committed since the last look: their authors were poked already. */
  const ownSeqs = new Set<number>();
  const unsubscribe = hub.subscribe((notice) => {
    if (notice.seq > seenSeq) ownSeqs.add(notice.seq);
  });

  async function look(): Promise<void> {
    const ownBefore = Math.max(seenSeq, ...ownSeqs);
    const now = await dataVersion(db);
    if (now === version) {
      // No other process committed since the last look: every seq announced before this look is
      // this process's own. Forget them (the set stays small on a server nobody else writes to).
      seenSeq = ownBefore;
      for (const own of ownSeqs) if (own <= ownBefore) ownSeqs.delete(own);
      return;
    }
    version = now;
    const seq = await currentSeq(db);
    if (seq <= seenSeq) return;
    const changed = await db.selectFrom('users').select(['id', 'rev']).where('rev', '>', seenSeq).where('rev', '<=', seq).execute();
    seenSeq = seq;
    const userIds = new Set(changed.filter((row) => !ownSeqs.has(Number(row.rev))).map((row) => row.id));
    for (const own of ownSeqs) if (own <= seq) ownSeqs.delete(own);
    if (userIds.size === 0) return;
    hub.publish({ seq, seriesIds: new Set(), userIds, records: userIds });
  }

  const check = () => (running ??= look().finally(() => (running = null)));
  const timer = setInterval(() => void check().catch(() => undefined), intervalMs);
  timer.unref();
  return {
    check,
    pending: () => ownSeqs.size,
    stop: () => {
      clearInterval(timer);
      unsubscribe();
    },
  };
}

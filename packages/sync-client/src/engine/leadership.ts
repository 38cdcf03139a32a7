/**
 * One leader tab per user (docs/sync-protocol.md#sending): the tab holding the Web Lock
 * `chronicler-sync-<userId>` runs the sync loop; the others wait for it. Closing the leader's tab
 * (or `release`) frees the lock and the next tab in line takes over. Without Web Locks this
 * instance leads at once.
 */
import type { LocksLike } from './platform.ts';

export interface Leadership {
  /** Gives the lock back (stop, sign-out). */
  release(): void;
}

export function leaderLockName(userId: string): string {
  return `chronicler-sync-${userId}`;
}

export function requestLeadership(
  locks: LocksLike | null,
  userId: string,
  { isStopped, onGranted }: { isStopped: () => boolean; onGranted: () => Promise<void> },
): Leadership {
  if (!locks) {
    void onGranted();
    return { release() {} };
  }
  let release: (() => void) | null = null;
  void locks
    .request(leaderLockName(userId), async () => {
      if (isStopped()) return;
      await onGranted();
      // Held until released: the lock is the leadership.
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    })
    .catch(() => undefined);
  return {
    release() {
      release?.();
      release = null;
    },
  };
}

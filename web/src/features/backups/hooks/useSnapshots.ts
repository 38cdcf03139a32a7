/** The server's backup snapshots of the author (GET /api/backups), with reload. */
import { useCallback, useEffect, useState } from 'react';
import type { BackupListResponse } from '@chronicler/schema';
import { api } from '@/lib/api';

export type SnapshotsState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; list: BackupListResponse };

export function useSnapshots(): { state: SnapshotsState; reload: () => void } {
  const [state, setState] = useState<SnapshotsState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    api.get<BackupListResponse>('/api/backups', { signal: controller.signal }).then(
      (list) => setState({ status: 'ready', list }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error });
      },
    );
    return () => controller.abort();
  }, [attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, reload };
}

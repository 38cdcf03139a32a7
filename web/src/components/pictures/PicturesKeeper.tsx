/**
 * Keeps the open series' pictures on the device (docs/decisions/0023-pictures-on-the-device.md):
 * after each sync that brought changes (and when the network returns), every picture the current
 * series' rows name is fetched into the cache, within its budget; pictures no row names any more
 * leave after their grace period. Draws nothing; loaded after the first screen (app/layout).
 */
import { useEffect } from 'react';
import { removeUnreferencedPictures } from '@chronicler/sync-client';
import { useOptionalSync } from '@/lib/sync';
import { useCurrentSeries } from '@/lib/useCurrentSeries';
import { pictureFetcherFor } from './pictureSource';

/** How long the keeper waits after a sync before it fetches (a first sync brings many pages). */
const SETTLE_MS = 1_500;

export default function PicturesKeeper() {
  const sync = useOptionalSync();
  const db = sync?.db ?? null;
  const engine = sync?.engine ?? null;
  const seriesId = useCurrentSeries().series?.id ?? null;

  useEffect(() => {
    if (!db || !seriesId) return undefined;
    const fetcher = pictureFetcherFor(db);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let running = false;
    let again = false;
    const run = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        await fetcher.prefetchSeries(seriesId);
        await removeUnreferencedPictures(db);
      } catch {
        // Offline, or the database closed (sign-out): the next sync tries again.
      } finally {
        running = false;
        if (again) {
          again = false;
          schedule();
        }
      }
    };
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void run(), SETTLE_MS);
    };
    schedule();
    const unlisten = engine?.on((event) => {
      if ((event.type === 'pulled' && !event.hasMore && event.rows > 0) || (event.type === 'carried' && event.rows > 0)) schedule();
    });
    window.addEventListener('online', schedule);
    return () => {
      clearTimeout(timer);
      unlisten?.();
      window.removeEventListener('online', schedule);
    };
  }, [db, engine, seriesId]);

  return null;
}

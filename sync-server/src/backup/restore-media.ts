/**
 * A restore brings the series' pictures back (docs/decisions/0022-pictures-on-the-server.md): each
 * listed picture is kept for the series it was restored into, with the bytes the archive carries
 * (checked as an upload is, archive.ts) or, for one listed without them, the bytes this server
 * still has. A picture neither has is left out: the field naming it shows no picture until a
 * device that has it uploads it again. One write per picture, a turn of the event loop between.
 *
 * Restoring an author's own pictures is not an upload: neither the `multimedia` gate nor the
 * allowance refuses it (they count from then on, as after a downgrade).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RestoreKindCount } from '@chronicler/schema';
import { inspectImage } from '@chronicler/schema/media';
import type { OpenedDatabase } from '../db/database.ts';
import { findSeriesPicture, keepSeriesPicture, readPictureBytes } from '../media/store.ts';
import type { BackupData } from './kinds.ts';

export async function restorePictures(database: OpenedDatabase, userId: string, data: BackupData, seriesIds: ReadonlyMap<string, string>): Promise<RestoreKindCount> {
  const count: RestoreKindCount = { restored: 0, alreadyPresent: 0, remapped: 0 };
  for (const picture of data.media ?? []) {
    const seriesId = seriesIds.get(picture.seriesId);
    if (seriesId === undefined) continue;
    await nextTurn();
    const outcome = await database.groupCommit.run(async (trx) => {
      if (await findSeriesPicture(trx, seriesId, picture.sha256)) return 'present';
      const bytes = data.mediaBytes?.[picture.sha256] ?? (await readPictureBytes(trx, picture.sha256));
      const inspection = bytes ? inspectImage(bytes) : null;
      if (!bytes || !inspection?.ok) return 'missing';
      const meta = { sha256: picture.sha256, type: inspection.type, bytes: bytes.length, width: inspection.width, height: inspection.height };
      await keepSeriesPicture(trx, seriesId, { ...meta, data: bytes }, userId, new Date().toISOString());
      return 'restored';
    });
    if (outcome === 'present') count.alreadyPresent += 1;
    if (outcome === 'restored') count.restored += 1;
    if (outcome !== 'missing' && seriesId !== picture.seriesId) count.remapped += 1;
  }
  return count;
}

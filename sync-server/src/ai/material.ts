/** The series as the companion reads it (packages/companion SeriesMaterial), from the stored live rows. */
import type { SeriesMaterial } from '@chronicler/companion';
import { type Db, findRow, listLive } from '../entities/queries.ts';

export async function loadSeriesMaterial(db: Db, seriesId: string): Promise<SeriesMaterial> {
  const [series, books, chapters, characters, relationships, locations, events] = await Promise.all([
    findRow(db, 'series', seriesId),
    listLive(db, 'books', 'seriesId', seriesId),
    listLive(db, 'chapters', 'seriesId', seriesId),
    listLive(db, 'characters', 'seriesId', seriesId),
    listLive(db, 'characterRelationships', 'seriesId', seriesId),
    listLive(db, 'locations', 'seriesId', seriesId),
    listLive(db, 'timelineEvents', 'seriesId', seriesId),
  ]);
  return { seriesTitle: series?.title ?? '', books, chapters, characters, relationships, locations, events };
}

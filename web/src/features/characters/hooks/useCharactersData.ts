/**
 * The screen's data, read from the local database (docs/architecture.md#the-data-loop: no fetch for
 * entity data) and kept live: every series, and the characters and relationships of the chosen one.
 * Answers carry the series they were read for so a series switch never shows the previous series'
 * rows.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Character, CharacterRelationship } from '@chronicler/schema';
import { useSeriesChoice, type SeriesChoice } from '@/lib/useSeriesChoice';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { charactersOfSeries, relationshipsOfSeries } from '@chronicler/sync-client';

export interface CharactersData extends SeriesChoice {
  /** undefined while the chosen series' rows load. */
  characters: Character[] | undefined;
  relationships: CharacterRelationship[] | undefined;
}

interface SeriesRows {
  seriesId: string;
  characters: Character[];
  relationships: CharacterRelationship[];
}

export function useCharactersData(db: ChroniclerDb): CharactersData {
  const choice = useSeriesChoice(db);
  const { series, seriesId } = choice;

  const rows = useLiveQuery(async (): Promise<SeriesRows | null> => {
    if (!seriesId) return null;
    const [characters, relationships] = await Promise.all([charactersOfSeries(db, seriesId), relationshipsOfSeries(db, seriesId)]);
    return { seriesId, characters, relationships };
  }, [db, seriesId]);

  const fresh = rows && rows.seriesId === seriesId ? rows : undefined;
  const empty = seriesId === null && series !== undefined;
  return {
    ...choice,
    characters: empty ? [] : fresh?.characters,
    relationships: empty ? [] : fresh?.relationships,
  };
}

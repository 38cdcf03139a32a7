/**
 * The screen's data, read from the local database (DESIGN.md §1: no fetch for entity data) and kept
 * live: every series, and the characters and relationships of the chosen one. Answers carry the
 * series they were read for so a series switch never shows the previous series' rows.
 */
import { useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Character, CharacterRelationship, Series } from '@chronicler/schema';
import { useCurrentSeriesId } from '@/lib/currentSeries';
import type { ChroniclerDb } from '@/sync/db';
import { charactersOfSeries, relationshipsOfSeries, seriesList } from '@/sync/queries';
import { pickSeriesId } from '../model/current-series';

export interface CharactersData {
  /** undefined while the first read runs. */
  series: Series[] | undefined;
  seriesId: string | null;
  selectSeries: (id: string | null) => void;
  current: Series | null;
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
  const series = useLiveQuery(() => seriesList(db), [db]);
  const [chosen, setChosen] = useState<string | null>(null);
  const remembered = useCurrentSeriesId();

  const seriesId = useMemo(
    () => (series ? pickSeriesId(series.map((s) => s.id), chosen, remembered) : null),
    [series, chosen, remembered],
  );

  const rows = useLiveQuery(async (): Promise<SeriesRows | null> => {
    if (!seriesId) return null;
    const [characters, relationships] = await Promise.all([charactersOfSeries(db, seriesId), relationshipsOfSeries(db, seriesId)]);
    return { seriesId, characters, relationships };
  }, [db, seriesId]);

  const fresh = rows && rows.seriesId === seriesId ? rows : undefined;
  const empty = seriesId === null && series !== undefined;
  return {
    series,
    seriesId,
    selectSeries: setChosen,
    current: series?.find((s) => s.id === seriesId) ?? null,
    characters: empty ? [] : fresh?.characters,
    relationships: empty ? [] : fresh?.relationships,
  };
}

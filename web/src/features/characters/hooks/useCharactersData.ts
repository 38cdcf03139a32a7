/**
 * The screen's data, read from the local database (docs/architecture.md#the-data-loop: no fetch for
 * entity data) and kept live: every series, and the characters and relationships of the chosen one.
 * Answers carry the series they were read for so a series switch never shows the previous series'
 * rows.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Book, Character, CharacterRelationship } from '@chronicler/schema';
import { useSeriesChoice, type SeriesChoice } from '@/lib/useSeriesChoice';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { booksOfSeries, charactersOfSeries, relationshipsOfSeries } from '@chronicler/sync-client';

export interface CharactersData extends SeriesChoice {
  /** undefined while the chosen series' rows load. */
  characters: Character[] | undefined;
  relationships: CharacterRelationship[] | undefined;
  /** The series' books: the book appearances a character can have. */
  books: Book[];
}

interface SeriesRows {
  seriesId: string;
  characters: Character[];
  relationships: CharacterRelationship[];
  books: Book[];
}

const NO_BOOKS: Book[] = [];

export function useCharactersData(db: ChroniclerDb): CharactersData {
  const choice = useSeriesChoice(db);
  const { series, seriesId } = choice;

  const rows = useLiveQuery(async (): Promise<SeriesRows | null> => {
    if (!seriesId) return null;
    const [characters, relationships, books] = await Promise.all([
      charactersOfSeries(db, seriesId),
      relationshipsOfSeries(db, seriesId),
      booksOfSeries(db, seriesId),
    ]);
    return { seriesId, characters, relationships, books };
  }, [db, seriesId]);

  const fresh = rows && rows.seriesId === seriesId ? rows : undefined;
  const empty = seriesId === null && series !== undefined;
  return {
    ...choice,
    characters: empty ? [] : fresh?.characters,
    relationships: empty ? [] : fresh?.relationships,
    books: fresh?.books ?? NO_BOOKS,
  };
}

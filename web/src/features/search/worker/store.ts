/**
 * Where the search index is kept between visits: a database of its own per author
 * (`chronicler-search-<userId>`), never a table of the synced database (whose versions the sync
 * client owns). The index is a cache of the rows: losing it costs a rebuild, never data
 * (docs/decisions/0012-offline-search.md).
 */
import Dexie, { type Table } from 'dexie';

export interface StoredIndex {
  key: 'index';
  /** SEARCH_INDEX_VERSION of the build that wrote it: any other is rebuilt. */
  version: number;
  json: string;
  /** The stamp of each document the index holds. */
  stamps: [string, string][];
  savedAt: number;
}

export function searchDbName(userId: string): string {
  return `chronicler-search-${userId}`;
}

export type SearchDb = Dexie & { indexes: Table<StoredIndex, string> };

export function openSearchDb(userId: string, options: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange } = {}): SearchDb {
  const db = new Dexie(searchDbName(userId), options) as SearchDb;
  db.version(1).stores({ indexes: 'key' });
  return db;
}

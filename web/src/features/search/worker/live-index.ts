/**
 * The index the worker keeps: read from the author's local database, restored from its own store
 * when a stored copy is there and checked (a stale or unreadable copy is rebuilt, never trusted),
 * kept current from every committed write, and stored again a little after the last change
 * (docs/decisions/0012-offline-search.md). Runs wherever IndexedDB does: the worker, the tests
 * (fake-indexeddb), the bench.
 */
import { type ChroniclerDb, openChroniclerDb } from '@chronicler/sync-client';
import type { Series } from '@chronicler/schema';
import { SEARCH_KINDS, SEARCH_TABLES, type SearchDocument, documentId, documentOfRow, kindOfTable } from '@chronicler/schema/search';
import { SEARCH_INDEX_VERSION, type SearchAnswer, SearchIndex, type SearchScope } from '../model/engine';
import { type TableChanges, observeChanges } from './changes';
import { type SearchDb, openSearchDb } from './store';

/** How the index came to be: read back from the store (and checked), or built from the rows. */
export type IndexOrigin = 'stored' | 'built';

export interface LiveIndexOptions {
  userId: string;
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
  /** Quiet time after a change before the index is stored again. */
  storeDelayMs?: number;
  /** Called after each change is in the index (the open dialog asks again). */
  onChange?: (documents: number) => void;
}

const TABLES = SEARCH_KINDS.map((kind) => SEARCH_TABLES[kind]);

export class LiveIndex {
  private storeTimer: ReturnType<typeof setTimeout> | undefined;
  private stopObserving: () => void = () => {};
  private pending: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private index: SearchIndex,
    private readonly seriesTitles: Map<string, string>,
    private readonly db: ChroniclerDb,
    private readonly store: SearchDb,
    private readonly options: LiveIndexOptions,
    readonly origin: IndexOrigin,
  ) {}

  static async open(options: LiveIndexOptions): Promise<LiveIndex> {
    const dbOptions = { ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}), ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}) };
    const db = openChroniclerDb(options.userId, dbOptions);
    const store = openSearchDb(options.userId, dbOptions);
    // Changes that land while the rows are read are applied after (by key, so twice is harmless).
    const early: TableChanges[] = [];
    const stopEarly = observeChanges(db.name, (changes) => early.push(changes));
    const [docs, series] = await readDocuments(db);
    const stored = await store.indexes.get('index').catch(() => undefined);
    let index: SearchIndex | null = null;
    let origin: IndexOrigin = 'built';
    if (stored && stored.version === SEARCH_INDEX_VERSION) {
      try {
        index = SearchIndex.restore(stored.json, new Map(stored.stamps), docs).index;
        origin = 'stored';
      } catch {
        index = null;
      }
    }
    if (!index) {
      index = SearchIndex.empty();
      index.addAll(docs);
    }
    stopEarly();
    const live = new LiveIndex(index, new Map(series.map((s) => [s.id, s.title])), db, store, options, origin);
    live.stopObserving = observeChanges(db.name, (changes) => live.enqueue(changes));
    for (const changes of early) live.enqueue(changes);
    if (origin === 'built' || !stored || live.differsFrom(stored)) live.scheduleStore(0);
    return live;
  }

  get documents(): number {
    return this.index.size;
  }

  search(query: string, scope: SearchScope): SearchAnswer {
    return this.index.search(query, scope, {
      book: (bookId) => {
        const book = this.index.document(documentId('book', bookId));
        return book ? { title: book.title, position: book.position } : null;
      },
      ...(scope.seriesId ? {} : { seriesTitle: (seriesId: string) => this.seriesTitles.get(seriesId) ?? null }),
    });
  }

  /** Waits until every change heard so far is in the index. */
  settled(): Promise<void> {
    return this.pending;
  }

  /** Stores the index now (tests, and before the page goes away). */
  async storeNow(): Promise<void> {
    clearTimeout(this.storeTimer);
    this.storeTimer = undefined;
    if (this.closed) return;
    await this.store.indexes.put({ key: 'index', version: SEARCH_INDEX_VERSION, json: this.index.toJSON(), stamps: this.index.stamps(), savedAt: Date.now() });
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.storeTimer);
    this.stopObserving();
    this.db.close();
    this.store.close();
  }

  private differsFrom(stored: { stamps: [string, string][] }): boolean {
    if (stored.stamps.length !== this.index.size) return true;
    return stored.stamps.some(([id, stamp]) => this.index.stampOf(id) !== stamp);
  }

  private enqueue(changes: TableChanges): void {
    this.pending = this.pending.then(() => this.apply(changes)).catch(() => undefined);
  }

  private async apply(changes: TableChanges): Promise<void> {
    if (this.closed) return;
    let touched = false;
    for (const [table, keys] of changes) {
      if (table === 'series' || table === '*') {
        const series = await this.db.series.toArray();
        this.seriesTitles.clear();
        for (const s of series) if (!s.deletedAt) this.seriesTitles.set(s.id, s.title);
        if (table === 'series') continue;
      }
      if (keys === 'all') {
        await this.reread(table === '*' ? TABLES : [table]);
        touched = true;
        continue;
      }
      const kind = kindOfTable(table);
      if (!kind) continue;
      const ids = [...keys];
      const rows = await this.db.table(table).bulkGet(ids);
      ids.forEach((id, i) => this.index.put(documentId(kind, id), rows[i] ? documentOfRow(kind, rows[i]) : null));
      touched = true;
    }
    if (!touched) return;
    this.options.onChange?.(this.index.size);
    this.scheduleStore(this.options.storeDelayMs ?? 2_000);
  }

  /** A whole table changed (cleared, or a page restored from the back-forward cache): compare every row. */
  private async reread(tables: readonly string[]): Promise<void> {
    const [docs] = await readDocuments(this.db, tables);
    const seen = new Set<string>();
    for (const doc of docs) {
      seen.add(doc.id);
      if (this.index.stampOf(doc.id) !== doc.stamp) this.index.put(doc.id, doc);
    }
    const kinds = new Set(tables.map(kindOfTable));
    for (const id of [...this.index.ids()]) {
      const doc = this.index.document(id);
      if (doc && kinds.has(doc.kind) && !seen.has(id)) this.index.put(id, null);
    }
  }

  private scheduleStore(delayMs: number): void {
    if (this.closed) return;
    clearTimeout(this.storeTimer);
    this.storeTimer = setTimeout(() => void this.storeNow().catch(() => undefined), delayMs);
  }
}

/** Every searchable row's document, and the series (for their titles), in one read transaction. */
async function readDocuments(db: ChroniclerDb, tables: readonly string[] = TABLES): Promise<[SearchDocument[], Series[]]> {
  return db.transaction('r', [...tables.map((t) => db.table(t)), db.series], async () => {
    const [series, ...lists] = await Promise.all([db.series.toArray(), ...tables.map((t) => db.table(t).toArray())]);
    const docs: SearchDocument[] = [];
    tables.forEach((table, i) => {
      const kind = kindOfTable(table)!;
      for (const row of lists[i]!) {
        const doc = documentOfRow(kind, row);
        if (doc) docs.push(doc);
      }
    });
    return [docs, (series as Series[]).filter((s) => !s.deletedAt)];
  });
}

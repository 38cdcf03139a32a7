/**
 * What the test page (bench/browser/page/entry.ts, bundled with the real @chronicler/sync-client code) offers
 * the Node side as `globalThis.__bench`, and what it answers. Types only: shared by both sides.
 */

/** The synced kinds the benches write (the feed's names). */
export type BenchKind = 'series' | 'books' | 'chapters' | 'characters' | 'characterRelationships' | 'locations' | 'timelineEvents' | 'chapterConflicts' | 'aiSuggestions';

export interface PageTiming {
  /** Rows the page carried. */
  rows: number;
  /** From the request to the response headers: the server's work and the first bytes. */
  waitMs: number;
  /** Reading the body (response.text()). */
  bodyMs: number;
  /** JSON.parse of the body. */
  parseMs: number;
  /** From the request to the engine's `pulled` event (the page's Dexie transaction committed). */
  doneMs: number;
}

export interface PullResult {
  /** From the first request to the last Dexie commit (engine.pull() resolved). */
  ms: number;
  pages: PageTiming[];
  counts: Partial<Record<BenchKind, number>>;
  /** Sum of wordCount over the stored chapters. */
  words: number;
}

export interface BulkPutResult {
  ms: number;
  counts: Partial<Record<BenchKind, number>>;
}

/** One queued offline mutation, as a screen would make it through the mutators. */
export type PlannedMutation =
  | { call: 'chapters.create' | 'characters.create' | 'locations.create' | 'timelineEvents.create'; body: Record<string, unknown> & { id: string } }
  | { call: 'chapters.update' | 'characters.update' | 'locations.update' | 'timelineEvents.update'; id: string; body: Record<string, unknown> };

export interface QueueResult {
  ms: number;
  outbox: number;
  /** Outbox entries marked `chained` (an update waiting for the answer to an earlier entry of its row). */
  chained: number;
}

export interface BareQueueResult {
  ms: number;
  /** Outbox entries written (one per planned mutation). */
  outbox: number;
}

export interface FlushRequest {
  path: string;
  /** Entries it carried (1 for a single REST call). */
  entries: number;
  ms: number;
}

export interface FlushResult {
  /** From the start of the flush to the empty outbox. */
  ms: number;
  requests: FlushRequest[];
  acked: number;
  rejected: number;
  outboxLeft: number;
  deadLetters: number;
}

export interface BenchApi {
  /** Deletes the user's database and the baseline's: the next step starts from nothing. */
  reset(userId: string): Promise<void>;
  /**
   * A fresh database and the engine's pull from cursor 0 into it. `keep`: the database stays open
   * as the flush bench's starting state, and its rows are kept in memory for the baseline.
   */
  enginePull(userId: string, keep: boolean): Promise<PullResult>;
  /**
   * The bare baseline: a fresh database of the same schema, one transaction, one `bulkPut` per
   * table of the rows the last kept pull stored (already in memory).
   */
  baselineBulkPut(userId: string): Promise<BulkPutResult>;
  /** Runs each planned mutation through the real mutators on the kept database (nothing is sent). */
  queue(userId: string, plan: PlannedMutation[]): Promise<QueueResult>;
  /**
   * The queue's baseline: one bare Dexie transaction per planned mutation writing its row and one
   * outbox entry, in a copy of the kept database's rows (nothing checked, read or derived).
   */
  bareQueue(userId: string, plan: PlannedMutation[]): Promise<BareQueueResult>;
  /** The real engine pushes until the outbox is empty (or stuck). */
  flush(userId: string): Promise<FlushResult>;
}

/**
 * Walking the changes feed (`GET /api/sync/changes`) as a first sync does, for the feed benches
 * (changes-bootstrap.ts, collab-live.ts). Timed walks read each page's cursor from its tail and do
 * not parse the page: the bootstrap target (feed ≤ 3× read+stringify) measures the server and the
 * transport, not the client's JSON.parse. A checked walk (`check`) parses every page to prove that
 * the feed delivered every row exactly once, so the timing is honest.
 */
import type { ApiClient } from './api.ts';

export interface FeedWalk {
  ms: number;
  pages: number;
  bytes: number;
  pageMs: number[];
}

/** The tail of every page says where the next one starts: `…,"cursor":N,"hasMore":B}`. */
function cursorOf(page: string): { cursor: number; hasMore: boolean } {
  const match = /"cursor":(\d+),"hasMore":(true|false)\}\s*$/.exec(page.slice(-200));
  if (!match) throw new Error(`a feed page did not end with its cursor: …${page.slice(-200)}`);
  return { cursor: Number(match[1]), hasMore: match[2] === 'true' };
}

/** Every page from since=0, as a client would fetch them, timed end to end. */
export async function walkFeed(client: ApiClient, options: { limit?: string; check?: (page: string) => void } = {}): Promise<FeedWalk> {
  const limit = options.limit ? `&limit=${options.limit}` : '';
  const walk: FeedWalk = { ms: 0, pages: 0, bytes: 0, pageMs: [] };
  const start = performance.now();
  for (let since = 0, more = true; more; ) {
    const pageStart = performance.now();
    const res = await client.request('GET', `/api/sync/changes?since=${since}${limit}`);
    if (res.status !== 200) throw new Error(`the feed answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
    const page = res.body.toString('utf8');
    walk.pageMs.push(performance.now() - pageStart);
    walk.pages += 1;
    walk.bytes += res.body.length;
    ({ cursor: since, hasMore: more } = cursorOf(page));
    options.check?.(page);
  }
  walk.ms = performance.now() - start;
  return walk;
}

/** Counts what a full walk delivered: every series, book and chapter once, and the chapters' words. */
export function feedChecker() {
  const seen = { series: new Set<string>(), books: new Set<string>(), chapters: new Set<string>(), words: 0 };
  return {
    seen,
    check(page: string) {
      const { changes } = JSON.parse(page) as { changes: Record<string, { id: string; wordCount?: number }[]> };
      for (const kind of ['series', 'books', 'chapters'] as const) {
        for (const row of changes[kind] ?? []) {
          if (seen[kind].has(row.id)) throw new Error(`the feed sent ${kind} ${row.id} twice`);
          seen[kind].add(row.id);
          if (kind === 'chapters') seen.words += row.wordCount ?? 0;
        }
      }
    },
  };
}

/** Every table the feed reads, with the column that names the series (series rows: their id). */
export const SYNCED_TABLES = [
  ['series', 'id'],
  ['books', 'series_id'],
  ['chapters', 'series_id'],
  ['characters', 'series_id'],
  ['character_relationships', 'series_id'],
  ['locations', 'series_id'],
  ['timeline_events', 'series_id'],
  ['chapter_conflicts', 'series_id'],
] as const;

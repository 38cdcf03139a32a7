/**
 * From the index's candidates to what the author sees: each document's hits counted, one to three
 * snippets, the documents without a quoted phrase dropped, and the rest grouped — chapters by book
 * in reading order, the bible by kind (docs/decisions/0012-offline-search.md).
 */
import type { SearchDocument, SearchKind } from './documents.ts';
import { type Hit, type ReadField, type Snippet, fieldHits, hitSource, readField, snippetOf } from './hits.ts';
import type { ParsedQuery } from './query.ts';

export interface Candidate {
  readonly doc: SearchDocument;
  readonly score: number;
  /** The words of the document the index matched to the query's loose words. */
  readonly matched: ReadonlySet<string>;
}

export interface ResultSnippet extends Snippet {
  readonly field: string;
  readonly fieldLabel: string;
  /** The hit in the field's source text (marked text for a chapter's text): what the editor selects. */
  readonly source: { readonly from: number; readonly to: number };
}

/** A document found: what names and places it (documents.ts SearchDocument), with its hits. */
export interface SearchResult extends Pick<SearchDocument, 'id' | 'kind' | 'rowId' | 'seriesId' | 'bookId' | 'title' | 'position'> {
  /** Every hit in the document. */
  readonly count: number;
  readonly snippets: readonly ResultSnippet[];
  readonly score: number;
}

export interface ResultGroup {
  /** `book:<id>` for a book's chapters, else the kind. */
  readonly key: string;
  readonly label: string;
  readonly kind: SearchKind;
  readonly seriesId: string;
  readonly results: readonly SearchResult[];
  /** Hits in the group. */
  readonly count: number;
}

export const SNIPPETS_PER_RESULT = 3;

/** Reading a document's fields costs a pass over its text: each is read once per query and kept here. */
export type FieldReader = (doc: SearchDocument) => readonly ReadField[];

export const readFields: FieldReader = (doc) => doc.fields.map(readField);

/** A candidate as a result, or null when it holds no hit (a quoted phrase that is not there). */
export function resultOf(candidate: Candidate, query: ParsedQuery, read: FieldReader = readFields): SearchResult | null {
  const reads = read(candidate.doc);
  const perField = reads.map((r) => ({ read: r, hits: fieldHits(r, query, candidate.matched) }));
  for (const phrase of query.phrases) {
    const words = phrase.join(' ');
    const found = perField.some(({ read: r, hits }) => hits.some((h) => phraseText(r, h) === words));
    if (!found) return null;
  }
  const count = perField.reduce((sum, f) => sum + f.hits.length, 0);
  if (count === 0) return null;
  const snippets: ResultSnippet[] = [];
  // The main text's hits first (what opening the result shows), then the other fields in order.
  const ordered = [...perField].sort((a, b) => rank(a.read) - rank(b.read));
  for (const { read: r, hits } of ordered) {
    for (const hit of distinctHits(hits)) {
      if (snippets.length >= SNIPPETS_PER_RESULT) break;
      snippets.push({ ...snippetOf(r.map.text, hit.from, hit.to), field: r.field.name, fieldLabel: r.field.label, source: hitSource(r, hit) });
    }
  }
  const { doc } = candidate;
  return { id: doc.id, kind: doc.kind, rowId: doc.rowId, seriesId: doc.seriesId, bookId: doc.bookId, title: doc.title, position: doc.position, count, snippets, score: candidate.score };
}

function rank(read: ReadField): number {
  return read.field.group === 'body' ? 0 : read.field.group === 'title' ? 1 : 2;
}

function phraseText(read: ReadField, hit: Hit): string {
  return read.tokens
    .filter((t) => t.from >= hit.from && t.to <= hit.to)
    .map((t) => t.term)
    .join(' ');
}

/** Hits that do not overlap the one before (a phrase and its own words are one place). */
function distinctHits(hits: readonly Hit[]): Hit[] {
  const out: Hit[] = [];
  for (const hit of hits) {
    const last = out[out.length - 1];
    if (last && hit.from < last.to) continue;
    out.push(hit);
  }
  return out;
}

const KIND_LABELS: Record<Exclude<SearchKind, 'chapter'>, string> = { book: 'Books', character: 'Characters', location: 'Locations', event: 'Timeline events' };
const KIND_ORDER: SearchKind[] = ['chapter', 'character', 'location', 'event', 'book'];

export interface GroupContext {
  /** A book's title and place in its series, for the group of its chapters. */
  book(bookId: string): { title: string; position: number } | null;
  /** A series' title, for groups when searching every series (null: one series, no prefix). */
  seriesTitle?(seriesId: string): string | null;
}

/** Chapters by book in reading order (where was it first mentioned?), then characters, locations, events, books. */
export function groupResults(results: readonly SearchResult[], context: GroupContext): ResultGroup[] {
  const groups = new Map<string, { key: string; label: string; kind: SearchKind; seriesId: string; order: number; results: SearchResult[] }>();
  for (const result of results) {
    const book = result.kind === 'chapter' && result.bookId ? context.book(result.bookId) : null;
    const key = result.kind === 'chapter' ? `${result.seriesId}:book:${result.bookId ?? ''}` : `${result.seriesId}:${result.kind}`;
    let group = groups.get(key);
    if (!group) {
      const seriesTitle = context.seriesTitle?.(result.seriesId) ?? null;
      const base = result.kind === 'chapter' ? (book?.title.trim() || 'Untitled book') : KIND_LABELS[result.kind];
      group = {
        key,
        label: seriesTitle ? `${seriesTitle} · ${base}` : base,
        kind: result.kind,
        seriesId: result.seriesId,
        order: KIND_ORDER.indexOf(result.kind) * 1e6 + (book?.position ?? 0),
        results: [],
      };
      groups.set(key, group);
    }
    group.results.push(result);
  }
  return [...groups.values()]
    .sort((a, b) => a.seriesId.localeCompare(b.seriesId) || a.order - b.order)
    .map(({ order: _order, results: rs, ...g }) => ({
      ...g,
      results: g.kind === 'chapter' || g.kind === 'event' ? rs.sort((a, b) => a.position - b.position) : rs.sort((a, b) => b.score - a.score),
      count: rs.reduce((sum, r) => sum + r.count, 0),
    }));
}

/**
 * The search index: MiniSearch over the documents of search's pure rules (@chronicler/schema/search),
 * with the documents kept beside it so a query can read its candidates' text (phrases are checked,
 * snippets cut, hits mapped back to the marked text). No I/O: the worker feeds it rows and stores
 * it; the tests and the bench drive it directly (docs/decisions/0012-offline-search.md).
 */
import MiniSearch, { type Options, type SearchResult as MiniResult } from 'minisearch';
import {
  type Candidate,
  FIELD_GROUPS,
  type FieldGroup,
  type GroupContext,
  type ParsedQuery,
  type ReadField,
  type ResultGroup,
  type SearchDocument,
  type SearchResult,
  foldedWords,
  groupResults,
  matchesAsPrefix,
  parseQuery,
  readField,
  resultOf,
  typoAllowance,
  visibleText,
} from '@chronicler/schema/search';

/**
 * Bumped whenever what the index holds for a row changes (the words, the fields, MiniSearch's
 * options): a stored index of another version is rebuilt, never read.
 */
export const SEARCH_INDEX_VERSION = 1;

/** Results a query reads the text of (snippets, phrase checks); more are counted, not shown. */
export const RESULTS_SHOWN = 50;
/** Candidates a phrase query checks before it stops and says there may be more. */
export const PHRASE_CANDIDATES_CHECKED = 2_000;

interface IndexedFields {
  id: string;
  seriesId: string;
}

const FIELD_TEXT = (doc: SearchDocument, group: FieldGroup) =>
  doc.fields
    .filter((f) => f.group === group)
    .map((f) => (f.markup ? visibleText(f.text) : f.text))
    .join('\n');

function options(docs: ReadonlyMap<string, SearchDocument>): Options<IndexedFields> {
  return {
    idField: 'id',
    fields: [...FIELD_GROUPS],
    storeFields: [],
    // The text arrives folded word by word from the shared rules; the index keeps those words.
    tokenize: (text: string) => foldedWords(text),
    processTerm: (term: string) => term,
    extractField: (document, fieldName) => {
      if (fieldName === 'id') return document.id;
      const doc = docs.get(document.id);
      return doc ? FIELD_TEXT(doc, fieldName as FieldGroup) : '';
    },
  };
}

export interface SearchScope {
  /** One series, or null for every series on the device. */
  seriesId: string | null;
}

export interface SearchAnswer {
  query: string;
  groups: ResultGroup[];
  /** Results found (documents), of which at most RESULTS_SHOWN are in `groups`. */
  total: number;
  /** A phrase query stopped checking: `total` is a lower bound. */
  more: boolean;
  /** Hits in the results shown. */
  hits: number;
}

export const NO_ANSWER: Omit<SearchAnswer, 'query'> = { groups: [], total: 0, more: false, hits: 0 };

export class SearchIndex {
  private readonly docs = new Map<string, SearchDocument>();
  private readonly reads = new Map<string, readonly ReadField[]>();
  private mini: MiniSearch<IndexedFields>;

  private constructor(mini: MiniSearch<IndexedFields> | null) {
    this.mini = mini ?? new MiniSearch(options(this.docs));
  }

  static empty(): SearchIndex {
    return new SearchIndex(null);
  }

  /**
   * An index read back from `toJSON`, checked against the rows as they are now: `stored` is the
   * stamp of each document it was built from, `current` the documents of the rows on the device.
   * A document whose stamp differs is re-added, one that is gone discarded; `changed` counts them.
   * A stored index that cannot be read throws (the caller rebuilds).
   */
  static restore(json: string, stored: ReadonlyMap<string, string>, current: readonly SearchDocument[]): { index: SearchIndex; changed: number } {
    const index = new SearchIndex(null);
    const fresh: SearchDocument[] = [];
    for (const doc of current) {
      if (stored.get(doc.id) === doc.stamp) index.docs.set(doc.id, doc);
      else fresh.push(doc);
    }
    index.mini = MiniSearch.loadJSON(json, options(index.docs));
    if (index.mini.documentCount !== stored.size) throw new Error('The stored search index does not match its stamps');
    let changed = fresh.length;
    for (const id of stored.keys()) {
      if (!index.docs.has(id)) {
        index.mini.discard(id);
        if (!fresh.some((d) => d.id === id)) changed++;
      }
    }
    for (const doc of fresh) index.put(doc.id, doc);
    return { index, changed };
  }

  /** Each document's stamp, stored beside the index. */
  stamps(): [string, string][] {
    return [...this.docs.values()].map((d) => [d.id, d.stamp]);
  }

  get size(): number {
    return this.docs.size;
  }

  stampOf(id: string): string | undefined {
    return this.docs.get(id)?.stamp;
  }

  ids(): IterableIterator<string> {
    return this.docs.keys();
  }

  document(id: string): SearchDocument | undefined {
    return this.docs.get(id);
  }

  /** Adds the documents (a cold build), in one call so MiniSearch can size its tree once. */
  addAll(docs: readonly SearchDocument[]): void {
    for (const doc of docs) this.docs.set(doc.id, doc);
    this.mini.addAll(docs.map((d) => ({ id: d.id, seriesId: d.seriesId })));
  }

  /** Adds, replaces or (null, after a delete) removes one row's document. */
  put(id: string, doc: SearchDocument | null): void {
    if (this.docs.has(id)) {
      this.mini.discard(id);
      this.docs.delete(id);
      this.reads.delete(id);
    }
    if (doc) {
      this.docs.set(id, doc);
      this.mini.add({ id, seriesId: doc.seriesId });
    }
  }

  toJSON(): string {
    return JSON.stringify(this.mini);
  }

  /** The results of a query, grouped; an empty or one-letter query answers nothing. */
  search(input: string, scope: SearchScope, context: GroupContext): SearchAnswer {
    const query = parseQuery(input);
    if (query.empty) return { query: input, ...NO_ANSWER };
    const { results, total, more } = this.results(query, scope);
    return { query: input, groups: groupResults(results, context), total, more, hits: results.reduce((sum, r) => sum + r.count, 0) };
  }

  /** The query's results in score order, checked and with snippets (at most `limit`). */
  results(query: ParsedQuery, scope: SearchScope, limit = RESULTS_SHOWN): { results: SearchResult[]; total: number; more: boolean } {
    const candidates = this.candidates(query, scope);
    const results: SearchResult[] = [];
    const checkAll = query.phrases.length > 0;
    let checked = 0;
    let verified = 0;
    for (const candidate of candidates) {
      if (!checkAll && results.length >= limit) break;
      if (checkAll && checked >= PHRASE_CANDIDATES_CHECKED) break;
      checked++;
      // Past the shown results a phrase query only checks (cheaply counted, no snippets kept).
      const result = resultOf(this.candidate(candidate), query, (doc) => this.readsOf(doc));
      if (!result) continue;
      verified++;
      if (results.length < limit) results.push(result);
    }
    if (!checkAll) return { results, total: candidates.length, more: false };
    return { results, total: verified, more: checked < candidates.length };
  }

  private candidate(result: MiniResult): Candidate {
    return { doc: this.docs.get(result.id as string)!, score: result.score, matched: new Set(result.terms) };
  }

  private readsOf(doc: SearchDocument): readonly ReadField[] {
    let reads = this.reads.get(doc.id);
    if (!reads) {
      reads = doc.fields.map(readField);
      // A few documents' read text is kept (a query typed letter by letter reads the same ones).
      if (this.reads.size > 200) this.reads.clear();
      this.reads.set(doc.id, reads);
    }
    return reads;
  }

  private candidates(query: ParsedQuery, scope: SearchScope): MiniResult[] {
    const terms = query.terms.map((t) => t.term);
    return this.mini.search(terms.join(' '), {
      combineWith: 'AND',
      tokenize: () => terms,
      processTerm: (term) => term,
      prefix: (_term, i) => matchesAsPrefix(query, i),
      fuzzy: (_term, i) => typoAllowance(query, i),
      boost: { title: 3, body: 1, more: 0.7 },
      ...(scope.seriesId ? { filter: (result: MiniResult) => this.docs.get(result.id as string)?.seriesId === scope.seriesId } : {}),
    });
  }
}

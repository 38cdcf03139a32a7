/**
 * Search's pure rules, the same in the index's worker, the tests and the bench: folding and words,
 * queries, documents from rows, hits with snippets mapped back to the marked text, grouping.
 * docs/decisions/0012-offline-search.md says how they fit with the index.
 */
export * from './tokens.ts';
export * from './query.ts';
export * from './documents.ts';
export * from './hits.ts';
export * from './results.ts';
export { visibleText } from '../markup/parse.ts';

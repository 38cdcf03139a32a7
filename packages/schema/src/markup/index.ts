/**
 * Chapter markup: emphasis in plain chapter text (`*italic*`, `**bold**`, `\*`). The one rule for
 * reading, writing and toggling it, used by the editor, exports, imports, counts and the server.
 * docs/decisions/0009-chapter-markup.md says why this syntax and how it travels.
 */
export { type Run, type Segment, type VisibleMap, segmentParagraph, parseParagraph, parseMarkup, visibleText, visibleTextMap, sourceRange, mayHoldMarkup, appendRun } from './parse.ts';
export { normalizeRuns, serializeRuns, escapeText, plainToMarkup } from './serialize.ts';
export { type EmphasisMark, type EmphasisEdit, toggleEmphasis, marksAt } from './toggle.ts';
export { type StyledPiece, styledPieces } from './pieces.ts';

// text.ts also holds the analysis's internal variants (sentencesFrom, paragraphsFrom): listed, not `export *`.
export { WORD_PATTERN, dialogueRanges, insideAny, paragraphsOf, sentencesOf, wordsOf, type Paragraph, type Sentence, type Span, type Word } from './text.ts';
export * from './analysis.ts';
export * from './material.ts';
export * from './suggestions.ts';
export * from './bible.ts';

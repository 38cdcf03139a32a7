export * from './text.ts';
export * from './analysis.ts';
export * from './material.ts';
export * from './suggestions.ts';
export * from './bible.ts';

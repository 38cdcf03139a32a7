export { TEXT_MERGE_BUDGET, type TextMergeConflict, type TextMergeResult, mergeChapterText } from './merge.ts';

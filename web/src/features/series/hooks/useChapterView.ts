import { useLocalStorage } from '@mantine/hooks';

/** How a book's chapters are shown: the reorderable list, or the planner's outline with synopses. */
export type ChapterView = 'list' | 'outline';

/** This device's choice, shared by every book and kept across visits (a preference, not synced data). */
export const CHAPTER_VIEW_KEY = 'chronicler:chapter-view';

export function useChapterView(): [ChapterView, (view: ChapterView) => void] {
  const [stored, setStored] = useLocalStorage<ChapterView>({ key: CHAPTER_VIEW_KEY, defaultValue: 'list', getInitialValueInEffect: false });
  return [stored === 'outline' ? 'outline' : 'list', setStored];
}

export { ChapterEditor } from './ChapterEditor';

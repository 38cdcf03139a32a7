import { ChapterEditorPage } from '@/features/editor';

/** The editor itself, loaded lazily by ChapterEditorRoute once the entry rule let it through. */
export default function ChapterEditorScreen() {
  return <ChapterEditorPage />;
}

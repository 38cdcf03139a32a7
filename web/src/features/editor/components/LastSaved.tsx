import { Text } from '@mantine/core';
import { type ChapterEditorController, useEditorState } from '../hooks/useChapterEditor';
import { useLastSavedText } from '../hooks/useLastSavedText';

/**
 * "Last saved: …" (001 §2) — but "Unsaved changes" while the author has input that is not saved,
 * so "Just now" never sits next to words that are not saved (DESIGN.md §5).
 */
export function LastSaved({ controller }: { controller: Pick<ChapterEditorController, 'store'> }) {
  const dirty = useEditorState(controller, (s) => s.dirty);
  const savedAt = useEditorState(controller, (s) => s.lastSavedAt);
  const text = useLastSavedText(savedAt);
  return (
    <Text size="sm" c="dimmed" data-testid="last-saved" data-unsaved={dirty || undefined} aria-live="polite">
      {dirty ? 'Unsaved changes' : savedAt ? `Last saved: ${text}` : text}
    </Text>
  );
}

import { Text } from '@mantine/core';
import { type ChapterEditorController, useEditorState } from '../hooks/useChapterEditor';
import { useLastSavedText } from '../hooks/useLastSavedText';

/**
 * "Last saved: …" (001 §2) — but "Unsaved changes" while the author has input that is not saved,
 * so "Just now" never sits next to words that are not saved (docs/spec-differences.md).
 */
export function LastSaved({
  controller,
  compact = false,
  testId = 'last-saved',
}: {
  controller: Pick<ChapterEditorController, 'store'>;
  compact?: boolean;
  /** Focus mode shows a second one while the toolbar's is hidden. */
  testId?: string;
}) {
  const dirty = useEditorState(controller, (s) => s.dirty);
  const savedAt = useEditorState(controller, (s) => s.lastSavedAt);
  const text = useLastSavedText(savedAt);
  return (
    <Text size={compact ? 'xs' : 'sm'} c="dimmed" data-testid={testId} data-unsaved={dirty || undefined} aria-live="polite" truncate={compact}>
      {dirty ? 'Unsaved changes' : savedAt && !compact ? `Last saved: ${text}` : savedAt ? `Saved ${text.toLowerCase()}` : text}
    </Text>
  );
}

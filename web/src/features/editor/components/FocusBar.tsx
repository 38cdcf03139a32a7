/**
 * Focus mode's only controls (docs/web.md#the-chapter-editor), in the window's top corner, faint
 * until pointed at or focused: the word count and save state on request, and the way out (Esc).
 */
import { ActionIcon, Group, Paper, Text } from '@mantine/core';
import { IconArrowsMinimize, IconNumbers } from '@tabler/icons-react';
import { DeferredTooltip } from '@/lib/first-load';
import { type ChapterEditorController, useEditorState } from '../hooks/useChapterEditor';
import { formatCount } from '../model/constants';
import { LastSaved } from './LastSaved';
import classes from '../editor.module.css';

export interface FocusBarProps {
  controller: ChapterEditorController;
  countsShown: boolean;
  onToggleCounts: () => void;
  onLeave: () => void;
}

function FocusCounts({ controller }: { controller: ChapterEditorController }) {
  const words = useEditorState(controller, (s) => s.words);
  return (
    <Group gap={8} wrap="nowrap" data-testid="focus-counts">
      <Text size="sm" fw={600} className={classes.countValue}>
        {formatCount(words)} {words === 1 ? 'word' : 'words'}
      </Text>
      <LastSaved controller={controller} compact testId="focus-save-state" />
    </Group>
  );
}

export function FocusBar({ controller, countsShown, onToggleCounts, onLeave }: FocusBarProps) {
  return (
    <Paper className={classes.focusBar} radius="xl" px="xs" py={4} withBorder={countsShown} role="toolbar" aria-label="Focus mode" data-counts-shown={countsShown || undefined} data-testid="focus-bar">
      <Group gap={6} wrap="nowrap">
        {countsShown ? <FocusCounts controller={controller} /> : null}
        <DeferredTooltip label={countsShown ? 'Hide word count' : 'Show word count and save state'}>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Word count and save state" aria-pressed={countsShown} onClick={onToggleCounts}>
            <IconNumbers size={18} aria-hidden />
          </ActionIcon>
        </DeferredTooltip>
        <DeferredTooltip label="Leave focus mode (Esc)">
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Leave focus mode" onClick={onLeave} data-testid="focus-leave">
            <IconArrowsMinimize size={18} aria-hidden />
          </ActionIcon>
        </DeferredTooltip>
      </Group>
    </Paper>
  );
}

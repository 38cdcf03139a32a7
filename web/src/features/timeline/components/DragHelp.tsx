import { useState } from 'react';
import { CloseButton, Group, Paper, Text } from '@mantine/core';
import { IconDragDrop } from '@tabler/icons-react';
import { readLocal, writeLocal } from '@/lib/storage';

export const DRAG_HELP_DISMISSED_KEY = 'chronicler:timeline-drag-help-dismissed';

/**
 * "Timeline Drag & Drop Enabled" (001 §2): shown only in the view where dragging applies (the
 * narrative view), as a plain note — not an alert or live region, so screen readers do not
 * announce it on every visit — and dismissible for good on this device.
 */
export function DragHelp() {
  const [dismissed, setDismissed] = useState(() => readLocal(DRAG_HELP_DISMISSED_KEY) === 'true');
  if (dismissed) return null;
  const dismiss = () => {
    writeLocal(DRAG_HELP_DISMISSED_KEY, 'true');
    setDismissed(true);
  };
  return (
    <Paper withBorder radius="md" p="sm" role="note" aria-labelledby="drag-help-title" data-testid="drag-help">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Group gap="sm" align="flex-start" wrap="nowrap">
          <IconDragDrop size={18} aria-hidden style={{ flex: 'none', marginTop: 2, color: 'var(--mantine-primary-color-filled)' }} />
          <div>
            <Text fw={600} size="sm" id="drag-help-title">
              Timeline Drag & Drop Enabled
            </Text>
            <Text size="sm" c="dimmed">
              Drag an event by its handle to reorder it within its book. With the keyboard, focus a handle, press space to pick the
              event up, the arrow keys to move it and space to drop it.
            </Text>
          </div>
        </Group>
        <CloseButton aria-label="Dismiss the drag and drop help" onClick={dismiss} />
      </Group>
    </Paper>
  );
}

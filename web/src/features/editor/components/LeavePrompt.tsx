/** The question asked when the author leaves the editor with unsaved input (spec 001 §2). */
import { Button, Group, Stack, Text } from '@mantine/core';
import { Modal } from '@/lib/first-load';
import { LEAVE_PROMPT } from '../model/constants';

export interface LeavePromptProps {
  opened: boolean;
  /** Which answer is under way (its button spins, the other waits). */
  leaving: null | 'save' | 'discard';
  onStay: () => void;
  onDiscard: () => void;
  onSave: () => void;
}

export function LeavePrompt({ opened, leaving, onStay, onDiscard, onSave }: LeavePromptProps) {
  return (
    <Modal opened={opened} onClose={() => (leaving ? undefined : onStay())} title="Unsaved changes" closeButtonProps={{ 'aria-label': 'Stay on this page' }} centered>
      <Stack gap="md">
        <Text>{LEAVE_PROMPT}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onStay} disabled={leaving !== null}>
            Stay
          </Button>
          <Button variant="light" color="red" onClick={onDiscard} loading={leaving === 'discard'} disabled={leaving === 'save'}>
            Leave without saving
          </Button>
          <Button onClick={onSave} loading={leaving === 'save'} disabled={leaving === 'discard'} data-autofocus>
            Save and leave
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

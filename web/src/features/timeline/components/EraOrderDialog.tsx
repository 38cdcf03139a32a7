import { useState } from 'react';
import { ActionIcon, Button, Group, Stack, Text } from '@mantine/core';
import { Modal } from '@/lib/first-load';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import type { EraInUse } from '../model/chronology';

export interface EraOrderDialogProps {
  opened: boolean;
  /** The eras the dates use, in the order shown now. */
  eras: readonly EraInUse[];
  onClose: () => void;
  /** Saves the order (era keys); `[]` goes back to the order the story first uses them. */
  onSave: (order: string[]) => Promise<boolean>;
}

/**
 * The author's order of the timeline's eras: "the Age of Ash came before the First Age", which no
 * date text can say. Each era moves up or down with its buttons (keyboard: Tab to a button, Enter);
 * the chronological and character-based views follow the saved order.
 */
export function EraOrderDialog({ opened, eras, onClose, onSave }: EraOrderDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Era order" centered radius="md">
      {opened ? <EraOrderForm eras={eras} onClose={onClose} onSave={onSave} /> : null}
    </Modal>
  );
}

function EraOrderForm({ eras, onClose, onSave }: Omit<EraOrderDialogProps, 'opened'>) {
  const [order, setOrder] = useState(() => [...eras]);
  const [saving, setSaving] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const move = (index: number, by: -1 | 1) => {
    const next = [...order];
    const [era] = next.splice(index, 1);
    next.splice(index + by, 0, era!);
    setOrder(next);
    setAnnouncement(`${era!.label} moved to position ${index + by + 1} of ${next.length}`);
  };
  const save = async (keys: string[]) => {
    setSaving(true);
    const saved = await onSave(keys);
    setSaving(false);
    if (saved) onClose();
  };
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Eras in the order they happened. The timeline orders events by era first, then by their dates.
      </Text>
      <ol aria-label="Eras, earliest first" style={{ margin: 0, padding: 0, listStyle: 'none' }}>
        {order.map((era, index) => (
          <li key={era.key} data-testid="era">
            <Group justify="space-between" wrap="nowrap" gap="xs" py={4}>
              <Text size="sm" fw={500} truncate="end">
                {index + 1}. {era.label}
              </Text>
              <Group gap={4} wrap="nowrap">
                <ActionIcon variant="default" aria-label={`Move ${era.label} earlier`} disabled={index === 0} onClick={() => move(index, -1)}>
                  <IconArrowUp size={16} aria-hidden />
                </ActionIcon>
                <ActionIcon variant="default" aria-label={`Move ${era.label} later`} disabled={index === order.length - 1} onClick={() => move(index, 1)}>
                  <IconArrowDown size={16} aria-hidden />
                </ActionIcon>
              </Group>
            </Group>
          </li>
        ))}
      </ol>
      <div role="status" aria-live="polite" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clipPath: 'inset(50%)' }}>
        {announcement}
      </div>
      <Group justify="space-between" gap="xs">
        <Button variant="subtle" onClick={() => void save([])} disabled={saving}>
          Use the story’s order
        </Button>
        <Group gap="xs">
          <Button variant="default" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={() => void save(order.map((era) => era.key))} loading={saving}>
            Save order
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

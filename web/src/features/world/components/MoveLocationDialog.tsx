import { useState, type FormEvent } from 'react';
import { Stack, Text } from '@mantine/core';
import type { Location } from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { FormActions } from '@/components/FormActions';
import { useHeldWhileClosing } from '@/lib/useEntityForm';
import { type LocationTree, descendantCount } from '../model/place-tree';
import { ParentSelect } from './ParentSelect';

interface MoveLocationDialogProps {
  /** The place to move; null when closed. */
  location: Location | null;
  tree: LocationTree;
  onClose: () => void;
  /** Saves the move; resolves false (the dialog stays, the error said) when it was refused. */
  onMove: (location: Location, parentId: string | null) => Promise<boolean>;
}

/**
 * Move a place into another, or to the top level; the places inside it go with it
 * (docs/decisions/0021-places-inside-places.md). Only places it may move into are offered.
 */
export function MoveLocationDialog({ location, tree, onClose, onMove }: MoveLocationDialogProps) {
  const current = useHeldWhileClosing(location !== null, location);
  return (
    <Modal
      opened={location !== null}
      onClose={onClose}
      title={current ? `Move ${current.name}` : 'Move location'}
      centered
      radius="md"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {current ? <MoveForm key={current.id} location={current} tree={tree} onClose={onClose} onMove={onMove} /> : null}
    </Modal>
  );
}

function MoveForm({ location, tree, onClose, onMove }: { location: Location } & Omit<MoveLocationDialogProps, 'location'>) {
  const [parentId, setParentId] = useState<string | null>(location.parentId ?? null);
  const [busy, setBusy] = useState(false);
  const inside = descendantCount(tree, location.id);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (parentId === (location.parentId ?? null)) return onClose();
    setBusy(true);
    try {
      if (await onMove(location, parentId)) onClose();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          Choose the place {location.name} is inside, or none to put it at the top level.
          {inside === 1 ? ' The place inside it moves with it.' : inside > 1 ? ` The ${inside} places inside it move with it.` : ''}
        </Text>
        <ParentSelect tree={tree} movingId={location.id} value={parentId} onChange={setParentId} autoFocus />
        <FormActions onCancel={onClose} busy={busy} submitLabel="Move" mt="xs" />
      </Stack>
    </form>
  );
}

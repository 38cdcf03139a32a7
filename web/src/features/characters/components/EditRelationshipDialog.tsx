import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import type { Character, CharacterRelationship } from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { FormActions } from '@/components/FormActions';
import { RELATIONSHIP_LABELS, type RelationshipType } from '../model/map-geometry';
import { RelationshipTypeSelect } from './RelationshipTypeSelect';

export interface EditRelationshipDialogProps {
  relationship: CharacterRelationship | null;
  characters: readonly Character[];
  onClose: () => void;
  onSave: (relationship: CharacterRelationship, change: { relationshipType: RelationshipType; description: string }) => Promise<boolean>;
  onDelete: (relationship: CharacterRelationship) => Promise<boolean>;
}

/** Opened by clicking a link on the map: change the type or description, or delete the relationship. */
export function EditRelationshipDialog({ relationship, characters, onClose, onSave, onDelete }: EditRelationshipDialogProps) {
  const [type, setType] = useState<RelationshipType>('ally');
  const [description, setDescription] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!relationship) return;
    setType(relationship.relationshipType);
    setDescription(relationship.description);
    setConfirming(false);
    setBusy(false);
  }, [relationship]);

  const name = (id: string | undefined) => characters.find((c) => c.id === id)?.name ?? 'Unknown character';

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!relationship) return;
    setBusy(true);
    const done = await onSave(relationship, { relationshipType: type, description });
    setBusy(false);
    if (done) onClose();
  };

  const remove = async () => {
    if (!relationship) return;
    setBusy(true);
    const done = await onDelete(relationship);
    setBusy(false);
    if (done) onClose();
  };

  return (
    <Modal opened={relationship !== null} onClose={onClose} title="Edit Relationship" centered radius="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={save} noValidate aria-label="Edit relationship">
        <Stack gap="sm">
          <Text size="sm">
            <Text span fw={700}>
              {name(relationship?.sourceCharacterId)}
            </Text>{' '}
            and{' '}
            <Text span fw={700}>
              {name(relationship?.targetCharacterId)}
            </Text>
            {relationship ? ` · ${RELATIONSHIP_LABELS[relationship.relationshipType]}` : ''}
          </Text>
          <RelationshipTypeSelect value={type} onChange={setType} />
          <Textarea label="Description" autosize minRows={2} maxRows={5} value={description} onChange={(e) => setDescription(e.currentTarget.value)} data-autofocus />
          {confirming ? (
            <Alert color="red" variant="light" title="Delete this relationship?">
              <Group justify="flex-end" gap="sm" mt="xs">
                <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                  Keep it
                </Button>
                <Button size="xs" color="red" onClick={() => void remove()} loading={busy}>
                  Delete relationship
                </Button>
              </Group>
            </Alert>
          ) : null}
          <FormActions
            onCancel={onClose}
            busy={busy && !confirming}
            submitLabel="Save"
            mt="xs"
            leading={
              <Button variant="subtle" color="red" onClick={() => setConfirming(true)} disabled={confirming}>
                Delete
              </Button>
            }
          />
        </Stack>
      </form>
    </Modal>
  );
}

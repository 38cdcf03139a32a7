import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Select, Stack, Textarea } from '@mantine/core';
import type { Character } from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { FormActions } from '@/components/FormActions';
import {
  canSubmitRelationship,
  emptyRelationshipForm,
  setSource,
  setTarget,
  targetOptions,
  type RelationshipFormState,
} from '../model/relationship-form';
import { RelationshipTypeSelect } from './RelationshipTypeSelect';

export interface AddRelationshipDialogProps {
  opened: boolean;
  characters: readonly Character[];
  /** A source chosen beforehand (from a character's details). */
  initialSourceId?: string | null;
  onClose: () => void;
  onSubmit: (state: RelationshipFormState) => Promise<boolean>;
}

/** The add-relationship dialog (001 §2, §4, §5): source, target (never the source), type, description. */
export function AddRelationshipDialog({ opened, characters, initialSourceId = null, onClose, onSubmit }: AddRelationshipDialogProps) {
  const [state, setState] = useState<RelationshipFormState>(() => emptyRelationshipForm(initialSourceId));
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (opened) {
      setState(emptyRelationshipForm(initialSourceId));
      setSaving(false);
    }
  }, [opened, initialSourceId]);

  const sourceData = useMemo(() => characters.map((c) => ({ value: c.id, label: c.name })), [characters]);
  const targetData = useMemo(
    () => targetOptions(characters, state.sourceCharacterId).map((c) => ({ value: c.id, label: c.name })),
    [characters, state.sourceCharacterId],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmitRelationship(state)) return;
    setSaving(true);
    const done = await onSubmit(state);
    setSaving(false);
    if (done) onClose();
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Add Relationship" centered radius="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit} noValidate aria-label="Add relationship">
        <Stack gap="sm">
          <Select
            label="Source character"
            placeholder="Select a character"
            data={sourceData}
            value={state.sourceCharacterId}
            onChange={(v) => setState((s) => setSource(s, v))}
            searchable
            nothingFoundMessage="No characters"
            comboboxProps={{ withinPortal: true }}
            data-autofocus
          />
          <Select
            label="Target character"
            placeholder="Select a character"
            data={targetData}
            value={state.targetCharacterId}
            onChange={(v) => setState((s) => setTarget(s, v))}
            searchable
            nothingFoundMessage="No other characters"
            comboboxProps={{ withinPortal: true }}
          />
          <RelationshipTypeSelect value={state.relationshipType} onChange={(relationshipType) => setState((s) => ({ ...s, relationshipType }))} />
          <Textarea
            label="Description"
            placeholder="How are they connected?"
            autosize
            minRows={2}
            maxRows={5}
            value={state.description}
            onChange={(e) => {
              const description = e.currentTarget.value;
              setState((s) => ({ ...s, description }));
            }}
          />
          <FormActions onCancel={onClose} busy={saving} submitDisabled={!canSubmitRelationship(state)} submitLabel="Add Relationship" mt="xs" />
        </Stack>
      </form>
    </Modal>
  );
}

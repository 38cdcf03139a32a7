import type { ChangeEvent, FormEvent, ReactNode } from 'react';
import { Stack, TextInput, Textarea } from '@mantine/core';
import { Modal } from '@/lib/first-load';
import { FormActions } from './FormActions';

interface TextField<E> {
  value: string;
  error?: ReactNode;
  onChange: (event: ChangeEvent<E>) => void;
}

export interface NewSeriesFormDialogProps {
  opened: boolean;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  busy: boolean;
  /** The name field: 'Title' on the Series page, 'Series name' on the Collaboration page. */
  name: TextField<HTMLInputElement> & { label: string; placeholder: string };
  description: TextField<HTMLTextAreaElement> & { placeholder: string; required?: boolean };
  /** The page's own fields after the description (total books; the public switch). */
  children?: ReactNode;
}

/**
 * The 'New Series' dialog (001 §2, §5) as both the Series page and the Collaboration page show it:
 * the name, the description, the page's own fields, Cancel and Create Series. Each page keeps its
 * values, validation and saving.
 */
export function NewSeriesFormDialog({ opened, onClose, onSubmit, busy, name, description, children = null }: NewSeriesFormDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="New Series" centered radius="md">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput label={name.label} placeholder={name.placeholder} required value={name.value} error={name.error} onChange={name.onChange} data-autofocus />
          <Textarea
            label="Description"
            placeholder={description.placeholder}
            required={description.required ?? false}
            autosize
            minRows={3}
            maxRows={8}
            value={description.value}
            error={description.error}
            onChange={description.onChange}
          />
          {children}
          <FormActions onCancel={onClose} busy={busy} submitLabel="Create Series" />
        </Stack>
      </form>
    </Modal>
  );
}

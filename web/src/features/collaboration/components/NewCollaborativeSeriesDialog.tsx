import { useState, type FormEvent } from 'react';
import { Switch } from '@mantine/core';
import { type CollaborativeSeries, createCollaborativeSeriesBodySchema } from '@chronicler/schema';
import { NewSeriesFormDialog } from '@/components/NewSeriesFormDialog';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { toast } from '@/lib/toast';
import { collaborationApi } from '../api';

interface Props {
  opened: boolean;
  onClose: () => void;
  onCreated: (series: CollaborativeSeries) => void;
}

type Errors = Partial<Record<'name' | 'description', string>>;

/** 'New Series' on the Collaboration page (001 §5): name ≥ 3, description ≥ 10, isPublic off by default. */
export function NewCollaborativeSeriesDialog({ opened, onClose, onCreated }: Props) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPublic, setIsPublic] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const close = () => {
    setName('');
    setDescription('');
    setIsPublic(false);
    setErrors({});
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = createCollaborativeSeriesBodySchema.safeParse({ name, description, isPublic });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'name' || field === 'description') && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      return;
    }
    setBusy(true);
    try {
      const created = await collaborationApi.createSeries(parsed.data);
      toast.show(TOASTS.seriesCreated);
      onCreated(created);
      close();
    } catch (error) {
      toast.show(withError(TOASTS.collaborativeSeriesCreateFailed, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <NewSeriesFormDialog
      opened={opened}
      onClose={close}
      onSubmit={submit}
      busy={busy}
      name={{
        label: 'Series name',
        placeholder: 'The Shared Chronicles',
        value: name,
        error: errors.name,
        onChange: (e) => {
          setName(e.currentTarget.value);
          setErrors((x) => ({ ...x, name: undefined }));
        },
      }}
      description={{
        placeholder: 'What will you write together?',
        required: true,
        value: description,
        error: errors.description,
        onChange: (e) => {
          setDescription(e.currentTarget.value);
          setErrors((x) => ({ ...x, description: undefined }));
        },
      }}
    >
      <Switch label="Public series" description="Listed for other authors to discover" checked={isPublic} onChange={(e) => setIsPublic(e.currentTarget.checked)} />
    </NewSeriesFormDialog>
  );
}

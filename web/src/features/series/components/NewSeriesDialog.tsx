import { useState, type FormEvent } from 'react';
import { NumberInput } from '@mantine/core';
import { MESSAGES, type Series } from '@chronicler/schema';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { NewSeriesFormDialog } from '@/components/NewSeriesFormDialog';
import { toast } from '@/lib/toast';
import { useMutators } from '@/lib/sync';
import { useTitleField } from '../hooks/useTitleField';
import { useTotalBooksField } from '../hooks/useTotalBooksField';

interface NewSeriesDialogProps {
  opened: boolean;
  onClose: () => void;
  onCreated?: (series: Series) => void;
}

const DEFAULT_TOTAL_BOOKS = 3;

/** 'New Series' (001 §2, §5): title required, description, total books (default 3, minimum 1). */
export function NewSeriesDialog({ opened, onClose, onCreated }: NewSeriesDialogProps) {
  const mutators = useMutators();
  const title = useTitleField(MESSAGES.series.titleRequired);
  const [description, setDescription] = useState('');
  const totalBooks = useTotalBooksField(DEFAULT_TOTAL_BOOKS);
  const [busy, setBusy] = useState(false);

  const reset = () => {
    title.reset();
    setDescription('');
    totalBooks.reset();
  };
  const close = () => {
    reset();
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const titled = title.check();
    const total = totalBooks.check();
    if (!titled) {
      toast.show(TOASTS.seriesTitleMissing);
      return;
    }
    if (total === null) return;
    setBusy(true);
    try {
      const series = await mutators.series.create({
        title: title.value.trim(),
        description: description.trim(),
        totalBooks: total,
        currentBook: 1,
        coverImage: null,
      });
      toast.show(TOASTS.seriesCreated);
      reset();
      onCreated?.(series);
      onClose();
    } catch (error) {
      toast.show(withError(TOASTS.seriesCreateFailed, error));
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
      name={{ label: 'Title', placeholder: 'The Earthsea Cycle', ...title.inputProps }}
      description={{ placeholder: 'What is this series about?', value: description, onChange: (e) => setDescription(e.currentTarget.value) }}
    >
      <NumberInput label="Total books" description="How many books you plan for this series" {...totalBooks.inputProps} />
    </NewSeriesFormDialog>
  );
}

import { useState, type FormEvent } from 'react';
import { Stack, TextInput, Textarea } from '@mantine/core';
import { MESSAGES, type Book } from '@chronicler/schema';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { FormActions } from '@/components/FormActions';
import { toast } from '@/lib/toast';
import { useMutators } from '@/lib/sync';
import { useTitleField } from '../hooks/useTitleField';

interface AddBookFormProps {
  /** The series the book goes into; null when none is selected ('No series selected'). */
  seriesId: string | null;
  /** Books the series has now: the new one goes at position count + 1. */
  bookCount: number;
  onCreated: (book: Book) => void;
  onCancel: () => void;
  /** Blocks submitting (plan limit reached). */
  locked?: boolean;
  submitLabel?: string;
}

/** The add-book form (001 §5): a series must be selected, title required, position = count + 1. */
export function AddBookForm({ seriesId, bookCount, onCreated, onCancel, locked = false, submitLabel = 'Add Book' }: AddBookFormProps) {
  const mutators = useMutators();
  const title = useTitleField(MESSAGES.book.titleRequired);
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!seriesId) {
      toast.show(TOASTS.noSeriesSelected);
      return;
    }
    if (!title.check()) {
      toast.show({ title: 'Missing information', message: MESSAGES.book.titleRequired, variant: 'destructive' });
      return;
    }
    if (locked) return;
    setBusy(true);
    try {
      const book = await mutators.books.create({
        seriesId,
        title: title.value.trim(),
        description: description.trim(),
        position: bookCount + 1,
      });
      toast.show(TOASTS.bookCreated);
      title.reset();
      setDescription('');
      onCreated(book);
    } catch (error) {
      toast.show(withError(TOASTS.bookCreateFailed, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Title"
          placeholder={`Book ${bookCount + 1}`}
          required
          {...title.inputProps}
          data-autofocus
        />
        <Textarea
          label="Description"
          placeholder="What happens in this book?"
          autosize
          minRows={3}
          maxRows={8}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <FormActions onCancel={onCancel} busy={busy} submitDisabled={locked} submitLabel={submitLabel} />
      </Stack>
    </form>
  );
}

import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, NumberInput, Stack, TextInput, Textarea } from '@mantine/core';
import { MESSAGES, TOASTS, type Series, withError } from '@chronicler/schema';
import { toast } from '@/lib/toast';
import { useMutators } from '@/sync/react';

interface NewSeriesDialogProps {
  opened: boolean;
  onClose: () => void;
  onCreated?: (series: Series) => void;
}

const DEFAULT_TOTAL_BOOKS = 3;

/** 'New Series' (001 §2, §5): title required, description, total books (default 3, minimum 1). */
export function NewSeriesDialog({ opened, onClose, onCreated }: NewSeriesDialogProps) {
  const mutators = useMutators();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [totalBooks, setTotalBooks] = useState<number | string>(DEFAULT_TOTAL_BOOKS);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setTitle('');
    setDescription('');
    setTotalBooks(DEFAULT_TOTAL_BOOKS);
    setTitleError(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() === '') {
      setTitleError(MESSAGES.series.titleRequired);
      toast.show(TOASTS.seriesTitleMissing);
      return;
    }
    const total = typeof totalBooks === 'number' && totalBooks >= 1 ? Math.floor(totalBooks) : DEFAULT_TOTAL_BOOKS;
    setBusy(true);
    try {
      const series = await mutators.series.create({
        title: title.trim(),
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
    <Modal opened={opened} onClose={close} title="New Series" centered radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Title"
            placeholder="The Earthsea Cycle"
            required
            value={title}
            error={titleError}
            onChange={(e) => {
              setTitle(e.currentTarget.value);
              if (titleError && e.currentTarget.value.trim() !== '') setTitleError(null);
            }}
            data-autofocus
          />
          <Textarea
            label="Description"
            placeholder="What is this series about?"
            autosize
            minRows={3}
            maxRows={8}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <NumberInput
            label="Total books"
            description="How many books you plan for this series"
            min={1}
            max={1000}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="strict"
            value={totalBooks}
            onChange={setTotalBooks}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Create Series
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

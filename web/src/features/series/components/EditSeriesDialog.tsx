import '../styles';
import { useEffect, useState, type FormEvent } from 'react';
import { Button, Group, Loader, NumberInput, Stack, TextInput, Textarea } from '@mantine/core';
import { MESSAGES, type Series } from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { toast } from '@/lib/toast';
import { useSync } from '@/lib/sync';
import { PictureField } from '@/components/pictures/PictureField';
import { useTotalBooksField } from '../hooks/useTotalBooksField';

interface EditSeriesDialogProps {
  series: Series | null;
  onClose: () => void;
}

/**
 * Edit Series (000 §2, §5; 001 §7 PUT /api/series/{id} with name and description): name required
 * ('Series name is required', checked on submit and on change), description optional. Also the
 * book the author is on and the planned total, which drive 'Book X of Y' and the progress percent;
 * and the cover.
 */
export function EditSeriesDialog({ series, onClose }: EditSeriesDialogProps) {
  const { mutators, userId } = useSync();
  const [name, setName] = useState('');
  const [cover, setCover] = useState('');
  const [description, setDescription] = useState('');
  const [currentBook, setCurrentBook] = useState<number | string>(1);
  const totalBooks = useTotalBooksField(1);
  const resetTotalBooks = totalBooks.reset;
  const [nameError, setNameError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!series) return;
    setName(series.title);
    setDescription(series.description);
    setCover(series.coverImage ?? '');
    setCurrentBook(series.currentBook);
    resetTotalBooks(series.totalBooks);
    setNameError(null);
  }, [series, resetTotalBooks]);

  const total = totalBooks.valid(1);
  const current = typeof currentBook === 'number' && currentBook >= 1 ? Math.min(Math.floor(currentBook), total) : 1;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!series) return;
    const named = name.trim() !== '';
    if (!named) setNameError(MESSAGES.series.nameRequired);
    if (totalBooks.check() === null || !named) return;
    setSaving(true);
    try {
      const coverImage = cover.trim() === '' ? null : cover.trim();
      await mutators.series.update(series.id, {
        name: name.trim(),
        description: description.trim(),
        totalBooks: total,
        currentBook: current,
        ...(coverImage !== (series.coverImage ?? null) ? { coverImage } : {}),
      });
      toast.show(TOASTS.seriesUpdated);
      onClose();
    } catch (error) {
      toast.show(withError(TOASTS.seriesUpdateFailed, error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened={series !== null} onClose={onClose} title="Edit Series" centered radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Name"
            required
            value={name}
            error={nameError}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setName(value);
              setNameError(value.trim() === '' ? MESSAGES.series.nameRequired : null);
            }}
            data-autofocus
          />
          <Textarea
            label="Description"
            autosize
            minRows={3}
            maxRows={8}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          {/* The cover: a 2:3 picture kept on the device and uploaded (docs/decisions/0023-pictures-on-the-device.md). */}
          <PictureField label="Cover" shape="cover" value={cover} onChange={setCover} seriesId={series?.id ?? null} gated={series ? series.ownerId === userId : true} />
          <Group grow align="flex-start">
            <NumberInput
              label="Current book"
              min={1}
              max={total}
              allowDecimal={false}
              allowNegative={false}
              value={currentBook}
              onChange={setCurrentBook}
            />
            <NumberInput
              label="Total books"
              {...totalBooks.inputProps}
            />
          </Group>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button
              type="submit"
              disabled={saving}
              aria-busy={saving}
              leftSection={saving ? <Loader size={14} color="currentColor" aria-hidden /> : undefined}
            >
              {saving ? 'Saving' : 'Save'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

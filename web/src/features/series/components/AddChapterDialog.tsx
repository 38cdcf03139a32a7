import { useState, type FormEvent } from 'react';
import { Stack, Text, TextInput, Textarea } from '@mantine/core';
import { MESSAGES, countWordsDialog, newId, type Book } from '@chronicler/schema';
import { Modal } from '@/lib/first-load';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { FormActions } from '@/components/FormActions';
import { toast } from '@/lib/toast';
import { useMutators } from '@/lib/sync';
import { useTitleField } from '../hooks/useTitleField';

interface AddChapterDialogProps {
  book: Book | null;
  chapterCount: number;
  onClose: () => void;
}

/** The dialog's live count, word for word from the spec: 'N words'. */
export function wordsLabel(count: number): string {
  return `${count} words`;
}

/** 'Add Chapter' (001 §2, §5): title required, content with a live word count ('N words'). */
export function AddChapterDialog({ book, chapterCount, onClose }: AddChapterDialogProps) {
  const mutators = useMutators();
  const title = useTitleField(MESSAGES.chapter.titleRequired);
  const [content, setContent] = useState('');
  const [busy, setBusy] = useState(false);
  const words = countWordsDialog(content);

  const close = () => {
    title.reset();
    setContent('');
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!book) {
      toast.show({ title: 'Error', message: MESSAGES.chapter.noCurrentBook, variant: 'destructive' });
      return;
    }
    if (!title.check()) {
      toast.show(TOASTS.chapterTitleMissing);
      return;
    }
    setBusy(true);
    try {
      await mutators.chapters.create({
        bookId: book.id,
        title: title.value.trim(),
        content,
        wordCount: words,
        status: 'in_progress',
        position: chapterCount + 1,
        // Typed here by the author: their writing, counted in Words Today and the streak like text
        // typed in the editor (an import marks its creates `import`, and they count nowhere).
        ...(words > 0 ? { writing: { kind: 'writing' as const, eventId: newId(), editedAt: new Date().toISOString() } } : {}),
      });
      toast.show(TOASTS.chapterCreated);
      close();
    } catch (error) {
      toast.show(withError(TOASTS.chapterSaveFailed, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={book !== null} onClose={close} title={book ? `Add Chapter to ${book.title}` : 'Add Chapter'} centered radius="md" size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Chapter title"
            placeholder={`Chapter ${chapterCount + 1}`}
            required
            {...title.inputProps}
            data-autofocus
          />
          <Textarea
            label="Content"
            placeholder="Start writing, or leave it empty and write in the chapter editor"
            autosize
            minRows={6}
            maxRows={14}
            value={content}
            onChange={(e) => setContent(e.currentTarget.value)}
          />
          <FormActions
            onCancel={close}
            busy={busy}
            submitLabel="Add Chapter"
            leading={
              <Text size="sm" c="dimmed" aria-live="polite" data-testid="chapter-word-count">
                {wordsLabel(words)}
              </Text>
            }
          />
        </Stack>
      </form>
    </Modal>
  );
}

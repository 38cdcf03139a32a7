/**
 * A chapter's synopsis and notes, beside its text (docs/web.md#the-chapter-editor): the synopsis a
 * few lines in a text box, the notes in a prose editor with the text's emphasis (marked text,
 * docs/decisions/0009-chapter-markup.md). Each autosaves on its own (useFieldAutosave); neither is
 * counted as writing. The side panel shows them on large screens, a sheet on a phone (SidePanel).
 */
import { Suspense, lazy, useCallback, useRef, useState } from 'react';
import { Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { type Chapter, LIMITS } from '@chronicler/schema';
import { useMutators } from '@/lib/sync';
import { useFieldAutosave } from '../hooks/useFieldAutosave';
import type { ProseEditorHandle } from './ProseEditor';
import classes from './ChapterNotes.module.css';

const NotesEditor = lazy(() => import('./NotesEditor'));

type NoteField = 'synopsis' | 'notes';

/** Writes one field of the chapter; answers the refusal's message (a limit), or null once queued. */
function useFieldSave(chapterId: string, field: NoteField): [error: string | null, save: (value: string) => Promise<void>] {
  const mutators = useMutators();
  const [error, setError] = useState<string | null>(null);
  const save = useCallback(
    async (value: string) => {
      try {
        await mutators.chapters.update(chapterId, { [field]: value });
        setError(null);
      } catch (caught) {
        setError(caught instanceof Error ? caught.message : String(caught));
      }
    },
    [chapterId, field, mutators],
  );
  return [error, save];
}

/** Counts only near the limit, where they help. */
function lengthHint(length: number, limit: number): string | undefined {
  return length >= limit * 0.8 ? `${length.toLocaleString('en-US')} of ${limit.toLocaleString('en-US')} characters` : undefined;
}

export function ChapterNotes({ chapter, disabled, idPrefix }: { chapter: Chapter | null; disabled: boolean; idPrefix: string }) {
  if (!chapter) {
    return (
      <Text size="sm" c="dimmed">
        Save the chapter to give it a synopsis and notes.
      </Text>
    );
  }
  // Keyed by chapter: another chapter starts with its own saved values.
  return <ChapterNoteFields key={chapter.id} chapter={chapter} disabled={disabled} idPrefix={idPrefix} />;
}

function ChapterNoteFields({ chapter, disabled, idPrefix }: { chapter: Chapter; disabled: boolean; idPrefix: string }) {
  const [synopsisError, saveSynopsis] = useFieldSave(chapter.id, 'synopsis');
  const [notesError, saveNotes] = useFieldSave(chapter.id, 'notes');
  const synopsis = useFieldAutosave(chapter.synopsis ?? '', saveSynopsis);
  const notesEditor = useRef<ProseEditorHandle | null>(null);
  const notes = useFieldAutosave(chapter.notes ?? '', saveNotes, (saved) => notesEditor.current?.setText(saved));
  const [notesLength, setNotesLength] = useState((chapter.notes ?? '').length);

  return (
    <Stack gap="md">
      <Stack gap={4} component="section" aria-labelledby={`${idPrefix}-synopsis`}>
        <Title order={2} size="h5" id={`${idPrefix}-synopsis`}>
          Synopsis
        </Title>
        <Textarea
          aria-labelledby={`${idPrefix}-synopsis`}
          placeholder="What happens in this chapter, in a few lines"
          autosize
          minRows={2}
          maxRows={8}
          maxLength={LIMITS.chapterSynopsis}
          value={synopsis.value}
          disabled={disabled}
          onChange={(e) => synopsis.change(e.currentTarget.value)}
          onBlur={() => void synopsis.flush()}
          description={lengthHint(synopsis.value.length, LIMITS.chapterSynopsis)}
          error={synopsisError}
          data-testid="chapter-synopsis"
        />
      </Stack>
      <Stack gap={4} component="section" aria-labelledby={`${idPrefix}-notes`}>
        <Title order={2} size="h5" id={`${idPrefix}-notes`}>
          Notes
        </Title>
        <div className={classes.notesArea} data-testid="chapter-notes" onBlur={() => void notes.flush()}>
          <Suspense fallback={<Skeleton height="100%" />}>
            <NotesEditor
              className={classes.notesEditor}
              initialText={notes.value}
              label="Notes"
              placeholder="Research, reminders, what to fix…"
              readOnly={disabled}
              handle={notesEditor}
              onChange={(counts, external) => {
                setNotesLength(counts.chars);
                if (!external && notesEditor.current) notes.change(notesEditor.current.getText());
              }}
            />
          </Suspense>
        </div>
        {notesError ? (
          <Text size="xs" c="red" role="alert">
            {notesError}
          </Text>
        ) : lengthHint(notesLength, LIMITS.chapterNotes) ? (
          <Text size="xs" c="dimmed">
            {lengthHint(notesLength, LIMITS.chapterNotes)}
          </Text>
        ) : null}
      </Stack>
    </Stack>
  );
}

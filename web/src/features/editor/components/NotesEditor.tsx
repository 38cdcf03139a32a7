/**
 * The notes' prose editor: ProseEditor (emphasis as in the text), its content marked as the notes'
 * rather than the chapter's — ProseEditor tags every view's content `chapter-content`, which tests
 * and the page's own queries take to mean the chapter's text. Loaded with ProseEditor, on first use.
 */
import { useEffect } from 'react';
import { Prec, StateEffect } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { ProseEditor, type ProseEditorHandle, type ProseEditorProps } from './ProseEditor';

export const NOTES_CONTENT_TEST_ID = 'chapter-notes-content';

/** Runs after ProseEditor's own mount (a later sibling's effect), when its view exists. */
function MarkAsNotes({ editor }: { editor: { readonly current: ProseEditorHandle | null } }) {
  useEffect(() => {
    editor.current?.view?.dispatch({
      effects: StateEffect.appendConfig.of(Prec.highest(EditorView.contentAttributes.of({ 'data-testid': NOTES_CONTENT_TEST_ID }))),
    });
  }, [editor]);
  return null;
}

export default function NotesEditor(props: ProseEditorProps & { handle: { current: ProseEditorHandle | null } }) {
  return (
    <>
      <ProseEditor {...props} />
      <MarkAsNotes editor={props.handle} />
    </>
  );
}

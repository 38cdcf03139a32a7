/**
 * The toolbar's Italic and Bold: toggle the selection or the word at the caret, pressed while the
 * caret is in that emphasis (docs/web.md#emphasis-in-the-editor). They take no focus from the text
 * (a press keeps the selection, and a phone's keyboard stays open), so a phone needs no keyboard
 * shortcut to emphasise.
 */
import { ActionIcon } from '@mantine/core';
import { IconBold, IconItalic } from '@tabler/icons-react';
import { DeferredTooltip } from '@/lib/first-load';
import type { EmphasisMark } from '@chronicler/schema';
import { type ChapterEditorController, useEditorState } from '../hooks/useChapterEditor';

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/u.test(navigator.platform);
const MOD = MAC ? '⌘' : 'Ctrl+';

const BUTTONS = [
  { mark: 'italic', label: 'Italic', key: 'I', Icon: IconItalic },
  { mark: 'bold', label: 'Bold', key: 'B', Icon: IconBold },
] as const;

export function EmphasisButtons({ controller, disabled }: { controller: ChapterEditorController; disabled: boolean }) {
  const italic = useEditorState(controller, (s) => s.caretMarks.italic);
  const bold = useEditorState(controller, (s) => s.caretMarks.bold);
  const pressed: Record<EmphasisMark, boolean> = { italic, bold };
  return (
    <>
      {BUTTONS.map(({ mark, label, key, Icon }) => (
        <DeferredTooltip key={mark} label={`${label} (${MOD}${key})`}>
          <ActionIcon
            variant={pressed[mark] ? 'light' : 'subtle'}
            color={pressed[mark] ? undefined : 'gray'}
            size="lg"
            aria-label={label}
            aria-pressed={pressed[mark]}
            disabled={disabled}
            data-testid={`emphasis-${mark}`}
            // Keep the focus (and the selection) in the text.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => controller.editorRef.current?.toggleMark(mark)}
          >
            <Icon size={18} aria-hidden />
          </ActionIcon>
        </DeferredTooltip>
      ))}
    </>
  );
}

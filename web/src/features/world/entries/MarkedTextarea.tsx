import { useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { Textarea, type TextareaProps } from '@mantine/core';
import { type EmphasisMark, toggleEmphasis } from '@chronicler/schema';

interface MarkedTextareaProps extends Omit<TextareaProps, 'value' | 'onChange'> {
  value: string;
  onChange: (value: string) => void;
}

const KEYS: Readonly<Record<string, EmphasisMark>> = { b: 'bold', i: 'italic' };

/**
 * A text box for marked text (docs/decisions/0009-chapter-markup.md): Ctrl/Cmd+B and Ctrl/Cmd+I
 * toggle bold and italic over the selection or the word at the caret, by the editor's own rule
 * (toggleEmphasis), so an entry's description carries the manuscript's emphasis.
 */
export function MarkedTextarea({ value, onChange, description, ...rest }: MarkedTextareaProps) {
  const area = useRef<HTMLTextAreaElement | null>(null);
  const selection = useRef<[number, number] | null>(null);

  // After a toggle, the selection goes back around the same words.
  useLayoutEffect(() => {
    if (selection.current && area.current) area.current.setSelectionRange(...selection.current);
    selection.current = null;
  }, [value]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const mark = KEYS[event.key.toLowerCase()];
    if (!mark || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    event.preventDefault();
    const { selectionStart, selectionEnd } = event.currentTarget;
    const edit = toggleEmphasis(value, selectionStart, selectionEnd, mark);
    selection.current = [edit.selectionFrom, edit.selectionTo];
    onChange(value.slice(0, edit.from) + edit.insert + value.slice(edit.to));
  };

  return (
    <Textarea
      {...rest}
      ref={area}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      onKeyDown={onKeyDown}
      description={description ?? 'Ctrl+I for italic, Ctrl+B for bold'}
    />
  );
}

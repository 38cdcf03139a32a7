import { useState, type ChangeEvent } from 'react';

/**
 * A required title field: its text, and the "required" message shown by a submit with a blank title
 * until the author types one.
 *
 *   const title = useTitleField(MESSAGES.book.titleRequired);
 *   <TextInput label="Title" required {...title.inputProps} />
 *   if (!title.check()) return;
 */
export function useTitleField(requiredMessage: string) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  return {
    value,
    inputProps: {
      value,
      error,
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        const next = event.currentTarget.value;
        setValue(next);
        if (error && next.trim() !== '') setError(null);
      },
    },
    /** True when the title is filled in; otherwise shows the message. */
    check(): boolean {
      if (value.trim() !== '') return true;
      setError(requiredMessage);
      return false;
    },
    reset(): void {
      setValue('');
      setError(null);
    },
  };
}

import { useCallback, useState } from 'react';
import { totalBooksSchema } from '@chronicler/schema';

/**
 * The "Total books" number field of New/Edit Series: what the author typed (never silently
 * replaced: "0" stays 0 and "-2" stays -2) and the spec's minimum-1 message, checked with the same
 * rule the server applies (`totalBooksSchema`).
 *
 *   const total = useTotalBooksField(3);
 *   <NumberInput label="Total books" {...total.inputProps} />
 *   const books = total.check(); if (books === null) return;
 */
export function useTotalBooksField(initial: number) {
  const [value, setValue] = useState<number | string>(initial);
  const [error, setError] = useState<string | null>(null);
  const reset = useCallback(
    (next: number = initial) => {
      setValue(next);
      setError(null);
    },
    [initial],
  );
  const parse = (raw: number | string) => totalBooksSchema.safeParse(typeof raw === 'number' ? raw : raw.trim() === '' ? undefined : Number(raw));
  return {
    value,
    inputProps: {
      value,
      error,
      min: 1,
      max: 1000,
      allowDecimal: false,
      allowNegative: true,
      clampBehavior: 'none' as const,
      onChange: (next: number | string) => {
        setValue(next);
        // The message goes as soon as the value is right again.
        if (error && parse(next).success) setError(null);
      },
    },
    /** The number when it is valid; otherwise shows the message and answers null. */
    check(): number | null {
      const result = parse(value);
      if (result.success) return result.data;
      setError(result.error.issues[0]?.message ?? null);
      return null;
    },
    /** The number when valid, else `fallback` (for fields bounded by it, e.g. the current book). */
    valid(fallback: number): number {
      const result = parse(value);
      return result.success ? result.data : fallback;
    },
    reset,
  };
}

import { useCallback, useRef, useState, type FormEvent } from 'react';
import type { Errors } from './validation';

interface Options<T> {
  initial: T;
  fields: readonly (keyof T)[];
  validateField: (field: keyof T, values: T) => string | undefined;
  /** Check each field as it changes (spec 000 §5 for /login and /register). Otherwise fields are
   *  first checked on submit, and re-checked on change after that. */
  validateOnChange: boolean;
  /** Fields to re-check when another one changes (confirm password follows password). */
  dependents?: Partial<Record<keyof T, readonly (keyof T)[]>>;
}

/** Small form state for the account screens: values, per-field errors, guarded submit. */
export function useValidatedForm<T extends { [K in keyof T]: string }>({
  initial,
  fields,
  validateField,
  validateOnChange,
  dependents = {},
}: Options<T>) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<Errors<T>>({});
  const touched = useRef(new Set<keyof T>());
  const submitted = useRef(false);

  const latest = useRef<T>(initial);

  const setField = useCallback(
    (field: keyof T, value: string) => {
      const next = { ...latest.current, [field]: value };
      latest.current = next;
      touched.current.add(field);
      setValues(next);
      if (!validateOnChange && !submitted.current) return;
      setErrors((prevErrors) => {
        const updated: Errors<T> = { ...prevErrors };
        updated[field] = validateField(field, next);
        for (const dep of dependents[field] ?? []) {
          if (touched.current.has(dep) || submitted.current) updated[dep] = validateField(dep, next);
        }
        return updated;
      });
    },
    [validateField, validateOnChange, dependents],
  );

  /** Validates everything; calls onValid only when the form is clean. Returns the errors. */
  const validate = useCallback((): Errors<T> => {
    submitted.current = true;
    const all: Errors<T> = {};
    for (const field of fields) {
      const message = validateField(field, latest.current);
      if (message) all[field] = message;
    }
    setErrors(all);
    return all;
  }, [fields, validateField]);

  const handleSubmit = useCallback(
    (onValid: (values: T) => void | Promise<void>) => (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const found = validate();
      const first = fields.find((f) => found[f]);
      if (first !== undefined) {
        const form = event.currentTarget;
        form.querySelector<HTMLElement>(`[name="${String(first)}"]`)?.focus();
        return;
      }
      void onValid(latest.current);
    },
    [fields, validate],
  );

  return { values, errors, setField, handleSubmit };
}

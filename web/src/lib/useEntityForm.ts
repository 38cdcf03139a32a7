import { useState, type FormEvent } from 'react';

interface EntityFormOptions<V> {
  initial: () => V;
  /** Field → message for every invalid field ({} when the values may be saved). */
  validate: (values: V) => Partial<Record<keyof V, string>>;
  /** Saves; resolves true when the dialog may close. */
  onSubmit: (values: V) => Promise<boolean>;
  onClose: () => void;
}

/**
 * The state of an entity's add/edit form: its values, the errors of the last submit (a field's error
 * clears as it is edited), and the busy flag while saving. `submit` validates, saves, and closes
 * when the save says so.
 */
export function useEntityForm<V extends object>({ initial, validate, onSubmit, onClose }: EntityFormOptions<V>) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof V, string>>>({});
  const [busy, setBusy] = useState(false);

  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      if (await onSubmit(values)) onClose();
    } finally {
      setBusy(false);
    }
  };

  return { values, setValues, errors, busy, set, submit };
}

/** While a dialog fades out, the row it shows is already gone from its props: keep the last one. */
export function useHeldWhileClosing<T>(opened: boolean, value: T): T {
  const [shown, setShown] = useState(value);
  if (opened && shown !== value) setShown(value);
  return opened ? value : shown;
}

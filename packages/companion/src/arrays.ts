/**
 * An empty array that V8 already holds as an array of strings or objects (PACKED_ELEMENTS). A fresh
 * `[]` holds small integers until its first string or object arrives; the analysis's long scans
 * are compiled while their first call runs, and that change of the next call's fresh array threw
 * the compiled code away ("wrong map", "not a Smi") in each of the bench's early calls.
 */
export function emptyArray<T>(): T[] {
  const array: unknown[] = [null];
  array.pop();
  return array as T[];
}

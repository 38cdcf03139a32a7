/**
 * The editor opened at a search hit: `select=<from>-<to>` (lib/chapterEditorPath
 * EDITOR_SELECT_PARAM, offsets in the marked text) as a selection within a text of `length`
 * characters, or null (malformed, or past the end: the text changed since).
 */
export function selectedRange(param: string | null, length: number): { anchor: number; head: number } | null {
  const match = param ? /^(\d{1,9})-(\d{1,9})$/u.exec(param) : null;
  if (!match) return null;
  const from = Number(match[1]);
  const to = Number(match[2]);
  return from <= to && to <= length ? { anchor: from, head: to } : null;
}

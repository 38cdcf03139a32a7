/** The smallest single replacement that turns `current` into `next` (null when they are equal). */
export function minimalChange(current: string, next: string): { from: number; to: number; insert: string } | null {
  if (current === next) return null;
  let start = 0;
  const max = Math.min(current.length, next.length);
  while (start < max && current.charCodeAt(start) === next.charCodeAt(start)) start++;
  let endA = current.length;
  let endB = next.length;
  while (endA > start && endB > start && current.charCodeAt(endA - 1) === next.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  return { from: start, to: endA, insert: next.slice(start, endB) };
}

/** Sets `key`, first dropping the oldest entry when the map already holds `max` (a Map iterates oldest first). */
export function setBounded<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  if (map.size >= max && !map.has(key)) map.delete(map.keys().next().value!);
  map.set(key, value);
}

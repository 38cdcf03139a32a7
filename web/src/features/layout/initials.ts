/** Up to two initials from a display name ("Ursula Le Guin" → "UG"), else from the username. */
export function initialsOf(displayName: string, username = ''): string {
  const words = displayName.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return username.slice(0, 2).toUpperCase() || '?';
  const first = [...(words[0] ?? '')][0] ?? '';
  const last = words.length > 1 ? ([...(words[words.length - 1] ?? '')][0] ?? '') : '';
  return (first + last).toUpperCase();
}

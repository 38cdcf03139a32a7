/**
 * Finding characters' names in chapter text for the continuity checks, without flooding the author
 * (docs/decisions/0017-canon-changes.md): names as the author wrote them, whole words only; a name
 * written with a capital is matched case-sensitively (so "Will" is not the verb "will", and "Hope"
 * not "hope"), a name written in lower case matches any case; words the author excluded are never
 * matched. One pass over a chapter finds every name at once (a single alternation, longest first).
 */

/** One name found: which name, in which paragraph (line) of the text, at which character. */
export interface NameHit {
  readonly name: string;
  readonly paragraph: number;
  readonly offset: number;
}

export interface NameMatcher {
  /** Every whole-word occurrence of the matcher's names in `text`, in order. */
  find(text: string): NameHit[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const startsCapitalised = (name: string) => /^\p{Lu}/u.test(name);
// A name is a whole word when no letter, digit or joiner touches it.
const BEFORE = '(?<![\\p{L}\\p{N}\\p{M}_])';
const AFTER = '(?![\\p{L}\\p{N}\\p{M}_])';

function alternation(names: readonly string[], flags: string): RegExp | null {
  if (names.length === 0) return null;
  const sorted = [...names].sort((a, b) => b.length - a.length || a.localeCompare(b));
  return new RegExp(`${BEFORE}(?:${sorted.map(escape).join('|')})${AFTER}`, flags);
}

/**
 * A matcher of `names` (blank ones and `excluded` words ignored; an excluded word is compared
 * ignoring case). A found name is answered as the author wrote it in `names`.
 */
export function nameMatcher(names: readonly string[], excluded: readonly string[] = []): NameMatcher {
  const skip = new Set(excluded.map((word) => word.trim().toLowerCase()));
  const wanted = [...new Set(names.map((name) => name.trim()).filter((name) => name !== '' && !skip.has(name.toLowerCase())))];
  const exact = wanted.filter(startsCapitalised);
  const anyCase = wanted.filter((name) => !startsCapitalised(name));
  const byLower = new Map(anyCase.map((name) => [name.toLowerCase(), name]));
  const patterns = [alternation(exact, 'gu'), alternation(anyCase, 'giu')].filter((p): p is RegExp => p !== null);
  return {
    find(text) {
      const hits: NameHit[] = [];
      if (patterns.length === 0) return hits;
      const lines = text.split('\n');
      lines.forEach((line, paragraph) => {
        for (const pattern of patterns) {
          pattern.lastIndex = 0;
          for (let match = pattern.exec(line); match; match = pattern.exec(line)) {
            const found = match[0];
            hits.push({ name: pattern.flags.includes('i') ? (byLower.get(found.toLowerCase()) ?? found) : found, paragraph, offset: match.index });
          }
        }
      });
      return hits.sort((a, b) => a.paragraph - b.paragraph || a.offset - b.offset);
    },
  };
}

/**
 * The natural order of free-text dates for the chronological view (docs/spec-differences.md, in
 * place of the spec's alphabetical order, which put "Year 10" before "Year 9" and "Autumn" before
 * "Spring"): the text is read as a run of tokens, numbers compare as numbers, month and season
 * names in calendar order, and any other word alphabetically (case- and accent-insensitive).
 */
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** Seasons sit after the month they begin in: spring after March, …, winter after December. */
const SEASONS: Record<string, number> = { spring: 3.5, summer: 6.5, autumn: 9.5, fall: 9.5, winter: 12.5 };

type Token = { kind: 0; value: number } | { kind: 1; value: number } | { kind: 2; value: string };

const words = new Intl.Collator('en', { sensitivity: 'base' });

function calendarValue(word: string): number | null {
  const lower = word.toLowerCase();
  const season = SEASONS[lower];
  if (season !== undefined) return season;
  if (lower.length < 3) return null;
  const month = MONTHS.indexOf(lower.slice(0, 3));
  // "Mar", "March", "Sept", "September" — not "Marble" or "Mayor".
  if (month < 0) return null;
  const full = new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2000, month, 1)).toLowerCase();
  return full.startsWith(lower) || (lower === 'sept' && month === 8) ? month + 1 : null;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const match of text.matchAll(/\d+(?:\.\d+)?|\p{L}+/gu)) {
    const piece = match[0];
    if (/^\d/.test(piece)) out.push({ kind: 0, value: Number(piece) });
    else {
      const calendar = calendarValue(piece);
      out.push(calendar === null ? { kind: 2, value: piece } : { kind: 1, value: calendar });
    }
  }
  return out;
}

/** Compares two date texts naturally; texts with no difference in their tokens fall back to the whole text. */
export function compareDateText(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  for (let i = 0; i < Math.min(ta.length, tb.length); i++) {
    const x = ta[i]!;
    const y = tb[i]!;
    if (x.kind !== y.kind) return x.kind - y.kind;
    const order = x.kind === 2 ? words.compare(x.value, y.value as string) : x.value - (y.value as number);
    if (order !== 0) return order;
  }
  return ta.length - tb.length || words.compare(a, b);
}

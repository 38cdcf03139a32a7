/**
 * The chronological order of free-text dates as an author means them (docs/spec-differences.md,
 * in place of the spec's alphabetical order with empty dates first):
 *
 * - A date is read as an era and a run of values. Numbers compare as numbers ("Year 9" before
 *   "Year 10"); a year written "-60", "Year -60", "60 BCE" or "60 BC" is negative, so back-story
 *   comes first; month and season names compare in calendar order; equal dates keep the story's order.
 * - The era is what names the calendar: the words left once the generic ones ("Year", "Day", "of",
 *   months, seasons, "AD"/"CE") are taken out — "3rd Age 120" is year 120 of the era "3rd Age".
 *   Plain years ("Year 11", "-60") are the unnamed era. Eras are ordered as the author uses them:
 *   by first appearance in the story's order (the Narrative view), except that eras with the same
 *   name and an ordinal ("Second Age", "3rd Age") follow their ordinals — unless the author has set
 *   an order of their own (the series' `eraOrder`, by `eraKey`): those eras come first, in it.
 * - An undated event keeps its narrative place: it sits right after the dated event that precedes
 *   it in the story's order (first when nothing dated precedes it).
 *
 * `chronologyKeys` reads a list once into keys; `compareChronology` is a total order on them.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** Seasons sit after the month they begin in: spring after March, …, winter after December. */
const SEASONS: Record<string, number> = { spring: 3.5, summer: 6.5, autumn: 9.5, fall: 9.5, winter: 12.5 };
const ORDINAL_WORDS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth'];
/** Words that say "this is a date" without naming an era. */
const GENERIC_WORDS = new Set(['year', 'years', 'yr', 'day', 'days', 'month', 'week', 'in', 'the', 'of', 'on', 'at', 'and', 'ce', 'ad', 'bce', 'bc']);

/** A value of the date: 0 a number, 1 a month or season (its place in the calendar). */
export interface DateValue {
  kind: 0 | 1;
  value: number;
}

export interface ParsedDate {
  /** The era's name without its ordinal, lower case ('' for plain years). */
  eraName: string;
  /** "3rd Age" → 3, "Second Age" → 2; 0 without an ordinal. */
  eraOrdinal: number;
  values: DateValue[];
}

const MONTH_NAMES = MONTHS.map((_, month) => new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2000, month, 1)).toLowerCase());

function calendarValue(lower: string): number | null {
  const season = SEASONS[lower];
  if (season !== undefined) return season;
  if (lower.length < 3) return null;
  const month = MONTHS.indexOf(lower.slice(0, 3));
  // "Mar", "March", "Sept", "September" — not "Marble" or "Mayor".
  if (month < 0) return null;
  return MONTH_NAMES[month]!.startsWith(lower) || (lower === 'sept' && month === 8) ? month + 1 : null;
}

/** "B.C.E." → "bce", "A.D." → "ad": dotted era markers read as one word. */
function undotted(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}])(?:b\.\s?c\.(?:\s?e\.)?|a\.\s?d\.|c\.\s?e\.)/giu, (m) => ` ${m.replace(/[.\s]/g, '')} `);
}

/** Reads a date text; null when it is blank (undated). */
export function parseDate(text: string): ParsedDate | null {
  if (text.trim() === '') return null;
  const values: DateValue[] = [];
  const era: string[] = [];
  let eraOrdinal = 0;
  let beforeCommonEra = false;
  // A minus sign counts when it starts a number ("-60", "Year -60"), not in a range ("302-305").
  for (const match of undotted(text).matchAll(/(?<![\p{L}\p{N}])[-−]?\d+(?:\.\d+)?(?:st|nd|rd|th)?|\p{L}+/giu)) {
    const piece = match[0].toLowerCase();
    const ordinal = /^(\d+)(?:st|nd|rd|th)$/.exec(piece);
    if (ordinal) eraOrdinal ||= Number(ordinal[1]);
    else if (/^[-−]?\d/.test(piece)) values.push({ kind: 0, value: Number(piece.replace('−', '-')) });
    else if (piece === 'bce' || piece === 'bc') beforeCommonEra = true;
    else if (ORDINAL_WORDS.includes(piece) && eraOrdinal === 0) eraOrdinal = ORDINAL_WORDS.indexOf(piece) + 1;
    else {
      const calendar = calendarValue(piece);
      if (calendar !== null) values.push({ kind: 1, value: calendar });
      else if (!GENERIC_WORDS.has(piece)) era.push(piece);
    }
  }
  if (beforeCommonEra) {
    // "60 BCE": the year counts back; the first number is the year.
    const year = values.findIndex((v) => v.kind === 0);
    if (year >= 0) values[year] = { kind: 0, value: -Math.abs(values[year]!.value as number) };
  }
  return { eraName: era.join(' '), eraOrdinal, values };
}

/** An era's identity as the series stores it in `eraOrder`: "age#3" for "3rd Age", "" for plain years. */
export function eraKey(date: ParsedDate): string {
  return date.eraOrdinal ? `${date.eraName}#${date.eraOrdinal}` : date.eraName;
}

/**
 * The era order, from the dates in the story's order: the eras the author ordered (`authorOrder`,
 * era keys) first, in that order; then era names by first appearance, and within a name, its
 * ordinals in order ("Second Age" before "Third Age"). Answers era key → rank.
 */
export function eraRanks(datesInStoryOrder: readonly (ParsedDate | null)[], authorOrder: readonly string[] = []): Map<string, number> {
  const nameRank = new Map<string, number>();
  const eras = new Map<string, ParsedDate>();
  for (const date of datesInStoryOrder) {
    if (date === null) continue;
    if (!nameRank.has(date.eraName)) nameRank.set(date.eraName, nameRank.size);
    eras.set(eraKey(date), date);
  }
  const chosen = new Map(authorOrder.map((key, index) => [key, index]));
  const rankOf = (date: ParsedDate) => chosen.get(eraKey(date)) ?? Infinity;
  const ordered = [...eras.values()].sort(
    (a, b) => rankOf(a) - rankOf(b) || nameRank.get(a.eraName)! - nameRank.get(b.eraName)! || a.eraOrdinal - b.eraOrdinal,
  );
  return new Map(ordered.map((date, rank) => [eraKey(date), rank]));
}

/** One era the story's dates use, as the era order control lists it. */
export interface EraInUse {
  key: string;
  /** The era as the author wrote it first ("3rd Age"), or "Years without an era". */
  label: string;
}

export const PLAIN_YEARS_LABEL = 'Years without an era';

/** The eras the dates use, in the order they are shown (eraRanks), each with a label. */
export function erasInUse(datesInStoryOrder: readonly string[], authorOrder: readonly string[] = []): EraInUse[] {
  const labels = new Map<string, string>();
  const parsed = datesInStoryOrder.map((text) => {
    const date = parseDate(text);
    if (date && !labels.has(eraKey(date))) {
      const written = text.replace(/(?<![\p{L}\d])[-\u2212]?\d[\d,.]*(?![\p{L}\d])/gu, ' ').replace(/\s+/g, ' ').trim();
      labels.set(eraKey(date), date.eraName === '' ? PLAIN_YEARS_LABEL : written || date.eraName);
    }
    return date;
  });
  const ranks = eraRanks(parsed, authorOrder);
  return [...ranks.entries()].sort((a, b) => a[1] - b[1]).map(([key]) => ({ key, label: labels.get(key)! }));
}

/** Where one event sits in the chronological order. */
export interface ChronologyKey {
  /** The era's rank (of the event's date, or of the dated event an undated one follows); -1 before every era. */
  era: number;
  values: readonly DateValue[];
  /** The story-order index of the dated event this key is anchored to (itself, when dated). */
  anchor: number;
  /** 0 for a dated event, 1 for an undated one placed after its anchor. */
  undated: 0 | 1;
  /** The event's own index in the story's order: unique, so the order is total. */
  story: number;
}

function compareValues(a: readonly DateValue[], b: readonly DateValue[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.kind !== y.kind) return x.kind - y.kind;
    if (x.value !== y.value) return x.value - y.value;
  }
  return a.length - b.length;
}

/** The chronological order: era, the date's values, then the story's order ("60 BCE" and "Year -60" are one year). */
export function compareChronology(a: ChronologyKey, b: ChronologyKey): number {
  return (
    a.era - b.era ||
    compareValues(a.values, b.values) ||
    a.anchor - b.anchor ||
    a.undated - b.undated ||
    a.story - b.story
  );
}

/**
 * One key per date, given in the story's order (index = story order). Undated entries borrow the
 * key of the nearest dated entry before them, so they stay where the story tells them.
 */
export function chronologyKeys(datesInStoryOrder: readonly string[], eraOrder: readonly string[] = []): ChronologyKey[] {
  const parsed = datesInStoryOrder.map(parseDate);
  const ranks = eraRanks(parsed, eraOrder);
  let last: ChronologyKey | null = null;
  return parsed.map((date, story) => {
    if (date === null) {
      return last ? { ...last, undated: 1, story } : { era: -1, values: [], anchor: -1, undated: 1, story };
    }
    last = { era: ranks.get(eraKey(date))!, values: date.values, anchor: story, undated: 0, story };
    return last;
  });
}

/** Sorts items given in the story's order chronologically (a new array). */
export function sortByChronology<T>(itemsInStoryOrder: readonly T[], dateOf: (item: T) => string, eraOrder: readonly string[] = []): T[] {
  const keys = chronologyKeys(itemsInStoryOrder.map(dateOf), eraOrder);
  return keys
    .map((key, i) => ({ key, item: itemsInStoryOrder[i]! }))
    .sort((a, b) => compareChronology(a.key, b.key))
    .map((entry) => entry.item);
}

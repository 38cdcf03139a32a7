/**
 * The author's writing day (docs/server.md#writing-statistics): the local calendar day in their
 * IANA time zone, where a day ends at `dayEndHour` local time (default 04:00), so a session past
 * midnight belongs to the day it started. Wall-clock time comes from Intl, DST included; no offsets
 * are written by hand.
 */

export const DEFAULT_DAY_END_HOUR = 4;
export const DEFAULT_TIME_ZONE = 'UTC';
/** A device clock this far ahead of the server is believed (ordinary drift); further is clamped. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** A day as 'YYYY-MM-DD'. */
export type DayKey = string;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** The calendar day `n` days after `day` (negative goes back). */
export function addDays(day: DayKey, n: number): DayKey {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** Whole days from `a` to `b` (positive when b is later). */
export function daysBetween(a: DayKey, b: DayKey): number {
  const toUtc = (day: DayKey) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((toUtc(b) - toUtc(a)) / 86_400_000);
}

/** Day of the week of a day key, 0 = Sunday … 6 = Saturday. */
export function weekdayOf(day: DayKey): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/**
 * Every zone's offset since 1980 is a whole number of quarter hours and clocks change on a quarter
 * hour, so a writing day never changes inside a quarter hour of UTC: the last answer per zone and
 * day-end hour is kept for its quarter hour (the server asks once or twice per save; Intl's
 * formatToParts costs ~10 µs).
 */
const QUARTER_HOUR_MS = 15 * 60_000;
const SINCE_1980_MS = Date.UTC(1980, 0, 1);
const lastDays = new Map<string, { quarter: number; day: DayKey }>();

/** The writing day `instant` belongs to in `timeZone`, with days ending at `dayEndHour` local time. */
export function writingDay(instant: Date | number | string, timeZone: string, dayEndHour: number = DEFAULT_DAY_END_HOUR): DayKey {
  const date = instant instanceof Date ? instant : new Date(instant);
  const time = date.getTime();
  if (!(time >= SINCE_1980_MS)) return dayOf(date, timeZone, dayEndHour);
  const quarter = Math.floor(time / QUARTER_HOUR_MS);
  const key = `${timeZone}\u0000${dayEndHour}`;
  const last = lastDays.get(key);
  if (last?.quarter === quarter) return last.day;
  const day = dayOf(date, timeZone, dayEndHour);
  lastDays.set(key, { quarter, day });
  return day;
}

/** The calendar day and the hour (0–23) of `date` on the wall clock of `timeZone`, DST included. */
function wallClock(date: Date, timeZone: string): { day: DayKey; hour: number } {
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = formatterFor(timeZone);
  } catch {
    formatter = formatterFor(DEFAULT_TIME_ZONE); // an unknown zone (validated on input; never thrown here)
  }
  const parts = formatter.formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)!.value);
  return { day: `${pad(get('year'), 4)}-${pad(get('month'))}-${pad(get('day'))}`, hour: get('hour') };
}

function dayOf(date: Date, timeZone: string, dayEndHour: number): DayKey {
  const { day, hour } = wallClock(date, timeZone);
  return hour < dayEndHour ? addDays(day, -1) : day;
}

/** The local hour (0–23) of `instant` in `timeZone`: the hour of the day an author wrote at. */
export function localHour(instant: Date | number | string, timeZone: string): number {
  return wallClock(instant instanceof Date ? instant : new Date(instant), timeZone).hour;
}

/**
 * The time an edit is attributed to: the device's time of the edit, unless it is implausible — in
 * the future of its arrival (beyond ordinary drift), before the chapter's last acknowledged save,
 * or not a time at all — then the arrival time.
 */
export function attributedTime(editedAt: string | number | null | undefined, arrival: Date, lastAcknowledgedSave: Date | null): Date {
  if (editedAt === null || editedAt === undefined) return arrival;
  const t = new Date(editedAt);
  if (Number.isNaN(t.getTime())) return arrival;
  if (t.getTime() > arrival.getTime() + MAX_CLOCK_SKEW_MS) return arrival;
  if (lastAcknowledgedSave !== null && t.getTime() < lastAcknowledgedSave.getTime()) return arrival;
  return t.getTime() > arrival.getTime() ? arrival : t;
}

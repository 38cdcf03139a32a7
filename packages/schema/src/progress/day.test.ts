import { describe, expect, it } from 'vitest';
import { isValidTimeZone } from '../entities.ts';
import { addDays, attributedTime, writingDay } from './day.ts';

describe('writingDay', () => {
  it('is the local calendar day in the author’s zone, ending at 04:00 by default', () => {
    const instant = '2026-03-02T02:30:00Z'; // Monday 02:30 UTC
    expect(writingDay(instant, 'UTC', 0)).toBe('2026-03-02');
    expect(writingDay(instant, 'UTC')).toBe('2026-03-01'); // before 04:00: still Sunday's session
    expect(writingDay(instant, 'America/New_York', 0)).toBe('2026-03-01'); // 21:30 Sunday
    expect(writingDay(instant, 'Asia/Tokyo')).toBe('2026-03-02'); // 11:30 Monday
    expect(writingDay(instant, 'Asia/Kolkata', 0)).toBe('2026-03-02'); // 08:00 (+05:30)
  });

  it('a session past midnight belongs to the day it started, up to the day-end hour', () => {
    expect(writingDay('2026-06-10T23:50:00+02:00', 'Europe/Berlin')).toBe('2026-06-10');
    expect(writingDay('2026-06-11T03:59:00+02:00', 'Europe/Berlin')).toBe('2026-06-10');
    expect(writingDay('2026-06-11T04:00:00+02:00', 'Europe/Berlin')).toBe('2026-06-11');
  });

  it('follows DST changes (Europe/Berlin springs forward on 29 March 2026)', () => {
    // 04:00 local is 02:00Z before the change and 02:00Z after too (03:00 CEST… 04:00 CEST = 02:00Z).
    expect(writingDay('2026-03-29T01:30:00Z', 'Europe/Berlin')).toBe('2026-03-28'); // 03:30 CEST
    expect(writingDay('2026-03-29T02:00:00Z', 'Europe/Berlin')).toBe('2026-03-29'); // 04:00 CEST
    expect(writingDay('2026-03-28T02:59:00Z', 'Europe/Berlin')).toBe('2026-03-27'); // 03:59 CET
    expect(writingDay('2026-03-28T03:00:00Z', 'Europe/Berlin')).toBe('2026-03-28'); // 04:00 CET
    // New York falls back on 1 November 2026: 04:00 local is 08:00Z before, 09:00Z after.
    expect(writingDay('2026-10-31T08:30:00Z', 'America/New_York')).toBe('2026-10-31');
    expect(writingDay('2026-11-02T08:30:00Z', 'America/New_York')).toBe('2026-11-01'); // 03:30 EST
  });

  it('an unknown zone falls back to UTC; isValidTimeZone tells them apart', () => {
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(writingDay('2026-01-01T12:00:00Z', 'Mars/Olympus')).toBe('2026-01-01');
  });

  it('addDays crosses months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });
});

describe('attributedTime (offline edits keep their day; implausible clocks are clamped)', () => {
  const arrival = new Date('2026-03-04T10:00:00Z'); // Wednesday
  it('words written offline on Monday and synced on Wednesday count for Monday', () => {
    const t = attributedTime('2026-03-02T18:00:00Z', arrival, new Date('2026-03-01T09:00:00Z'));
    expect(writingDay(t, 'UTC')).toBe('2026-03-02');
  });
  it('a time in the future, before the last acknowledged save, or not a time becomes the arrival', () => {
    expect(attributedTime('2026-03-05T10:00:00Z', arrival, null)).toEqual(arrival);
    expect(attributedTime('2026-03-01T10:00:00Z', arrival, new Date('2026-03-03T00:00:00Z'))).toEqual(arrival);
    expect(attributedTime('yesterday', arrival, null)).toEqual(arrival);
    expect(attributedTime(undefined, arrival, null)).toEqual(arrival);
  });
  it('a clock a little ahead (drift) is believed up to the arrival', () => {
    expect(attributedTime('2026-03-04T10:02:00Z', arrival, null)).toEqual(arrival);
  });
});

describe('writingDay within a quarter hour (answers are kept per quarter hour of UTC)', () => {
  /** The day from Intl directly, for every instant: what writingDay must answer. */
  const reference = (ms: number, timeZone: string, dayEndHour: number) => {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' }).formatToParts(ms);
    const get = (type: string) => parts.find((p) => p.type === type)!.value;
    const day = `${get('year')}-${get('month')}-${get('day')}`;
    return Number(get('hour')) < dayEndHour ? addDays(day, -1) : day;
  };

  it('matches Intl minute by minute across clock changes and day ends, in zones with odd offsets', () => {
    const cases: [string, string][] = [
      ['Europe/Berlin', '2026-03-29T00:00:00Z'],
      ['America/St_Johns', '2026-11-01T03:00:00Z'],
      ['Australia/Lord_Howe', '2026-04-04T13:00:00Z'],
      ['Pacific/Chatham', '2026-04-04T12:00:00Z'],
      ['Asia/Kathmandu', '2026-06-01T16:00:00Z'],
    ];
    for (const [zone, start] of cases) {
      for (const dayEndHour of [0, 4]) {
        for (let minute = 0; minute < 6 * 60; minute += 1) {
          const ms = new Date(start).getTime() + minute * 60_000 + 17_000;
          expect(writingDay(ms, zone, dayEndHour), `${zone} ${new Date(ms).toISOString()} end ${dayEndHour}`).toBe(reference(ms, zone, dayEndHour));
        }
      }
    }
  });
});

/**
 * The allowance's local day (sync-server/src/ai/allowance.ts): remembered per zone and quarter
 * hour, it must always equal the day Intl gives for that instant, across DST changes and zones
 * with quarter- and half-hour offsets, whatever order the instants are asked in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDay } from '../../src/ai/allowance.ts';

const ZONES = ['UTC', 'Pacific/Auckland', 'Asia/Kathmandu', 'Australia/Eucla', 'America/St_Johns', 'Europe/London', 'America/Los_Angeles', 'Pacific/Chatham', 'Asia/Kolkata'];
const intlDay = (ms: number, zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));

describe('localDay', () => {
  it('equals the Intl calendar day for any instant and zone, asked in any order', () => {
    // Instants around 2026's DST changes and midnights, to the millisecond.
    const start = Date.parse('2026-03-01T00:00:00Z');
    const instant = fc.integer({ min: start, max: start + 240 * 86_400_000 });
    const nearBoundary = fc.tuple(fc.integer({ min: 0, max: 240 * 96 }), fc.integer({ min: -2, max: 2 })).map(([q, d]) => start + q * 900_000 + d);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(instant, nearBoundary), fc.constantFrom(...ZONES)), { minLength: 1, maxLength: 30 }), (asks) => {
        for (const [ms, zone] of asks) expect(localDay(ms, zone)).toBe(intlDay(ms, zone));
      }),
      { numRuns: 200 },
    );
  });

  it('moves to the next day at the zone’s own midnight', () => {
    const midnightKathmandu = Date.parse('2026-03-10T18:15:00Z'); // 00:00 on 11 March at +05:45
    expect(localDay(midnightKathmandu - 1, 'Asia/Kathmandu')).toBe('2026-03-10');
    expect(localDay(midnightKathmandu, 'Asia/Kathmandu')).toBe('2026-03-11');
  });
});

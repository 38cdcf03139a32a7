import { describe, expect, it } from 'vitest';
import { createLocationBodySchema, locationSchema, updateLocationBodySchema } from './entities.ts';

const SERIES = '00000000-0000-7000-8000-000000000001';
const stored = {
  id: '00000000-0000-7000-8000-000000000002', rev: 3, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', deletedAt: null,
  seriesId: SERIES, name: 'Gont', locationType: 'island', description: '', importance: 'minor', bookAppearances: [1], image: null,
};

describe('a location’s "always include" mark', () => {
  it('reads as unmarked on a row written before the field (an older backup, a row kept on a device)', () => {
    expect(locationSchema.parse(stored).alwaysInclude).toBe(false);
    expect(locationSchema.parse({ ...stored, alwaysInclude: true }).alwaysInclude).toBe(true);
  });

  it('is unmarked unless the create body says so, and may be changed alone', () => {
    expect(createLocationBodySchema.parse({ seriesId: SERIES, name: 'Gont' }).alwaysInclude).toBe(false);
    expect(createLocationBodySchema.parse({ seriesId: SERIES, name: 'Gont', alwaysInclude: true }).alwaysInclude).toBe(true);
    expect(updateLocationBodySchema.parse({ alwaysInclude: true })).toEqual({ alwaysInclude: true });
    expect(updateLocationBodySchema.safeParse({ alwaysInclude: 'yes' }).success).toBe(false);
  });
});

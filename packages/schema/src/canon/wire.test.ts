import { describe, expect, it } from 'vitest';
import { CANON_FIELDS, CANON_FIELD_LABELS, canonValueProblem, createCanonChangeBodySchema } from './wire.ts';

describe('the values a canon change may set', () => {
  it('checks a field against its entity kind and its value against the field', () => {
    expect(canonValueProblem('character', 'status', 'missing', null)).toBeNull();
    expect(canonValueProblem('location', 'status', 'missing', null)).toEqual({ field: 'field', message: 'A location has no field "status" to change' });
    expect(canonValueProblem('relationship', 'status', 'ended', null)).toBeNull();
    expect(canonValueProblem('relationship', 'relationshipType', 'rival', null)?.field).toBe('value');
    expect(canonValueProblem('character', 'birthYear', '-340', null)).toBeNull();
    expect(canonValueProblem('character', 'birthYear', '1990s', null)).toEqual({ field: 'value', message: 'Must be a year (a whole number)' });
  });

  it('refuses an empty name or alias, and lets an affiliation or a description be cleared', () => {
    expect(canonValueProblem('character', 'name', '  ', null)).toEqual({ field: 'value', message: 'Must not be empty' });
    expect(canonValueProblem('character', 'alias', '', null)?.message).toBe('Must not be empty');
    expect(canonValueProblem('character', 'affiliation', '', null)).toBeNull();
    expect(canonValueProblem('location', 'description', '', null)).toBeNull();
  });

  it('names a place only for whereabouts, where words are optional', () => {
    const place = '0190a6f0-0000-7000-8000-0000000000c1';
    expect(canonValueProblem('character', 'whereabouts', '', place)).toBeNull();
    expect(canonValueProblem('character', 'whereabouts', 'on the road north', null)).toBeNull();
    expect(canonValueProblem('character', 'status', 'alive', place)).toEqual({ field: 'locationId', message: 'Only a change of whereabouts names a place' });
  });

  it('labels every field of the catalogue', () => {
    const fields = Object.values(CANON_FIELDS).flatMap((byKind) => Object.keys(byKind));
    expect(fields.filter((field) => !CANON_FIELD_LABELS[field])).toEqual([]);
  });

  it('gives a create body its defaults and puts the problem on the right field', () => {
    const base = {
      seriesId: '0190a6f0-0000-7000-8000-0000000000a1', entityKind: 'character', entityId: '0190a6f0-0000-7000-8000-0000000000a2',
      field: 'status', value: 'deceased', bookId: '0190a6f0-0000-7000-8000-0000000000a3', chapterId: '0190a6f0-0000-7000-8000-0000000000a4',
    };
    expect(createCanonChangeBodySchema.parse(base)).toMatchObject({ locationId: null, timelineEventId: null, date: '', note: '' });
    const refused = createCanonChangeBodySchema.safeParse({ ...base, value: 'asleep' });
    expect(refused.success ? [] : refused.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['value', 'Must be one of: alive, deceased, missing, unknown']]);
  });
});

import { describe, expect, it } from 'vitest';
import { MESSAGES, createLocationBodySchema, newId, type Location } from '@chronicler/schema';
import { IMAGE_URL_MESSAGE, createBodyFromForm, emptyLocationForm, formFromLocation, updateBodyFromForm, validateLocationForm } from './location-form';

const seriesId = newId();

describe('location form', () => {
  it('starts with the spec defaults: general, secondary, no books, no image, at the top level', () => {
    expect(emptyLocationForm()).toEqual({ name: '', locationType: 'general', description: '', importance: 'secondary', bookAppearances: [], image: '', alwaysInclude: false, parentId: null });
  });

  it('requires a name (blank counts as missing)', () => {
    expect(validateLocationForm({ ...emptyLocationForm(), name: '  ' })).toEqual({ name: MESSAGES.location.nameRequired });
    expect(validateLocationForm({ ...emptyLocationForm(), name: 'Gont' })).toEqual({});
  });

  it('accepts an empty image, a web address or a chosen picture, nothing else', () => {
    const base = { ...emptyLocationForm(), name: 'Gont' };
    expect(validateLocationForm({ ...base, image: 'https://example.org/gont.jpg' })).toEqual({});
    expect(validateLocationForm({ ...base, image: 'javascript:alert(1)' })).toEqual({ image: IMAGE_URL_MESSAGE });
    expect(validateLocationForm({ ...base, image: 'not a url' })).toEqual({ image: IMAGE_URL_MESSAGE });
    // A picture chosen on the device (docs/decisions/0023-pictures-on-the-device.md), and only a well-formed one.
    expect(validateLocationForm({ ...base, image: `media:${'a'.repeat(64)}#thumb=${'b'.repeat(64)}` })).toEqual({});
    expect(validateLocationForm({ ...base, image: `media:${'a'.repeat(63)}` })).toEqual({ image: IMAGE_URL_MESSAGE });
  });

  it('builds a create body the schema accepts, trimmed, books sorted, empty image as null', () => {
    const body = createBodyFromForm(seriesId, {
      name: '  Gont ',
      locationType: 'island',
      description: ' A mountain in the sea ',
      importance: 'main',
      bookAppearances: [3, 1, 3, 6],
      image: ' ',
      alwaysInclude: true,
      parentId: null,
    });
    expect(body).toEqual({ seriesId, name: 'Gont', locationType: 'island', description: 'A mountain in the sea', importance: 'main', bookAppearances: [1, 3, 6], image: null, alwaysInclude: true, parentId: null });
    expect(createLocationBodySchema.safeParse(body).success).toBe(true);
    expect('mapCoordinates' in body).toBe(false);
  });

  it('sends only the changed fields on edit', () => {
    const original: Location = {
      id: newId(),
      rev: 3,
      createdAt: '',
      updatedAt: '',
      deletedAt: null,
      seriesId,
      name: 'Gont',
      locationType: 'island',
      description: 'A mountain',
      importance: 'main',
      bookAppearances: [1],
      image: null,
      alwaysInclude: false,
      parentId: null,
    };
    const form = formFromLocation(original);
    expect(form.alwaysInclude).toBe(false);
    expect(formFromLocation({ ...original, alwaysInclude: true }).alwaysInclude).toBe(true);
    expect(updateBodyFromForm(original, form)).toEqual({});
    expect(updateBodyFromForm(original, { ...form, description: 'A mountain in the sea', bookAppearances: [2, 1] })).toEqual({
      description: 'A mountain in the sea',
      bookAppearances: [1, 2],
    });
    expect(updateBodyFromForm(original, { ...form, image: 'https://x.test/a.png' })).toEqual({ image: 'https://x.test/a.png' });
    expect(updateBodyFromForm(original, { ...form, alwaysInclude: true })).toEqual({ alwaysInclude: true });
    expect(updateBodyFromForm({ ...original, alwaysInclude: true }, { ...form, alwaysInclude: false })).toEqual({ alwaysInclude: false });
  });

  it('carries the place it is inside: set on create, sent on edit only when it changed (a row from before the field reads as top level)', () => {
    const parentId = newId();
    expect(emptyLocationForm(parentId).parentId).toBe(parentId);
    expect(createBodyFromForm(seriesId, { ...emptyLocationForm(parentId), name: 'Roke' }).parentId).toBe(parentId);
    const before = { id: newId(), rev: 1, createdAt: '', updatedAt: '', deletedAt: null, seriesId, name: 'Roke', locationType: 'island', description: '', importance: 'main', bookAppearances: [], image: null, alwaysInclude: false } as unknown as Location;
    const original = formFromLocation(before);
    expect(original.parentId).toBeNull();
    expect(updateBodyFromForm(before, original)).toEqual({});
    expect(updateBodyFromForm(before, { ...original, parentId })).toEqual({ parentId });
    expect(updateBodyFromForm({ ...before, parentId }, { ...original, parentId: null })).toEqual({ parentId: null });
  });
});

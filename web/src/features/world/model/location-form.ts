/**
 * The location dialog's values (spec 001 §3 Location, §5): defaults, checks and the request bodies.
 * A mapCoordinates field is never part of the body (the spec drops it before submit).
 */
import { parsePictureRef } from '@chronicler/sync-client';
import { MESSAGES, type CreateLocationBody, type Location, type UpdateLocationBody } from '@chronicler/schema';
import type { LocationImportance, LocationType } from './locations';

export interface LocationFormValues {
  name: string;
  locationType: LocationType;
  description: string;
  importance: LocationImportance;
  /** Book numbers: positions in the series (packages/schema book-appearances.ts). */
  bookAppearances: number[];
  /** An image URL; '' for none. */
  image: string;
  /** Always in the companion's context for an AI model (spoiler rule still applies); main locations are anyway. */
  alwaysInclude: boolean;
  /** The place it is inside; null at the top level (docs/decisions/0021-places-inside-places.md). */
  parentId: string | null;
}

export type LocationFormErrors = Partial<Record<keyof LocationFormValues, string>>;

export const IMAGE_URL_MESSAGE = 'Please enter a web address starting with http:// or https://';

/** A new place's values; `parentId` when it is added inside another. */
export function emptyLocationForm(parentId: string | null = null): LocationFormValues {
  return { name: '', locationType: 'general', description: '', importance: 'secondary', bookAppearances: [], image: '', alwaysInclude: false, parentId };
}

export function formFromLocation(location: Location): LocationFormValues {
  return {
    name: location.name,
    locationType: location.locationType,
    description: location.description,
    importance: location.importance,
    bookAppearances: [...location.bookAppearances],
    image: location.image ?? '',
    alwaysInclude: location.alwaysInclude,
    // A row kept on the device from before the field has none.
    parentId: location.parentId ?? null,
  };
}

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Field messages; empty when the form may be submitted. */
export function validateLocationForm(values: LocationFormValues): LocationFormErrors {
  const errors: LocationFormErrors = {};
  if (values.name.trim() === '') errors.name = MESSAGES.location.nameRequired;
  const image = values.image.trim();
  // A chosen picture is a `media:` reference (docs/decisions/0023-pictures-on-the-device.md).
  if (image !== '' && !isWebUrl(image) && parsePictureRef(image) === null) errors.image = IMAGE_URL_MESSAGE;
  return errors;
}

function normalised(values: LocationFormValues) {
  return {
    name: values.name.trim(),
    locationType: values.locationType,
    description: values.description.trim(),
    importance: values.importance,
    bookAppearances: [...new Set(values.bookAppearances)].filter((n) => Number.isInteger(n) && n >= 1).sort((a, b) => a - b),
    image: values.image.trim() === '' ? null : values.image.trim(),
    alwaysInclude: values.alwaysInclude,
    parentId: values.parentId,
  };
}

export function createBodyFromForm(seriesId: string, values: LocationFormValues): CreateLocationBody {
  return { seriesId, ...normalised(values) };
}

/** Only the fields that changed (a field the author did not touch keeps the server's value). */
export function updateBodyFromForm(original: Location, values: LocationFormValues): UpdateLocationBody {
  const next = normalised(values);
  const body: UpdateLocationBody = {};
  if (next.name !== original.name) body.name = next.name;
  if (next.locationType !== original.locationType) body.locationType = next.locationType;
  if (next.description !== original.description) body.description = next.description;
  if (next.importance !== original.importance) body.importance = next.importance;
  if (next.bookAppearances.join() !== [...original.bookAppearances].sort((a, b) => a - b).join()) body.bookAppearances = next.bookAppearances;
  if (next.image !== original.image) body.image = next.image;
  if (next.alwaysInclude !== original.alwaysInclude) body.alwaysInclude = next.alwaysInclude;
  if (next.parentId !== (original.parentId ?? null)) body.parentId = next.parentId;
  return body;
}

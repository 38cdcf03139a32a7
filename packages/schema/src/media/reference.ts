/**
 * How an entity field names a picture kept on the server (docs/decisions/0022-pictures-on-the-server.md):
 * `media:<display sha-256>` optionally followed by `#thumb=<thumbnail sha-256>`, each the lowercase hex
 * SHA-256 of the picture's bytes. The fields that may hold one (series.coverImage,
 * character.avatarUrl, location.image) hold an https URL otherwise, as before.
 */

export const MEDIA_REFERENCE_PREFIX = 'media:';
const THUMB_MARK = '#thumb=';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A lowercase hex SHA-256: what names a picture. */
export function isSha256Hex(value: string): boolean {
  return SHA256_HEX.test(value);
}

export interface MediaReference {
  /** The display-size picture. */
  display: string;
  /** Its thumbnail, when the browser made one. */
  thumb: string | null;
}

/** The reference a field holds, or null when it holds anything else (a URL, nothing, a malformed reference). */
export function parseMediaReference(value: string | null | undefined): MediaReference | null {
  if (typeof value !== 'string' || !value.startsWith(MEDIA_REFERENCE_PREFIX)) return null;
  const rest = value.slice(MEDIA_REFERENCE_PREFIX.length);
  const mark = rest.indexOf(THUMB_MARK);
  const display = mark === -1 ? rest : rest.slice(0, mark);
  const thumb = mark === -1 ? null : rest.slice(mark + THUMB_MARK.length);
  if (!isSha256Hex(display) || (thumb !== null && !isSha256Hex(thumb))) return null;
  return { display, thumb };
}

export function formatMediaReference(reference: MediaReference): string {
  return `${MEDIA_REFERENCE_PREFIX}${reference.display}${reference.thumb ? `${THUMB_MARK}${reference.thumb}` : ''}`;
}

/** Every picture a field value names (display and thumbnail), none for a URL or nothing. */
export function mediaHashesIn(value: string | null | undefined): string[] {
  const reference = parseMediaReference(value);
  if (!reference) return [];
  return reference.thumb ? [reference.display, reference.thumb] : [reference.display];
}

/**
 * The entity fields that may hold a picture, by table kind (the server's garbage collection reads
 * them: a picture no live field of its series names is removed). A new picture field adds a line.
 */
export const MEDIA_FIELDS = [
  { kind: 'series', field: 'coverImage' },
  { kind: 'characters', field: 'avatarUrl' },
  { kind: 'locations', field: 'image' },
] as const;
